import { defineProtocol } from '../define.js';
import type { RunOutcome } from '../types.js';
import { SagoConfig } from './config.js';
import { MANIFEST_SUITE } from './manifest.js';
import type { SagoPromptSets } from './prompt-sets.js';
import type { SagoResults } from './results.js';
import { GENERATOR_SUITE, JUDGE_SUITE, RESPONSES_SUITE } from './suite-names.js';
import { SAGO_THRESHOLDS } from './thresholds.js';

/**
 * SAGO (docs/sago.md): how much each model's behaviour changes across meaning-preserving
 * variations of open-ended prompts, per behavioural axis, with SGS and significance.
 */
export const sagoProtocol = defineProtocol<SagoPromptSets, SagoResults, RunOutcome<SagoResults>>({
  name: 'sago',
  title: 'SAGO: stability across meaning-preserving variations',
  config: { key: 'sago', schema: SagoConfig },
  suites: {
    primary: RESPONSES_SUITE,
    others: { [GENERATOR_SUITE]: 'generator', [JUDGE_SUITE]: 'judge', [MANIFEST_SUITE]: 'bookkeeping' },
  },
  thresholds: SAGO_THRESHOLDS,
  code: () => import('./protocol.js'),
  adapters: async () => (await import('./adapters.js')).default,
});
