import { validateConfig } from '../../../config/load.js';
import { ladderSuite } from '../../../protocols/ladder/run.js';
import { LADDER_TESTS_SUITE } from '../../../protocols/ladder/suite-names.js';
import { ladderTestOf } from '../../../protocols/ladder/test-meta.js';
import type { Family, LadderTest, Level } from '../../../protocols/ladder/types.js';
import type { Suite, SuiteTest } from '../../../run/types.js';
import type { Store } from '../../../store/store.js';
import { type FakeModel, writeCells } from '../../check/stores.js';
import { ladderTest } from './ladder-test.js';

/**
 * A ladder suite as `waver ladder` stores it, answered by fake models: replies are what a model
 * would send (`#### 42`), scored by the real loader.
 */

/** Ladder: `seeds` synthetic seeds; a baseline (3 repeats) and SV and CL at levels 1..3, magnitude 0.1 x level. */
export function ladderTests(seeds: number, families: readonly Family[] = ['SV', 'CL']): LadderTest[] {
  const tests: LadderTest[] = [];
  for (let s = 0; s < seeds; s++) {
    const seedId = `seed-${s}`;
    const gold = 10 + s;
    const original = `Ann has ${gold} apples. How many apples does Ann have?`;
    const seed = { id: seedId, question: original, gold, source: 'test' };
    const make = (family: Family | 'baseline', level: Level | 0, text: string): LadderTest =>
      ladderTest(seed, family, level, text);
    tests.push(make('baseline', 0, original));
    for (const family of families)
      for (const level of [1, 2, 3] as const)
        tests.push(make(family, level, `${original} (${family} level ${level})`));
  }
  return tests;
}

export function ladderMeta(test: SuiteTest): LadderTest {
  return ladderTestOf({ name: LADDER_TESTS_SUITE, hash: 'a test suite' }, test);
}

/** Stores a ladder suite answered by the models; returns the suite. */
export function ladderStore(
  store: Store,
  models: readonly FakeModel[],
  seeds = 30,
  families?: readonly Family[],
): Suite {
  const suite = ladderSuite(ladderTests(seeds, families), validateConfig({}));
  writeCells(store, suite, models, (test, right) => {
    const gold = ladderMeta(test).gold as number;
    return `Working it out.\n#### ${right ? gold : gold + 1}`;
  });
  return suite;
}
