import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { WaverConfig } from '../../config/schema.js';
import { processProviders } from '../../models/registry.js';
import { auxCount } from '../../run/aux-cache.js';
import { openStore } from '../../store/store.js';
import { tinyModelMissing, tinyModelPath } from '../../test-support/shared.js';
import { withPool } from '../define.js';
import { CONFIG } from '../index.js';
import { estimateSago } from './estimate.js';
import { promptSetsSize, sagoPromptSets } from './prompt-sets.js';
import { runSago } from './run.js';

// Counts the providers a run creates (the real registry does the work).
const created = vi.spyOn(processProviders, 'create');

const withModel = tinyModelPath ? describe : describe.skip;

withModel(`runSago as a library call with the tiny GGUF ${tinyModelMissing ?? ''}`, () => {
  const model = `gguf:${tinyModelPath}`;

  it('--dry-run estimates the responses stage and writes nothing', async () => {
    const store = join(mkdtempSync(join(tmpdir(), 'waver-sago-dry-')), 'store.db');
    const config = CONFIG.validate({
      models: [model],
      store,
      dryRun: true,
      sago: { n: 2, families: ['noise'], variations: 3 },
    });
    const plan = await sagoPromptSets(config);
    expect(promptSetsSize(plan)).toMatchObject({ prompts: 2, variations: 3, tests: 8 });
    const estimate = await withPool(config, {}, (o) => estimateSago(config, plan, o));
    expect(estimate[0]).toMatchObject({ cells: 8, calls: 8 });
    expect(existsSync(store)).toBe(false);
  });

  it('teacher-forced confidence: scores stored in aux_results, exact entropy, values equal to the generation at temperature 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'waver-sago-tf-'));
    const base = {
      models: [model],
      params: { maxTokens: 12 },
      sago: { n: 2, families: ['noise' as const], variations: 3, ablation: { sizes: [2], draws: 10 } },
    };
    const run = async (config: WaverConfig) =>
      withPool(config, {}, async (o) => runSago(config, await sagoPromptSets(config), o));
    const generation = await run(CONFIG.validate({ ...base, store: join(dir, 'a.db') }));
    const forced = await run(
      CONFIG.validate({
        ...base,
        store: join(dir, 'b.db'),
        sago: { ...base.sago, confidence: 'teacher-forced' },
      }),
    );
    // The manifest (and so the report's settings) records the output cap in force: the run's
    // params.maxTokens, as sago.maxTokens was unset.
    expect(generation.results?.manifest.settings.maxTokens).toBe(12);
    const g = generation.results?.models[0];
    const f = forced.results?.models[0];
    expect(f?.axes.logprob.method).toMatch(/teacher-forced/);
    expect(f?.axes.entropy).toMatchObject({ available: true });
    expect(f?.axes.entropy.approximate).toBeUndefined();
    const db = openStore(join(dir, 'b.db'));
    try {
      // One teacher-forced score per stored response (baselines and variants).
      expect(auxCount(db, { kind: 'score' })).toBe(8);
    } finally {
      db.close();
    }
    // The gguf provider's numerics do not depend on batch shape, so re-scoring the generated text
    // gives the generation's own log-probs (up to re-tokenization, which these short replies survive).
    const gl = g?.table.deltas.logprob as Float64Array;
    const fl = f?.table.deltas.logprob as Float64Array;
    expect(fl.length).toBe(gl.length);
    for (let k = 0; k < gl.length; k++) expect(fl[k]).toBeCloseTo(gl[k] as number, 3);
    // ablation sizes from the settings: N = 2 of 2 prompts.
    expect(f?.ablations.sampleSize.bleu?.map((p) => p.n)).toEqual([2]);
  }, 120_000);

  it('creates each model once for the whole run: responses, self-scoring, hidden states and embedder share it', async () => {
    const store = join(mkdtempSync(join(tmpdir(), 'waver-sago-once-')), 'store.db');
    created.mockClear();
    const config = CONFIG.validate({
      models: [model],
      embedder: model,
      store,
      params: { maxTokens: 12 },
      sago: { n: 2, families: ['noise'], variations: 3, confidence: 'teacher-forced' },
    });
    const r = await withPool(config, {}, async (o) => runSago(config, await sagoPromptSets(config), o));
    expect(r.results?.models[0]?.axes.activation).toMatchObject({ available: true });
    expect(created.mock.calls.map(([spec]) => spec.model)).toEqual([tinyModelPath]);
    const db = openStore(store);
    try {
      expect(auxCount(db, { kind: 'score' })).toBe(8);
      expect(auxCount(db, { kind: 'embed' })).toBeGreaterThan(8);
    } finally {
      db.close();
    }
  }, 120_000);
});
