import { normalQuantile } from './normal.js';
import { wilsonInterval } from './wilson.js';

/**
 * The Rogan–Gladen estimator (Rogan & Gladen 1978): the true share of positives behind an observed
 * share `p` of a classifier with sensitivity se and specificity sp, pi = (p + sp - 1) / (se + sp - 1),
 * clipped to [0, 1]. Its interval is the delta method's (Greenland 1996), with se and sp estimated
 * on nPositive and nNegative labelled items and p on n classified ones, all independent:
 * var = (p q / n + pi^2 var(se) + (1 - pi)^2 var(sp)) / J^2, J = se + sp - 1 (Youden's index).
 * var(se) and var(sp) are not the binomial se (1 - se) / n, which is 0 when the judge made no error
 * on the labelled items, but the square of the Wilson interval's half-width over z at the same
 * confidence: honest at 0 errors, and within a hair of the binomial one away from 0 and 1
 * (docs/judges.md#corrected, docs/decisions.md E29). Undefined when J <= 0: a classifier no
 * better than chance says nothing about the true share.
 */

export interface RoganGladenInput {
  /** Observed share of positives among the n classified items. */
  observed: number;
  n: number;
  sensitivity: number;
  /** Labelled items that are truly positive (se's denominator; an effective count when weighted). */
  nPositive: number;
  specificity: number;
  /** Labelled items that are truly negative (sp's denominator; an effective count when weighted). */
  nNegative: number;
}

export interface RoganGladenResult {
  value: number;
  low: number;
  high: number;
  /** The estimate before clipping to [0, 1]. */
  unclipped: number;
}

export function roganGladen(input: RoganGladenInput, confidence = 0.95): RoganGladenResult | undefined {
  const { observed: p, n, sensitivity: se, specificity: sp, nPositive, nNegative } = input;
  const j = se + sp - 1;
  if (!(j > 0) || n <= 0 || nPositive <= 0 || nNegative <= 0) return undefined;
  const pi = (p + sp - 1) / j;
  const clipped = Math.min(1, Math.max(0, pi));
  const z = normalQuantile(1 - (1 - confidence) / 2);
  const variance =
    ((p * (1 - p)) / n +
      clipped ** 2 * wilsonVariance(se, nPositive, z) +
      (1 - clipped) ** 2 * wilsonVariance(sp, nNegative, z)) /
    j ** 2;
  const half = z * Math.sqrt(variance);
  return {
    value: clipped,
    low: Math.max(0, clipped - half),
    high: Math.min(1, clipped + half),
    unclipped: pi,
  };
}

/** ((high - low) / (2 z))^2 of the Wilson interval of a rate over n: a variance that is not 0 at 0 or n errors. */
export function wilsonVariance(rate: number, n: number, z: number): number {
  const w = wilsonInterval(rate * n, n, z) as { low: number; high: number };
  return ((w.high - w.low) / (2 * z)) ** 2;
}
