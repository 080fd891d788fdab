import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../store/store.js';
import { validate } from '../test-support/json-schema.js';
import { ScriptedProvider, steps } from '../test-support/scripted-provider.js';
import { hashOf } from '../util/hash.js';
import { runCells } from './engine.js';
import { inspectLogs } from './export-inspect.js';
import type { Suite } from './types.js';

/** inspect_ai's published schema of its eval log (provenance and licence: src/test-support/run/inspect/README.md). */
const SCHEMA = JSON.parse(
  readFileSync(new URL('../test-support/run/inspect/log-schema.json', import.meta.url), 'utf8'),
) as Record<string, unknown>;

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A store with one suite (two phrasings of one item, and one that fails) x two models x two repeats. */
async function storeOfRun(): Promise<{ store: Store; suite: Suite }> {
  const dir = mkdtempSync(join(tmpdir(), 'waver-inspect-'));
  dirs.push(dir);
  const store = openStore(join(dir, 'store.db'));
  const tests = [
    {
      id: 'i1-p0',
      prompt: 'What is 2+2?',
      system: 'Answer with a number.',
      meta: { family: 'SV', level: 1, phrasing: 0 },
    },
    { id: 'i1-p1', prompt: 'Two plus two is?', meta: { family: 'SV', level: 2, phrasing: 1 } },
    { id: 'broken', prompt: 'broken', meta: { family: 'SV', level: 3, phrasing: 2 } },
  ];
  const suite: Suite = { name: 'paraphrase: items.jsonl', hash: hashOf(tests), tests };
  const provider = (identity: string) =>
    new ScriptedProvider(
      (p) => (p === 'broken' ? steps.fail('client', 400) : steps.ok(p.startsWith('Two') ? '5' : '4')),
      {
        identity,
      },
    );
  const runId = store.runs.begin({ suiteHash: suite.hash, config: {}, waverVersion: 'test' });
  await runCells({
    store,
    runId,
    suite,
    cells: tests.flatMap((t) =>
      ['a', 'b'].flatMap((model) =>
        [0, 1].map((repeat) => ({
          testId: t.id,
          model,
          repeat,
          request: {
            messages: [
              ...(t.system ? [{ role: 'system' as const, content: t.system }] : []),
              { role: 'user' as const, content: t.prompt },
            ],
            temperature: 0,
            maxTokens: 8,
          },
        })),
      ),
    ),
    providers: new Map([
      ['a', { provider: provider('openai:a@http://127.0.0.1:9/v1') }],
      ['b', { provider: provider('openai:b@http://127.0.0.1:9/v1') }],
    ]),
    defaults: { concurrency: 2, timeoutMs: 1000, maxRetries: 0 },
    sleep: async () => {},
  });
  store.runs.finish(runId, 'incomplete');
  return { store, suite };
}

describe('inspectLogs', () => {
  it("writes one log per suite x model, each valid against inspect_ai's published schema", async () => {
    const { store, suite } = await storeOfRun();
    const grade = (c: { testId: string }) =>
      c.testId === 'broken'
        ? undefined
        : { protocol: 'paraphrase', answer: c.testId === 'i1-p0' ? 4 : 5, correct: c.testId === 'i1-p0' };
    const logs = inspectLogs(store, {}, grade);
    expect(logs).toHaveLength(2);
    for (const { log } of logs) expect(validate(SCHEMA, log)).toEqual([]);
    const [a] = logs as [(typeof logs)[0]];
    expect(a.file).toMatch(
      /^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d+Z_paraphrase-items.jsonl_[A-Za-z0-9_-]{22}\.json$/,
    );
    expect(a.log).toMatchObject({
      version: 2,
      status: 'error',
      error: { message: '2 of 6 cells failed' },
      eval: {
        task: suite.name,
        task_id: suite.hash,
        model: 'a',
        dataset: { samples: 3, sample_ids: ['i1-p0', 'i1-p1', 'broken'] },
        config: { epochs: 2 },
        model_generate_config: { temperature: 0, max_tokens: 8, top_p: null },
      },
      results: {
        total_samples: 6,
        completed_samples: 4,
        // Two of the four graded cells are right: the failed ones have no verdict.
        scores: [
          {
            name: 'paraphrase',
            scored_samples: 4,
            unscored_samples: 2,
            metrics: { accuracy: { value: 0.5 } },
          },
        ],
      },
      stats: { model_usage: { a: { input_tokens: expect.any(Number), output_tokens: 4 } } },
    });
    const samples = a.log.samples as Record<string, unknown>[];
    expect(samples.map((s) => [s.id, s.epoch])).toEqual([
      ['i1-p0', 1],
      ['i1-p0', 2],
      ['i1-p1', 1],
      ['i1-p1', 2],
      ['broken', 1],
      ['broken', 2],
    ]);
    expect(samples[0]).toMatchObject({
      input: [
        { role: 'system', content: 'Answer with a number.' },
        { role: 'user', content: 'What is 2+2?' },
      ],
      output: {
        completion: '4',
        choices: [{ message: { role: 'assistant', content: '4' }, stop_reason: 'stop' }],
      },
      scores: { paraphrase: { value: 'C', answer: '4' } },
      metadata: { family: 'SV', level: 1, phrasing: 0, repeat: 0, status: 'done' },
    });
    expect(samples[2]).toMatchObject({
      input: 'Two plus two is?',
      scores: { paraphrase: { value: 'I', answer: '5' } },
    });
    expect(samples[4]).toMatchObject({
      output: { completion: '', choices: [], error: expect.stringContaining('400') },
      scores: null,
      error: { message: expect.stringMatching(/^client: /) },
      metadata: { status: 'failed', level: 3 },
    });
    // Without grades no score, and no accuracy of 0: unavailable.
    const ungraded = inspectLogs(store, { model: 'b' });
    expect(ungraded).toHaveLength(1);
    expect(validate(SCHEMA, ungraded[0]?.log)).toEqual([]);
    expect(ungraded[0]?.log.results).toMatchObject({ scores: [] });
    store.close();
  });

  it('the validator refuses what the schema refuses: a missing field, a wrong type, an unknown field', async () => {
    const { store } = await storeOfRun();
    const { log } = inspectLogs(store, { model: 'a' })[0] as { log: Record<string, unknown> };
    const sample = (log.samples as Record<string, unknown>[])[0] as Record<string, unknown>;
    const { target: _, ...noTarget } = sample;
    expect(validate(SCHEMA, { ...log, samples: [noTarget] })).toEqual([
      '$.samples[0]: missing required target',
    ]);
    expect(validate(SCHEMA, { ...log, samples: [{ ...sample, epoch: '1' }] })).toContain(
      '$.samples[0].epoch: expected integer, got string',
    );
    expect(validate(SCHEMA, { ...log, eval: { ...(log.eval as object), family: 'SV' } })).toContain(
      '$.eval.family: no value is allowed here',
    );
    store.close();
  });
});
