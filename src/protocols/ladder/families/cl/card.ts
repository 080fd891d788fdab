import type { FamilyCard } from '../contract.js';

/** Context Load's code, name and what it keeps, read without loading its module (families/roster.ts). */
export const CL_CARD: FamilyCard = {
  code: 'CL',
  name: 'Context Load',
  preserves: { numbers: true, answer: true, words: false, names: true },
};
