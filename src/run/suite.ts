import { createHash } from 'node:crypto';
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
