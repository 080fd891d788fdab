import { bandedSeverity } from '../../severity/measure.js';
import type { LadderFamily } from '../contract.js';
import { SV_CARD } from './card.js';
import { MEANING, semanticVariationGate } from './gate.js';
import { INSTRUCTIONS } from './instructions.js';
import { semanticVariationRules } from './rules.js';

/** Semantic Variation: the same problem in other words (docs/ladder-families.md). */
export const semanticVariation: LadderFamily = {
  ...SV_CARD,
  severity: bandedSeverity((tables) => tables.SV),
  rules: semanticVariationRules,
  answerTypes: { choice: 'stem', text: 'question' },
  familyGate: semanticVariationGate,
  instructions: INSTRUCTIONS,
  writes: 'rewrite',
  modelGates: ['nli', 'meaning'],
  meaning: MEANING,
};
