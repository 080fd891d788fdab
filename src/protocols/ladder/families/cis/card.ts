import type { FamilyCard } from '../contract.js';

/** Conflict Instruction Stress's code, name and what it keeps, read without loading its module (families/roster.ts). */
export const CIS_CARD: FamilyCard = {
  code: 'CIS',
  name: 'Conflict Instruction Stress',
  preserves: { numbers: true, answer: true, words: false, names: true },
};
