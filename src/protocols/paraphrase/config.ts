import { z } from 'zod';

/** The `paraphrase` section of waver.yaml. */

/** The five phrasings of docs/method.md, in report order. */
export const PHRASINGS = ['canonical', 'reworded', 'terse', 'verbose', 'options-shuffled'] as const;
export type Phrasing = (typeof PHRASINGS)[number];

export const ParaphraseConfig = z
  .object({
    /** Calls per (item, phrasing, model); `--repeats` wins. Two, so run instability can be measured. */
    repeats: z.int().positive().optional(),
    /** Which phrasings to ask (all five by default). */
    phrasings: z
      .array(z.enum(PHRASINGS))
      .min(1)
      .refine((xs) => new Set(xs).size === xs.length, 'phrasings must not repeat')
      .optional(),
    /** Bootstrap resamples for every confidence interval. */
    resamples: z.int().min(1).optional(),
    /** Use only the first N items of the dataset. */
    limit: z.int().positive().optional(),
    /** Which fields of a dataset file or `hf:` dataset hold an item (docs/datasets.md#fields); dotted paths reach into objects. */
    fields: z
      .object({
        id: z.string().min(1).optional(),
        stem: z.string().min(1).optional(),
        options: z.string().min(1).optional(),
        key: z.string().min(1).optional(),
        category: z.string().min(1).optional(),
      })
      .strict()
      .optional(),
  })
  .strict();
export type ParaphraseConfigInput = z.input<typeof ParaphraseConfig>;

declare module '../../config/schema.js' {
  interface ConfigSections {
    /** `waver paraphrase` settings (docs/paraphrase.md), as written. */
    paraphrase?: ParaphraseConfigInput;
  }
}

export interface ParaphraseSettings {
  repeats: number;
  phrasings: Phrasing[];
  /** Whether `paraphrase.phrasings` (`--phrasings`) chose them: unchosen, `reworded` may be left out. */
  phrasingsGiven: boolean;
  resamples: number;
  limit?: number;
  fields?: NonNullable<z.infer<typeof ParaphraseConfig>['fields']>;
}

export const PARAPHRASE_DEFAULTS = { repeats: 2, resamples: 2000 } as const;

/**
 * The settings in force: `paraphrase.repeats` (on the command line `--repeats`: the common flag's
 * run-wide default of 1 is not this protocol's), else 2 (docs/paraphrase.md#repeats).
 */
export function paraphraseSettings(config: { paraphrase?: ParaphraseConfigInput }): ParaphraseSettings {
  const s = ParaphraseConfig.parse(config.paraphrase ?? {});
  return {
    repeats: s.repeats ?? PARAPHRASE_DEFAULTS.repeats,
    phrasings: s.phrasings ? [...PHRASINGS].filter((p) => s.phrasings?.includes(p)) : [...PHRASINGS],
    phrasingsGiven: s.phrasings !== undefined,
    resamples: s.resamples ?? PARAPHRASE_DEFAULTS.resamples,
    ...(s.limit !== undefined ? { limit: s.limit } : {}),
    ...(s.fields !== undefined ? { fields: s.fields } : {}),
  };
}
