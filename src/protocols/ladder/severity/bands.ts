import type { Level } from '../types.js';

/**
 * Severity bands (docs/method.md#level-bands): a family bins a candidate's score into the first of
 * its five bands that holds it. The tables themselves are the families' (families/<code>/bands.ts);
 * the generic scale is shared.
 */

/** `[lo, hi)`; `hi` null means no upper bound (the generic scale's L5 is `>= .75`). */
export type Band = readonly [lo: number, hi: number | null];
/** Bands for L1..L5, in that order. */
export type BandTable = readonly [Band, Band, Band, Band, Band];

/** For a score outside every band of its family, or a family without bands (docs/method.md). */
export const GENERIC_BANDS: BandTable = [
  [0, 0.1],
  [0.1, 0.25],
  [0.25, 0.5],
  [0.5, 0.75],
  [0.75, null],
];

/** The first band, in L1..L5 order, with lo <= score < hi; undefined when none holds it. */
export function levelFromBands(table: BandTable, score: number): Level | undefined {
  for (let i = 0; i < table.length; i++) {
    const [lo, hi] = table[i] as Band;
    if (lo <= score && (hi === null || score < hi)) return (i + 1) as Level;
  }
  return undefined;
}
