import type { BandTable } from '../../severity/bands.js';

/** Semantic Variation's magnitude bands (docs/method.md#level-bands); `ladder.bands.SV` overrides them. */
export const SV_BANDS: BandTable = [
  [0.05, 0.15],
  [0.15, 0.35],
  [0.35, 0.6],
  [0.6, 0.85],
  [0.85, 0.95],
];
