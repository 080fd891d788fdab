import type { DatasetSource } from '../../data/provenance.js';
import { suiteOf } from '../../run/suite.js';
import type { Suite, SuiteTest } from '../../run/types.js';
import type { Phrasing } from './config.js';
import type { McItem, McOption } from './data/mc-item.js';
import { phraseItem } from './phrasings.js';
import type { Rewords } from './reword.js';

/**
 * The `paraphrase/items` suite: one test per (item, phrasing), asked `repeats` times. Each test's
 * meta holds everything scoring needs (options as shown, key as shown, the map back to the item's
 * own letters, where the rewording came from), so results are rebuilt from the store alone.
 */

export const ITEMS_SUITE = 'paraphrase/items';

export interface ParaphraseTestMeta {
  protocol: 'paraphrase';
  item: string;
  category: string;
  phrasing: Phrasing;
  /** The options in the order and lettering this prompt shows. */
  options: McOption[];
  /** The key as shown in this phrasing. */
  key: string;
  /** The key in the item's own lettering. */
  itemKey: string;
  /** Shown letter -> the item's own letter. */
  canonicalOf: Record<string, string>;
  dataset: string;
  /** The dataset's record (commit, files' sha256, licence); absent for the built-in items. */
  datasetSource?: DatasetSource;
  source: string;
  /** Whether a rule recomputed the key before the run. */
  keyVerified: boolean;
  reworded?: { kind: 'alternate' } | { kind: 'generator'; generator: string };
  shuffleSeed?: number;
}

export function paraphraseTestId(item: string, phrasing: Phrasing): string {
  return `${item}/${phrasing}`;
}

export function buildParaphraseSuite(
  items: readonly McItem[],
  opts: {
    phrasings: readonly Phrasing[];
    repeats: number;
    runSeed: number;
    dataset: string;
    datasetSource?: DatasetSource;
    verified: ReadonlySet<string>;
    rewords?: Pick<Rewords, 'byItem'>;
  },
): Suite {
  const tests: SuiteTest[] = [];
  for (const item of items) {
    for (const phrasing of opts.phrasings) {
      const reworded = opts.rewords?.byItem.get(item.id);
      const phrased = phraseItem(item, phrasing, {
        runSeed: opts.runSeed,
        ...(reworded ? { reworded } : {}),
      });
      const meta: ParaphraseTestMeta = {
        protocol: 'paraphrase',
        item: item.id,
        category: item.category,
        phrasing,
        options: phrased.options,
        key: phrased.key,
        itemKey: item.key,
        canonicalOf: phrased.canonicalOf,
        dataset: opts.dataset,
        ...(opts.datasetSource && { datasetSource: opts.datasetSource }),
        source: item.source,
        keyVerified: opts.verified.has(item.id),
        ...(phrased.reworded ? { reworded: phrased.reworded.source } : {}),
        ...(phrased.shuffle ? { shuffleSeed: phrased.shuffle.seed } : {}),
      };
      tests.push({
        id: paraphraseTestId(item.id, phrasing),
        prompt: phrased.prompt,
        repeats: opts.repeats,
        meta: meta as unknown as Record<string, unknown>,
      });
    }
  }
  return suiteOf(ITEMS_SUITE, tests);
}
