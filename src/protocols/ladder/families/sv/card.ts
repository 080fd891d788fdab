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
    2: {
      on: "a problem where 15-24% of the words can be changed, meaning kept (the words changed, not the paper's measure, set the level: E77)",
      doc: 'docs/ladder-families.md#sv-fill',
    },
    3: {
      on: 'a problem that can be restructured with 24-30% of its words changed, meaning kept (E77)',
      doc: 'docs/ladder-families.md#sv-fill',
    },
    4: {
      on: "a problem whose sentences can be merged, split and reordered, meaning kept, far enough to move the paper's measure to a magnitude of .60 with 30-42% of its words changed (E77); on a problem under 200 characters a paraphrase seldom gets there",
      doc: 'docs/ladder-families.md#sv-fill',
    },
    5: {
      on: "a problem whose sentences can be merged, split and reordered, meaning kept, far enough to move the paper's measure to a magnitude of .85 with 42% or more of its words changed (E77); no paraphrase of a problem under 200 characters within 1.3x its words gets there",
      doc: 'docs/ladder-families.md#sv-fill',
    },
  },
};
