import { defineProtocol } from '../define.js';
import type { RunOutcome } from '../types.js';
import { ADMISSION_SUITE } from './admission-record.js';
import { LadderConfigSchema } from './config.js';
import { LADDER_DESIGNS } from './plan-designs.js';
import type { LadderPlan } from './protocol.js';
import type { LadderSectionData } from './report-section.js';
import type { LadderResults } from './results.js';
import {
  ANSWER_JUDGE_SUITE,
  GATE_SUITES,
  GENERATOR_SUITE,
  KB_JUDGE_SUITE,
  LADDER_TESTS_SUITE,
} from './suite-names.js';
import { LADDER_THRESHOLDS } from './thresholds.js';

/**
 * The ladder (docs/ladder.md): seed problems x seven perturbation families x five measured
 * severity levels; Accuracy, Stability and Collapse Point per model.
 */
export const ladderProtocol = defineProtocol<LadderPlan, LadderSectionData, RunOutcome<LadderResults>>({
  name: 'ladder',
  title: 'Ladder: accuracy and stability under graded perturbation',
  config: { key: 'ladder', schema: LadderConfigSchema },
  suites: {
    primary: LADDER_TESTS_SUITE,
    others: {
      [KB_JUDGE_SUITE]: 'judge',
      [ANSWER_JUDGE_SUITE]: 'judge',
      [GENERATOR_SUITE]: 'generator',
      ...Object.fromEntries(Object.values(GATE_SUITES).map((name) => [name, 'judge' as const])),
      [ADMISSION_SUITE]: 'bookkeeping',
    },
  },
  designs: LADDER_DESIGNS,
  thresholds: LADDER_THRESHOLDS,
  code: () => import('./protocol.js'),
  adapters: async () => (await import('./adapters.js')).default,
});
