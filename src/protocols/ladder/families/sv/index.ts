import { bandedSeverity } from '../../severity/measure.js';
import type { LadderFamily } from '../contract.js';
import { needsGenerator } from '../rules-common.js';
import { SV_CARD } from './card.js';
import { MEANING, semanticVariationGate } from './gate.js';
import { INSTRUCTIONS } from './instructions.js';
import { semanticVariationRules } from './rules.js';

/** Semantic Variation: the same problem in other words (docs/ladder-families.md). */
const UNAVAILABLE = needsGenerator(
  'rules cannot paraphrase a short choice or text question as a reviewer accepts',
);

export const semanticVariation: LadderFamily = {
  ...SV_CARD,
  severity: bandedSeverity((tables) => tables.SV),
  rules: semanticVariationRules,
  answerTypes: { choice: UNAVAILABLE, text: UNAVAILABLE },
  familyGate: semanticVariationGate,
  instructions: INSTRUCTIONS,
  writes: 'rewrite',
  modelGates: ['nli', 'meaning'],
  meaning: MEANING,
};
