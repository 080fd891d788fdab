import type { FamilyCard } from '../contract.js';
import { SV_BANDS } from './bands.js';

/** Semantic Variation's code, name, what it keeps and its band table, read without loading its module (families/roster.ts). */
export const SV_CARD: FamilyCard = {
  code: 'SV',
  name: 'Semantic Variation',
  preserves: { numbers: true, answer: true, words: false, names: true },
  bands: { SV: SV_BANDS },
};
