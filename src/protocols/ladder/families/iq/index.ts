import { contentLevelOfNoise } from '../../severity/content-level.js';
import { bandedSeverity } from '../../severity/measure.js';
import type { LadderFamily } from '../contract.js';
import { IQ_CARD } from './card.js';
import { inputQualityGate, MEANING } from './gate.js';
import { INSTRUCTIONS } from './instructions.js';
import { inputQualityRules } from './rules.js';

/** Input Quality: typing and OCR noise, every word still readable (docs/ladder-families.md#iq-noise). */
export const inputQuality: LadderFamily = {
  ...IQ_CARD,
  severity: { ...bandedSeverity((tables) => tables.IQ), contentLevel: contentLevelOfNoise },
  rules: inputQualityRules,
  answerTypes: { choice: 'stem', text: 'question' },
  familyGate: inputQualityGate,
  instructions: INSTRUCTIONS,
  writes: 'rewrite',
  modelGates: ['nli', 'meaning'],
  meaning: MEANING,
};
