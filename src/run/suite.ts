import { canonicalJson, sha256 } from '../util/hash.js';
import type { Suite, SuiteTest } from './types.js';

/** A suite's identity is the hash of its canonical JSONL: the same tests give the same hash, byte for byte. */
export function suiteOf(name: string, tests: SuiteTest[]): Suite {
  const jsonl = tests.map((t) => canonicalJson(t)).join('\n');
  return { name, hash: sha256(jsonl), tests };
}
