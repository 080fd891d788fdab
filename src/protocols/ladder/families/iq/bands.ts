import type { BandTable } from '../../severity/bands.js';

/**
 * Input Quality's magnitude bands (docs/method.md#level-bands), overlapping on purpose: the first
 * band (lowest level) wins. `ladder.bands.IQ` overrides them.
 */
export const IQ_BANDS: BandTable = [
  [0, 0.05],
  [0.03, 0.1],
  [0.08, 0.18],
  [0.15, 0.3],
  [0.25, 0.5],
];
