import type { FamilyCard } from '../contract.js';

/** Structural/Format's code, name and what it keeps, read without loading its module (families/roster.ts). */
export const F_CARD: FamilyCard = {
  code: 'F',
  name: 'Structural/Format',
  preserves: { numbers: true, answer: true, words: true, names: true },
};
