import type { FamilyCard } from '../contract.js';
import { F_BANDS } from './bands.js';

/** Structural/Format's code, name, what it keeps and its band table, read without loading its module (families/roster.ts). */
export const F_CARD: FamilyCard = {
  code: 'F',
  name: 'Structural/Format',
  preserves: { numbers: true, answer: true, words: true, names: true },
  bands: { F: F_BANDS },
};
