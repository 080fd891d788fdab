import type { FamilyCard } from '../contract.js';

/** Context Interference's code, name and what it keeps, read without loading its module (families/roster.ts). */
export const CI_CARD: FamilyCard = {
  code: 'CI',
  name: 'Context Interference',
  preserves: { numbers: true, answer: true, words: false, names: true },
};
