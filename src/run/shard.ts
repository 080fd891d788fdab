import type { Shard, Suite } from './types.js';

/**
 * Shards (docs/decisions.md#e19-shards-deal-tests-round-robin): the K-th of N shards of a suite
 * holds the tests at positions K-1, K-1+N, K-1+2N, ... with every model and repeat of each, so a
 * test's repeats land together, the split is balanced to one test, and it depends on nothing but
 * the suite: the same on every machine and at every resume.
 */

/** Whether the test at `position` (from 0, its place in the suite) belongs to `shard`. */
export function inShard(position: number, shard: Shard | undefined): boolean {
  return shard === undefined || position % shard.count === shard.index - 1;
}

/** The suite with only the shard's tests; its name and hash stay the whole suite's. */
export function shardOf(suite: Suite, shard: Shard | undefined): Suite {
  if (shard === undefined) return suite;
  return { ...suite, tests: suite.tests.filter((_, i) => inShard(i, shard)) };
}

export function formatShard(shard: Shard): string {
  return `${shard.index}/${shard.count}`;
}
