import { normalQuantile } from './normal.js';

/**
 * The Rogan–Gladen estimator (Rogan & Gladen 1978): the true share of positives behind an observed
 * share `p` of a classifier with sensitivity se and specificity sp, pi = (p + sp - 1) / (se + sp - 1),
 * clipped to [0, 1]. Its interval is the delta method's (Greenland 1996), with se and sp estimated
 * on nPositive and nNegative labelled items and p on n classified ones, all independent:
 * var = (p q / n + pi^2 se (1 - se) / nPositive + (1 - pi)^2 sp (1 - sp) / nNegative) / J^2,
 * J = se + sp - 1 (Youden's index). Undefined when J <= 0: a classifier no better than chance
 * says nothing about the true share. See docs/judges.md#corrected.
 */

export interface RoganGladenInput {
  /** Observed share of positives among the n classified items. */
  observed: number;
  n: number;
  sensitivity: number;
  /** Labelled items that are truly positive (se's denominator). */
  nPositive: number;
  specificity: number;
  /** Labelled items that are truly negative (sp's denominator). */
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
  const variance =
    ((p * (1 - p)) / n +
      (clipped ** 2 * se * (1 - se)) / nPositive +
      ((1 - clipped) ** 2 * sp * (1 - sp)) / nNegative) /
    j ** 2;
  const half = normalQuantile(1 - (1 - confidence) / 2) * Math.sqrt(variance);
  return {
    value: clipped,
    low: Math.max(0, clipped - half),
    high: Math.min(1, clipped + half),
    unclipped: pi,
  };
}
