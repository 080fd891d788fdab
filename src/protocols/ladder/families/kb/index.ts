import { InputError } from '../../../../errors.js';
import { KB_LEVEL, KB_TYPES, type KbType } from '../../types.js';
import type { LadderFamily } from '../contract.js';
import { needsGenerator } from '../rules-common.js';
import { KB_CARD } from './card.js';
import { knowledgeBoundaryGate } from './gate.js';
import { INSTRUCTIONS } from './instructions.js';
import { knowledgeBoundaryRules } from './rules.js';

/** Fixed meta-frames around a question test recognising a frame, not the paper's in-place boundary (issue 36). */
const UNAVAILABLE = needsGenerator(
  'the knowledge boundary is written into the question in place, which rules cannot do on a choice or text question',
);

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
  answerTypes: { choice: UNAVAILABLE, text: UNAVAILABLE },
  familyGate: knowledgeBoundaryGate,
  instructions: INSTRUCTIONS,
  writes: 'rewrite',
  modelGates: ['epistemic'],
  boundaryType: (level) => KB_TYPES[level - 1] as KbType,
};
