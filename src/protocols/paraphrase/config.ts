import { z } from 'zod';
import { mcFieldsSetting } from '../../config/mc-fields.js';
import { repeatsSetting } from '../../config/schema.js';
import { withFlag } from '../../config/setting-flags.js';

/** The five phrasings of docs/method.md, in report order. */
export const PHRASINGS = ['canonical', 'reworded', 'terse', 'verbose', 'options-shuffled'] as const;
export type Phrasing = (typeof PHRASINGS)[number];

export const PARAPHRASE_DEFAULTS = { repeats: 2, resamples: 2000 } as const;

/** The `paraphrase:` section of waver.yaml (flags of `waver paraphrase` override it), each setting declared once with its flag. */
export const ParaphraseConfig = z
  .object({
    /**
     * Calls per (item, phrasing, model): two, so run instability can be measured. On the command
     * line the common `--repeats` sets it: the run-wide default of 1 is not this protocol's
     * (docs/paraphrase.md#repeats).
     */
    repeats: repeatsSetting(
      withFlag(z.int().positive().default(PARAPHRASE_DEFAULTS.repeats), {
        flag: '--repeats <n>',
        help: 'calls per (item, phrasing, model)',
        common: true,
      }),
    ),
    /** Which phrasings to ask (all five by default). */
    phrasings: withFlag(
      z
        .array(z.enum(PHRASINGS))
        .min(1)
        .refine((xs) => new Set(xs).size === xs.length, 'phrasings must not repeat')
        .optional(),
      {
        flag: '--phrasings <list>',
        help: `phrasings to ask, comma-separated (all: ${PHRASINGS.join(',')}; without a generator, reworded is left out for items with no alternate wording)`,
        shownDefault: 'all',
        noun: 'phrasing',
      },
    ),
    /** Bootstrap resamples for every confidence interval. */
    resamples: z.int().min(1).default(PARAPHRASE_DEFAULTS.resamples),
    /** Use only the first N items of the dataset. */
    limit: withFlag(z.int().positive().optional(), {
      flag: '--limit <n>',
      help: 'use only the first N items of the dataset',
    }),
    /** Which fields of a dataset file or `hf:` dataset hold an item (docs/datasets.md#fields). */
    fields: mcFieldsSetting(),
  })
  .strict();
export type ParaphraseConfigInput = z.input<typeof ParaphraseConfig>;

declare module '../../config/schema.js' {
  interface ConfigSections {
    /** `waver paraphrase` settings (docs/paraphrase.md), as written. */
    paraphrase?: ParaphraseConfigInput;
  }
}

/** The settings in force: the section with its defaults, the phrasings in report order. */
export type ParaphraseSettings = Omit<z.output<typeof ParaphraseConfig>, 'phrasings'> & {
  phrasings: Phrasing[];
  /** Whether `paraphrase.phrasings` (`--phrasings`) chose them: unchosen, `reworded` may be left out. */
  phrasingsGiven: boolean;
};

export function paraphraseSettings(config: { paraphrase?: ParaphraseConfigInput }): ParaphraseSettings {
  const { phrasings, ...settings } = ParaphraseConfig.parse(config.paraphrase ?? {});
  return {
    ...settings,
    phrasings: phrasings ? PHRASINGS.filter((p) => phrasings.includes(p)) : [...PHRASINGS],
    phrasingsGiven: phrasings !== undefined,
  };
}
