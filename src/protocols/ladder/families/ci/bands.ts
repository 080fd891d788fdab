import type { BandTable } from '../../severity/bands.js';

/**
 * Context Interference's magnitude bands (docs/method.md#level-bands), overlapping on purpose: the
 * first band (lowest level) wins. `ladder.bands.CI` overrides them.
 */
export const CI_BANDS: BandTable = [
  [0.05, 0.15],
  [0.12, 0.25],
  [0.2, 0.38],
  [0.28, 0.48],
  [0.38, 0.65],
];
