import { z } from 'zod';
import { mcFieldsSetting } from '../../config/mc-fields.js';
import { withFlag } from '../../config/setting-flags.js';
import { SPREAD_ESTIMATORS } from './estimators/names.js';

export const SPREAD_DEFAULTS = { templates: 20, budget: 1, maxTokens: 8 } as const;

/**
 * `--budget`: a share of the template x item grid (0 < b <= 1) or a number of calls per model (an
 * integer above 1): docs/spread.md#budget.
 */
const Budget = z
  .number()
  .positive()
  .refine((b) => b <= 1 || Number.isInteger(b), 'a budget above 1 is a number of calls: a whole number');

/** The `spread:` section of waver.yaml (flags of `waver spread` override it), each setting declared once with its flag. */
export const SpreadConfig = z
  .object({
    /** How many FormatSpread formats to sample from the grammar (with the run's seed). */
    templates: withFlag(z.int().positive().max(1000).default(SPREAD_DEFAULTS.templates), {
      flag: '--templates <n>',
      help: 'FormatSpread formats sampled from the grammar with --seed',
    }),
    /** Your own templates instead: JSONL, YAML, or a prompteval template CSV (docs/spread.md#your-templates). */
    templatesFile: withFlag(z.string().min(1).optional(), {
      flag: '--templates-file <file>',
      help: 'your templates ({question}, {choices}, {topic}) from JSONL, YAML or a prompteval CSV, instead of sampled formats',
    }),
    budget: withFlag(Budget.default(SPREAD_DEFAULTS.budget), {
      flag: '--budget <b>',
      help: 'share of the template x item grid (0-1], or a number of calls per model (> 1)',
      parse: (raw) => Number(raw),
    }),
    /** FormatSpread's Thompson sampling for the best or worst template under the budget, instead of the estimate of the whole distribution. */
    search: withFlag(z.enum(['best', 'worst']).optional(), {
      flag: '--search <target>',
      help: 'Thompson sampling for the best or worst template under the budget (best|worst)',
    }),
    /**
     * How the per-template accuracy distribution is estimated from the cells asked:
     * `deconvolved` (a logistic mixed model, decision E60), `prompteval` (PromptEval's model, the
     * paper's reference), `full-grid` (each template's mean over its asked cells): docs/spread.md#estimators.
     */
    estimator: withFlag(z.enum(SPREAD_ESTIMATORS).default('deconvolved'), {
      flag: '--estimator <name>',
      help: "how the distribution is estimated from the cells asked: deconvolved (mixed model), prompteval (the paper's), full-grid (observed means)",
    }),
    /**
     * How a cell's choice is read: `loglik`, each option's label scored after the prompt (models
     * that score text); `reply`, the reply's label; `auto`, loglik where the model can
     * (docs/spread.md#scoring).
     */
    scoring: withFlag(z.enum(['auto', 'loglik', 'reply']).default('auto'), {
      flag: '--scoring <how>',
      help: "how a choice is read: loglik (each option's label scored after the prompt), reply, or auto (loglik where the model can)",
    }),
    /** Which fields of a dataset file or `hf:` dataset hold an item (docs/datasets.md#fields). */
    fields: mcFieldsSetting(),
    /** Use only the first N items of the dataset. */
    limit: withFlag(z.int().positive().optional(), {
      flag: '--limit <n>',
      help: 'use only the first N items of the dataset',
    }),
    /** POSIX, the prompt-sensitivity index from log-likelihoods (docs/spread.md#posix): J x J score calls per item. */
    posix: withFlag(z.boolean().default(false), {
      flag: '--posix',
      help: 'POSIX from teacher-forced scores of each reply under every template of its item (models that score text; J x J score calls per item)',
    }),
  })
  .strict();
export type SpreadConfigInput = z.input<typeof SpreadConfig>;
export type SpreadSettings = z.output<typeof SpreadConfig>;

declare module '../../config/schema.js' {
  interface ConfigSections {
    /** `waver spread` settings (docs/spread.md), as written. */
    spread?: SpreadConfigInput;
  }
}

export function spreadSettings(config: { spread?: SpreadConfigInput }): SpreadSettings {
  return SpreadConfig.parse(config.spread ?? {});
}

/** The cells a budget buys of a grid: a share of it, or that many calls, never more than the grid. */
export function budgetCells(budget: number, templates: number, items: number): number {
  const grid = templates * items;
  return Math.min(grid, budget <= 1 ? Math.max(1, Math.round(budget * grid)) : budget);
}
