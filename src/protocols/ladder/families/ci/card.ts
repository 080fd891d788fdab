import type { FamilyCard } from '../contract.js';
import { CI_BANDS } from './bands.js';

/** Context Interference's code, name, what it keeps and its band table, read without loading its module (families/roster.ts). */
export const CI_CARD: FamilyCard = {
  code: 'CI',
  name: 'Context Interference',
  preserves: { numbers: true, answer: true, words: false, names: true },
  bands: { CI: CI_BANDS },
};
