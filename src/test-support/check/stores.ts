import { validateConfig } from '../../config/load.js';
import type { GenerateResult } from '../../models/types.js';
import { cacheKey } from '../../run/cache-key.js';
import { requestFor } from '../../run/plan.js';
import type { Suite, SuiteTest } from '../../run/types.js';
import type { CellWrite, Store } from '../../store/store.js';

/**
 * Stores built through the Store API the way `waver run` writes them (cells keyed by identity),
 * with answers chosen by the test: the check gate's inputs without a model. The protocols' own
 * fixtures (src/test-support/protocols/<name>/store.ts) write their suites through this.
 */

export interface FakeModel {
  label: string;
  identity: string;
  /** Whether this model answers the test right (a failed call when it returns 'fail'). */
  answer: (test: SuiteTest, repeat: number) => boolean | 'fail';
}

const PARAMS = validateConfig({}).params;

function result(text: string): GenerateResult {
  return { text, finishReason: 'stop', usage: { inputTokens: 10, outputTokens: 3 } };
}

/** Writes one cell per (test, repeat) per model, as runSuite would. */
export function writeCells<Test extends SuiteTest>(
  store: Store,
  suite: Suite<Test>,
  models: readonly FakeModel[],
  reply: (test: Test, right: boolean) => string,
): void {
  store.suites.save(suite);
  const runId = store.runs.begin({
    suiteHash: suite.hash,
    config: { models: models.map((m) => m.label) },
    waverVersion: 'test',
  });
  const writes: CellWrite[] = [];
  for (const m of models)
    for (const test of suite.tests)
      for (let repeat = 0; repeat < (test.repeats ?? 1); repeat++) {
        const request = requestFor(test, PARAMS);
        const ref = {
          suiteHash: suite.hash,
          testId: test.id,
          model: m.label,
          modelIdentity: m.identity,
          repeat,
          runId,
          request,
          attempts: [],
        };
        const a = m.answer(test, repeat);
        if (a === 'fail')
          writes.push({ kind: 'failed', cell: { ...ref, error: { kind: 'server', message: 'HTTP 500' } } });
        else
          writes.push({
            kind: 'done',
            cell: { ...ref, key: cacheKey(m.identity, request, repeat), result: result(reply(test, a)) },
          });
      }
  store.cells.write(writes);
  store.runs.finish(runId, 'complete');
}
