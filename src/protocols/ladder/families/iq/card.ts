import type { FamilyCard } from '../contract.js';
import { IQ_BANDS } from './bands.js';

/** Input Quality's code, name, what it keeps and its band table, read without loading its module (families/roster.ts). */
export const IQ_CARD: FamilyCard = {
  code: 'IQ',
  name: 'Input Quality',
  // Its typos may touch a name, so a text seed's names are not checked.
  preserves: { numbers: true, answer: true, words: false, names: false },
  bands: { IQ: IQ_BANDS },
};
