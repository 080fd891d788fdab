import { InputError } from '../../../../errors.js';
import { KB_LEVEL, KB_TYPES, type KbType } from '../../types.js';
import type { LadderFamily } from '../contract.js';
import { choiceBoundaryRules, textBoundaryRules } from './boundary.js';
import { KB_CARD } from './card.js';
import { knowledgeBoundaryGate } from './gate.js';
import { INSTRUCTIONS } from './instructions.js';
import { knowledgeBoundaryRules } from './rules.js';

/**
 * Knowledge Boundary: the question made unanswerable, so its tests' answer is `unanswerable` and
 * its numbers change on purpose. Categorical: the boundary type is the level (docs/method.md), and
 * whether a candidate is really unanswerable is the epistemic judge's call.
 */
export const knowledgeBoundary: LadderFamily = {
  ...KB_CARD,
  severity: {
    measure(_original, _candidate, m) {
      if (m.kbType === undefined || !(m.kbType in KB_LEVEL)) {
        throw new InputError(`Knowledge Boundary severity needs a boundary type, got ${String(m.kbType)}`, {
          field: 'kbType',
        });
      }
      return { ...m.base, score: m.base.magnitude, level: KB_LEVEL[m.kbType], via: 'kb-type' };
    },
  },
  rules: knowledgeBoundaryRules,
  answerTypes: { choice: choiceBoundaryRules, text: textBoundaryRules },
  familyGate: knowledgeBoundaryGate,
  instructions: INSTRUCTIONS,
  writes: 'rewrite',
  modelGates: ['epistemic'],
  boundaryType: (level) => KB_TYPES[level - 1] as KbType,
};
