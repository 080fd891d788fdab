import { createHash } from 'node:crypto';
import { repeatsAboveLimit, type WaverConfig } from '../config/schema.js';
import { InputError } from '../errors.js';
import { canonicalJson } from '../util/hash.js';
import type { Suite, SuiteTest } from './types.js';

/**
 * A suite's identity is the hash of its canonical JSONL: the same tests give the same hash, byte
 * for byte. Hashed a test at a time, so a large suite is never held twice as one string.
 */
export function suiteOf<Test extends SuiteTest>(name: string, tests: Test[]): Suite<Test> {
  const hash = createHash('sha256');
  tests.forEach((t, i) => {
    if (i > 0) hash.update('\n');
    hash.update(canonicalJson(t));
  });
  return { name, hash: hash.digest('hex'), tests };
}

/**
 * Refuses a run asking more calls of a (test, model) than `maxRepeats`: the run's `repeats`, or a
 * test's own, which wins (docs/decisions.md#e38-repeats-are-bounded-a-lines-own-wins). The config's
 * schema and a suite file's loader refuse them first, naming the file and line; this holds for a
 * suite a library caller builds, and a config that did not pass the schema.
 */
export function checkRepeats(suite: Suite, config: Pick<WaverConfig, 'repeats' | 'maxRepeats'>): void {
  const limit = config.maxRepeats;
  if (config.repeats > limit)
    throw new InputError(repeatsAboveLimit(config.repeats, limit), { field: 'repeats' });
  const over = suite.tests.find((t) => t.repeats !== undefined && t.repeats > limit);
  if (over?.repeats !== undefined)
    throw new InputError(`test '${over.id}' of ${suite.name}: ${repeatsAboveLimit(over.repeats, limit)}`, {
      field: 'repeats',
    });
}
