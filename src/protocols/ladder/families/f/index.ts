import type { LadderFamily } from '../contract.js';
import { F_CARD } from './card.js';
import { choiceFormatRules } from './choice-format.js';
import { formatGate } from './gate.js';
import { INSTRUCTIONS } from './instructions.js';
import { structuralFormatRules } from './rules.js';
import { formatSeverity } from './severity.js';

/**
 * Structural/Format: the same words in another layout. Its words are kept exactly, so it needs no
 * meaning gate (the paper, Section 3.1) and adds no word that could state an answer.
 */
export const structuralFormat: LadderFamily = {
  ...F_CARD,
  severity: formatSeverity,
  rules: structuralFormatRules,
  answerTypes: { choice: choiceFormatRules, text: 'question' },
  familyGate: formatGate,
  instructions: INSTRUCTIONS,
  writes: 'layout',
  modelGates: [],
};
