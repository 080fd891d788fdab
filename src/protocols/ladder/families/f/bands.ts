import type { BandTable } from '../../severity/bands.js';

/**
 * Structural/Format's magnitude bands (docs/method.md#level-bands), overlapping on purpose: the
 * first band (lowest level) wins. `ladder.bands.F` overrides them.
 */
export const F_BANDS: BandTable = [
  [0.01, 0.06],
  [0.04, 0.1],
  [0.08, 0.15],
  [0.12, 0.22],
  [0.18, 0.35],
];
