import type { FamilyCard } from '../contract.js';
import { CL_BANDS, CL_EXPANSION_BANDS } from './bands.js';

/** Context Load's code, name, what it keeps and its band tables, read without loading its module (families/roster.ts). */
export const CL_CARD: FamilyCard = {
  code: 'CL',
  name: 'Context Load',
  preserves: { numbers: true, answer: true, words: false, names: true },
  bands: { CL: CL_BANDS, clExpansion: CL_EXPANSION_BANDS },
};
