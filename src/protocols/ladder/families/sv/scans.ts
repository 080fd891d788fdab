/**
 * Semantic Variation's own scans (suite-scans.ts lists them): a level its rewriting does not earn
 * (docs/ladder-families.md#sv-lexicon, E71).
 */
import type { Scan } from '../../scan-types.js';
import { contentLevelOfRewording, restructures, wordChange } from '../../severity/content-level.js';

/**
 * SV: a level the words it changed do not show (review v6: gsm-symbolic-76 "L2" of kilograms ->
 * kilos, E77), or an L3+ that only swaps words in place (review v4: gsm-symbolic-47, E71).
 */
const svLevelContent: Scan = {
  id: 'sv-level-content',
  title:
    'SV: a level above what its share of changed words shows, or an L3-L5 of word swaps in place (no sentence merged or split, no clause moved)',
  check(t) {
    if (t.family !== 'SV' || t.measuredLevel === undefined) return undefined;
    // Below its level is what a reader rejects; the reviewed default suite rewrites above it (E77).
    const byWords = contentLevelOfRewording(t.original, t.text);
    if (byWords === undefined || byWords < t.measuredLevel)
      return `L${t.measuredLevel}, its changed words (${wordChange(t.original, t.text).toFixed(3)}) say L${byWords ?? '-'}`;
    return t.measuredLevel < 3 || restructures(t.original, t.text)
      ? undefined
      : `L${t.measuredLevel} with word swaps only, in place`;
  },
};

export const SV_SCANS: readonly Scan[] = [svLevelContent];
