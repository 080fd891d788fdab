import { defineProtocol } from '../define.js';
import { ParaphraseConfig } from './config.js';
import { PARAPHRASE_DESIGNS } from './plan-designs.js';
import type { ParaphraseOutcome } from './protocol.js';
import type { ParaphraseResults } from './results.js';
import type { ParaphraseItems } from './run.js';
import { ITEMS_SUITE, REWORD_SUITE } from './suite-names.js';
import { PARAPHRASE_THRESHOLDS } from './thresholds.js';

/**
 * Paraphrase (docs/paraphrase.md): multiple-choice items in five phrasings x repeats; raw accuracy
 * vs Stability-Adjusted Accuracy with CIs, run vs prompt instability, and every flip.
 */
export const paraphraseProtocol = defineProtocol<ParaphraseItems, ParaphraseResults, ParaphraseOutcome>({
  name: 'paraphrase',
  title: 'Paraphrase: Stability-Adjusted Accuracy',
  config: { key: 'paraphrase', schema: ParaphraseConfig },
  suites: { primary: ITEMS_SUITE, others: { [REWORD_SUITE]: 'generator' } },
  designs: PARAPHRASE_DESIGNS,
  thresholds: PARAPHRASE_THRESHOLDS,
  code: () => import('./protocol.js'),
  adapters: async () => (await import('./adapters.js')).default,
});
