import type { FamilyCard } from '../contract.js';
import { SV_BANDS } from './bands.js';

/** Semantic Variation's code, name, what it keeps and its band table, read without loading its module (families/roster.ts). */
export const SV_CARD: FamilyCard = {
  code: 'SV',
  name: 'Semantic Variation',
  preserves: { numbers: true, answer: true, words: false, names: true },
  bands: { SV: SV_BANDS },
  // The measure, not the rules' reach: difflib matches in order, and meaning limits reordering.
  rulesScope: {
    4: {
      on: "a problem whose sentences can be merged, split and reordered, meaning kept, far enough to move the paper's measure to a magnitude of .60; on a problem under 200 characters a paraphrase seldom gets there",
      doc: 'docs/ladder-families.md#sv-fill',
    },
    5: {
      on: "a problem whose sentences can be merged, split and reordered, meaning kept, far enough to move the paper's measure to a magnitude of .85; no paraphrase of a problem under 200 characters within 1.3x its words gets there",
      doc: 'docs/ladder-families.md#sv-fill',
    },
  },
};
