import type { FamilyCard } from '../contract.js';

/** Knowledge Boundary's code, name and what it keeps, read without loading its module (families/roster.ts). */
export const KB_CARD: FamilyCard = {
  code: 'KB',
  name: 'Knowledge Boundary',
  preserves: { numbers: false, answer: false, words: false, names: false },
};
