import type { FamilyCard } from '../contract.js';
import { F_BANDS } from './bands.js';

/** Structural/Format's code, name, what it keeps and its band table, read without loading its module (families/roster.ts). */
export const F_CARD: FamilyCard = {
  code: 'F',
  name: 'Structural/Format',
  preserves: { numbers: true, answer: true, words: true, names: true },
  bands: { F: F_BANDS },
  rulesScope: {
    5: {
      on: "a problem or question whose text, pasted in a fence at one width (never narrower than a choice item's longest option), moves at least 5% more than each of the seed's layouts at every lower level on both measures (E77), a question's prose wrapped at least twice (E81)",
      doc: 'docs/ladder-families.md#f-units',
    },
  },
};
