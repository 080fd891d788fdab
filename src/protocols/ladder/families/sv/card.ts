import type { FamilyCard } from '../contract.js';

/** Semantic Variation's code, name and what it keeps, read without loading its module (families/roster.ts). */
export const SV_CARD: FamilyCard = {
  code: 'SV',
  name: 'Semantic Variation',
  preserves: { numbers: true, answer: true, words: false, names: true },
};
