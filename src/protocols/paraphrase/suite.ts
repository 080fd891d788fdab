import { z } from 'zod';
import type { McItem } from '../../data/mc/mc-item.js';
import { DatasetSourceSchema } from '../../data/provenance.js';
import { suiteOf } from '../../run/suite.js';
import type { Suite } from '../../run/types.js';
import { type TypedTest, typedTests } from '../test-meta.js';
import { PHRASINGS, type Phrasing } from './config.js';
import { phraseItem } from './phrasings.js';
import type { Rewords } from './reword.js';
import { ITEMS_SUITE } from './suite-names.js';

/**
 * The `paraphrase/items` suite: one test per (item, phrasing), asked `repeats` times. Each test's
 * meta holds everything scoring needs (options as shown, key as shown, the map back to the item's
 * own letters, where the rewording came from), so results are rebuilt from the store alone.
 */

/** What a test of the items suite holds for scoring, read back through this schema (paraphraseTests). */
export const ParaphraseTestMetaSchema = z.object({
  protocol: z.literal('paraphrase'),
  item: z.string(),
  category: z.string(),
  phrasing: z.enum(PHRASINGS),
  /** The options in the order and lettering this prompt shows. */
  options: z.array(z.object({ letter: z.string(), text: z.string() })),
  /** The key as shown in this phrasing. */
  key: z.string(),
  /** The key in the item's own lettering. */
  itemKey: z.string(),
  /** Shown letter -> the item's own letter. */
  canonicalOf: z.record(z.string(), z.string()),
  dataset: z.string(),
  /** The dataset's record (commit, files' sha256, licence); absent for the built-in items. */
  datasetSource: DatasetSourceSchema.optional(),
  source: z.string(),
  /** Whether a rule recomputed the key before the run. */
  keyVerified: z.boolean(),
  reworded: z
    .discriminatedUnion('kind', [
      z.object({ kind: z.literal('alternate') }),
      z.object({ kind: z.literal('generator'), generator: z.string() }),
    ])
    .optional(),
  shuffleSeed: z.number().optional(),
});
export type ParaphraseTestMeta = z.infer<typeof ParaphraseTestMetaSchema>;
export type ParaphraseTest = TypedTest<ParaphraseTestMeta>;

/** The tests of a stored items suite, their meta read (see typedTests). */
export function paraphraseTests(suite: Suite): ParaphraseTest[] {
  return typedTests(suite, ParaphraseTestMetaSchema);
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
    datasetSource?: ParaphraseTestMeta['datasetSource'];
    verified: ReadonlySet<string>;
    rewords?: Pick<Rewords, 'byItem'>;
  },
): Suite<ParaphraseTest> {
  const tests: ParaphraseTest[] = [];
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
        meta,
      });
    }
  }
  return suiteOf(ITEMS_SUITE, tests);
}
