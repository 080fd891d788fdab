import { bandedSeverity } from '../../severity/measure.js';
import type { LadderFamily } from '../contract.js';
import { needsGenerator } from '../rules-common.js';
import { CI_CARD } from './card.js';
import { contextInterferenceGate, MEANING } from './gate.js';
import { INSTRUCTIONS } from './instructions.js';
import { contextInterferenceRules } from './rules.js';

/**
 * Context Interference: distractors among the original's sentences, which stay verbatim; a
 * generator model writes the distractor alone, appended (docs/ladder-families.md#model-instructions).
 */
const UNAVAILABLE = needsGenerator(
  'rules cannot write a distractor that fits a short choice or text question',
);

export const contextInterference: LadderFamily = {
  ...CI_CARD,
  severity: bandedSeverity((tables) => tables.CI),
  rules: contextInterferenceRules,
  answerTypes: { choice: UNAVAILABLE, text: UNAVAILABLE },
  familyGate: contextInterferenceGate,
  instructions: INSTRUCTIONS,
  writes: 'addition',
  modelGates: ['nli', 'meaning'],
  meaning: MEANING,
};
