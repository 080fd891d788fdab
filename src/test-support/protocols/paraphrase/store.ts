import { BUILTIN_MC_ITEMS } from '../../../protocols/paraphrase/data/builtin-items.js';
import { buildParaphraseSuite } from '../../../protocols/paraphrase/suite.js';
import type { Suite } from '../../../run/types.js';
import type { Store } from '../../../store/store.js';
import { type FakeModel, writeCells } from '../../check/stores.js';

/** A paraphrase suite as `waver paraphrase` stores it, answered by fake models with a letter. */

/** Paraphrase: the first `items` built-in items in four phrasings (no rewording needed), 2 repeats. */
export function paraphraseStore(store: Store, models: readonly FakeModel[], items = 12): Suite {
  const suite = buildParaphraseSuite(BUILTIN_MC_ITEMS.slice(0, items), {
    phrasings: ['canonical', 'terse', 'verbose', 'options-shuffled'],
    repeats: 2,
    runSeed: 0,
    dataset: 'builtin',
    verified: new Set(),
  });
  writeCells(store, suite, models, (test, right) => {
    const { meta } = test;
    const wrong = meta.options.find((o) => o.letter !== meta.key)?.letter as string;
    return `Answer: ${right ? meta.key : wrong}`;
  });
  return suite;
}
