import { conflictExplicitness } from '../../severity/ces.js';
import type { Level } from '../../types.js';
import type { LadderFamily } from '../contract.js';
import { CIS_CARD } from './card.js';
import { conflictGate, MEANING } from './gate.js';
import { INSTRUCTIONS } from './instructions.js';
import { conflictInstructionStressRules } from './rules.js';
import { choiceDirectiveRules, textDirectiveRules } from './typed-directives.js';

/**
 * Conflict Instruction Stress: directives that pull the solver away from its task, the original
 * sentences untouched; the level is the conflict-explicitness of what was added (docs/method.md).
 */
export const conflictInstructionStress: LadderFamily = {
  ...CIS_CARD,
  severity: {
    measure(original, candidate, m) {
      const { ces, cesNorm } = conflictExplicitness(original, candidate);
      // docs/method.md: Level = CES, and a candidate with no conflict phrase (CES 0) counts as L1.
      return { ...m.base, score: ces, level: Math.max(1, ces) as Level, via: 'ces', ces, cesNorm };
    },
  },
  rules: conflictInstructionStressRules,
  answerTypes: { choice: choiceDirectiveRules, text: textDirectiveRules },
  familyGate: conflictGate,
  instructions: INSTRUCTIONS,
  writes: 'rewrite',
  // The meaning judge is its only meaning check: an NLI judge would reject the directives it adds.
  modelGates: ['meaning'],
  meaning: MEANING,
};
