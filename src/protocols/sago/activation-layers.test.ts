import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WaverConfig } from '../../config/schema.js';
import { createGgufProvider, type GgufProvider } from '../../models/gguf.js';
import { openStore } from '../../store/store.js';
import { cosine, layerStatesBuilt, layerStatesMissing } from '../../test-support/models/layer-states.js';
import { tinyModelMissing, tinyModelPath } from '../../test-support/shared.js';
import { withPool } from '../define.js';
import { CONFIG } from '../index.js';
import { promptGroups } from './aux-stage.js';
import { AXIS_SCALE } from './constants.js';
import { promptSetsSize, sagoPromptSets } from './prompt-sets.js';
import { runSago } from './run.js';
import { sagoTests } from './test-meta.js';

/**
 * The activation axis over every layer (`sago.activationLayers: mean`, the paper's) against the
 * final layer (`final`, the reference code's and the default), on the tiny GGUF (5 layers, so 6
 * hidden states), each Δ recomputed here from the model's hidden states (docs/sago.md#activation).
 */

const sorted = (xs: Iterable<number>) => [...xs].filter(Number.isFinite).sort((a, b) => a - b);

describe.skipIf(!tinyModelPath || !layerStatesBuilt)(
  `SAGO's activation axis over every layer ${tinyModelMissing ?? layerStatesMissing}`,
  () => {
    const dir = mkdtempSync(join(tmpdir(), 'waver-sago-layers-'));
    const store = join(dir, 'store.db');
    const settings = (activationLayers: 'final' | 'mean') =>
      CONFIG.validate({
        models: [`gguf:${tinyModelPath}`],
        store,
        params: { maxTokens: 8 },
        sago: {
          n: 2,
          families: ['noise'],
          variations: 3,
          axes: ['activation'],
          activationLayers,
          ablation: { sizes: [2], draws: 10 },
        },
      });
    const run = async (config: WaverConfig) =>
      withPool(config, {}, async (o) => runSago(config, await sagoPromptSets(config), o));
    let provider: GgufProvider;
    beforeAll(async () => {
      provider = await createGgufProvider({ modelPath: tinyModelPath as string });
    });
    afterAll(async () => {
      await provider?.close();
    });

    it('mean: Δ = mean over the 6 states of the cosine - 1; final: the last state only; the two differ', async () => {
      const config = settings('mean');
      expect(promptSetsSize(await sagoPromptSets(config))).toMatchObject({ prompts: 2, tests: 8 });
      const mean = await run(config);
      const final = await run(settings('final'));
      const m = mean.results?.models[0];
      const f = final.results?.models[0];
      expect(m?.axes.activation).toMatchObject({ available: true });
      expect(m?.axes.activation.method).toMatch(/mean over the L \+ 1 hidden states/);
      expect(f?.axes.activation.method).toMatch(/final-layer hidden state/);
      expect(mean.suiteHash).toBe(final.suiteHash);

      // Independently: each variant prompt's states against its baseline's, from the model.
      const db = openStore(store);
      const suite = db.suites.get(mean.suiteHash as string);
      db.close();
      if (!suite) throw new Error('no suite');
      const expectedMean: number[] = [];
      const expectedFinal: number[] = [];
      for (const group of promptGroups({ ...suite, tests: sagoTests(suite) })) {
        const texts = [group.baseline.prompt, ...group.variants.map((v) => v.prompt)];
        const states = (await provider.embed({ input: texts, layers: 'all' })).layerStates ?? [];
        const base = states[0] as number[][];
        expect(base).toHaveLength(6);
        for (const variant of states.slice(1)) {
          const perLayer = variant.map((s, k) => cosine(s, base[k] as number[]));
          expectedMean.push(perLayer.reduce((a, b) => a + b, 0) / perLayer.length);
          expectedFinal.push(perLayer[5] as number);
        }
      }
      expect(expectedMean).toHaveLength(6);
      // Δ against the baseline's own value (the paper's), whose cosine with itself is 1; the table
      // holds Δ before the division by R (2), which the score applies.
      expect(AXIS_SCALE.activation).toBe(2);
      const back = (d: Float64Array | undefined) => sorted([...(d ?? [])].map((x) => x + 1));
      const gotMean = back(m?.table.deltas.activation);
      const gotFinal = back(f?.table.deltas.activation);
      expect(gotMean).toHaveLength(6);
      for (const [k, x] of sorted(expectedMean).entries()) expect(gotMean[k]).toBeCloseTo(x, 9);
      for (const [k, x] of sorted(expectedFinal).entries()) expect(gotFinal[k]).toBeCloseTo(x, 9);
      // The choice changes the number: the mean is not the last layer's cosine.
      expect(
        Math.max(...expectedMean.map((x, k) => Math.abs(x - (expectedFinal[k] as number)))),
      ).toBeGreaterThan(1e-4);
    }, 180_000);
  },
);
