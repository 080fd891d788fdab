import { defineProtocol } from '../define.js';
import { SpreadConfig } from './config.js';
import { SPREAD_DESIGNS } from './plan-designs.js';
import type { SpreadPlan } from './plan-grid.js';
import type { SpreadOutcome } from './protocol.js';
import type { SpreadResults } from './results.js';
import { CELLS_SUITE, SEARCH_SUITE } from './suite-names.js';
import { SPREAD_THRESHOLDS } from './thresholds.js';

/**
 * Spread (docs/spread.md): how far a model's accuracy moves across the prompt templates a user
 * could have written (FormatSpread's grammar, or your own), estimated from a budgeted share of the
 * template x item grid: quantiles, best and worst template, spread, with intervals.
 */
export const spreadProtocol = defineProtocol<SpreadPlan, SpreadResults, SpreadOutcome>({
  name: 'spread',
  title: 'Spread: accuracy across prompt templates',
  config: { key: 'spread', schema: SpreadConfig },
  suites: { primary: CELLS_SUITE, others: { [SEARCH_SUITE]: 'bookkeeping' } },
  designs: SPREAD_DESIGNS,
  thresholds: SPREAD_THRESHOLDS,
  code: () => import('./protocol.js'),
  adapters: async () => (await import('./adapters.js')).default,
});
