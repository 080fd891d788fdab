/**
 * Semantic Variation's own scans (suite-scans.ts lists them): a level its rewriting does not earn
 * (docs/ladder-families.md#sv-lexicon, E71).
 */
import type { Scan } from '../../scan-types.js';
import { restructures } from '../../severity/content-level.js';

/** SV L3+ that only swaps words in place: it reads as L1 (review v4: gsm-symbolic-47). */
const svLevelContent: Scan = {
  id: 'sv-level-content',
  title:
    'SV: L3-L5 of word swaps in place (no sentence merged or split, no clause moved, under a quarter reworded)',
  check(t) {
    if (t.family !== 'SV' || (t.measuredLevel ?? 0) < 3) return undefined;
    return restructures(t.original, t.text)
      ? undefined
      : `L${t.measuredLevel} with word swaps only, in place`;
  },
};

export const SV_SCANS: readonly Scan[] = [svLevelContent];
