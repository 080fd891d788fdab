import type { BandTable } from '../../severity/bands.js';

/**
 * Context Load's magnitude bands: none (the reference code has none), so with `strictLoadBands:
 * false` it is binned on the generic scale. `ladder.bands.CL` sets some.
 */
export const CL_BANDS: BandTable | null = null;

/**
 * The paper's expansion bands, words(G)/words(O), [1.10, 1.20) at L1 to [1.50, 1.60) at L5, which
 * bin Context Load with `strictLoadBands` (the default); `ladder.bands.clExpansion` overrides them.
 */
export const CL_EXPANSION_BANDS: BandTable = [
  [1.1, 1.2],
  [1.2, 1.3],
  [1.3, 1.4],
  [1.4, 1.5],
  [1.5, 1.6],
];
