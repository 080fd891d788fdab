import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PROTOCOLS, paraphraseProtocol, protocolNamed, validateConfig } from './index.js';
import { formatParaphraseReport } from './protocols/paraphrase/tables.js';
import { assertBuilt, runCli } from './test-support/cli/cli.js';
import { tinyModelMissing, tinyModelPath } from './test-support/shared.js';

/** The library drives a protocol as the CLI does: the same config, the same module, the same results. */

const dir = mkdtempSync(join(tmpdir(), 'waver-library-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the protocols as the library exports them', () => {
  it('are the registry, by name, each with its config section where it has one', () => {
    // waver's own, in report order; a protocol registered (or added to the registry) comes after them.
    expect(PROTOCOLS.map((p) => p.name).slice(0, 5)).toEqual([
      'ladder',
      'sago',
      'paraphrase',
      'spread',
      'run',
    ]);
    expect(protocolNamed('paraphrase')).toBe(paraphraseProtocol);
    expect(PROTOCOLS.slice(0, 5).flatMap((p) => (p.config ? [p.config.key] : []))).toEqual([
      'ladder',
      'sago',
      'paraphrase',
      'spread',
    ]);
    expect(() => validateConfig({ paraphrase: { repeat: 3 } } as never)).toThrow(/unknown field/);
  });
});

const withModel = tinyModelPath ? describe : describe.skip;
withModel(`paraphrase through the library with the tiny GGUF ${tinyModelMissing ?? ''}`, () => {
  it('build, estimate and run give what the CLI prints from', async () => {
    assertBuilt();
    const store = join(dir, 'store.db');
    const model = `gguf:${tinyModelPath}`;
    const config = validateConfig({
      models: [model],
      store,
      params: { maxTokens: 4 },
      paraphrase: { limit: 2 },
    });
    const plan = await paraphraseProtocol.build(config);
    expect(plan.items.map((i) => i.id)).toHaveLength(2);
    // 2 items x 5 phrasings x 2 repeats.
    expect(await paraphraseProtocol.estimate(config, plan)).toMatchObject([{ cells: 20, calls: 20 }]);

    const outcome = await paraphraseProtocol.run(config, plan);
    expect(outcome).toMatchObject({ aborted: false, complete: true });
    expect(outcome.runs).toHaveLength(1);
    expect(outcome.runs[0]?.models[0]?.coverage).toMatchObject({ total: 20, done: 20, failed: 0 });
    if (!outcome.results) throw new Error('no results');

    // The CLI on the same store (every cell stored) prints the same results.
    const cli = await runCli([
      'paraphrase',
      '--models',
      model,
      '--store',
      store,
      '--max-tokens',
      '4',
      '--limit',
      '2',
      '--format',
      'json',
    ]);
    expect(cli.code, cli.stderr).toBe(0);
    const { run: _run, ...printed } = JSON.parse(cli.stdout);
    const library = JSON.parse(
      formatParaphraseReport(outcome.results, 'json', { dropped: outcome.rewords.dropped }),
    );
    expect(printed).toEqual(library);
  }, 120_000);
});
