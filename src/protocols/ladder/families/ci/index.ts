import { bandedSeverity } from '../../severity/measure.js';
import type { LadderFamily } from '../contract.js';
import { needsGenerator } from '../rules-common.js';
import { CI_CARD } from './card.js';
import { contextInterferenceGate, MEANING } from './gate.js';
import { INSTRUCTIONS } from './instructions.js';

/**
 * Context Interference: distractors among the original's sentences, which stay verbatim; a
 * generator model writes the distractor alone, appended (docs/ladder-families.md#model-instructions).
 * No rules on any seed type: their distractors were numeric trivia a reviewer rejected (CI 0/6 on
 * GSM-Symbolic, 0-1/4 on choice and text seeds; docs/decisions.md E62).
 */
const UNAVAILABLE = needsGenerator('rules cannot write a topically plausible distractor');

export const contextInterference: LadderFamily = {
  ...CI_CARD,
  severity: bandedSeverity((tables) => tables.CI),
  rules: UNAVAILABLE,
  answerTypes: { choice: UNAVAILABLE, text: UNAVAILABLE },
  familyGate: contextInterferenceGate,
  instructions: INSTRUCTIONS,
  writes: 'addition',
  modelGates: ['nli', 'meaning'],
  meaning: MEANING,
};
