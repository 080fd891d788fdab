import { normalQuantile } from './normal.js';
import { wilsonInterval } from './wilson.js';

/**
 * The Rogan–Gladen estimator (Rogan & Gladen 1978): the true share of positives behind an observed
 * share `p` of a classifier with sensitivity se and specificity sp, pi = (p + sp - 1) / (se + sp - 1),
 * clipped to [0, 1]. Its interval recovers each input's own Wilson interval (MOVER, Zou & Donner
 * 2008, on the delta method's linearisation, Greenland 1996), with se and sp estimated on nPositive
 * and nNegative labelled items and p on n classified ones, all independent: pi falls as p and sp
 * fall and as se rises, so
 *   low  = pi - sqrt((p - l_p)^2 + pi^2 (u_se - se)^2 + (1 - pi)^2 (sp - l_sp)^2) / J,
 *   high = pi + sqrt((u_p - p)^2 + pi^2 (se - l_se)^2 + (1 - pi)^2 (u_sp - sp)^2) / J,
 * J = se + sp - 1 (Youden's index). Each distance is the Wilson interval's own on its side, so a
 * judge with no error on 20 labelled positives brings se's full Wilson distance down to 0.839, not
 * half the interval's width either way (issue 37.5; docs/judges.md#corrected, docs/decisions.md
 * E29). Undefined when J <= 0: a classifier no better than chance says nothing about the true share.
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

/** A rate with its Wilson interval and what it is over. */
export interface RateInterval {
  value: number;
  low: number;
  high: number;
  n: number;
}

export interface RoganGladenResult {
  value: number;
  low: number;
  high: number;
  /** The estimate before clipping to [0, 1]. */
  unclipped: number;
  /** The inputs with their Wilson intervals at the same confidence: what the correction rests on. */
  observed: RateInterval;
  sensitivity: RateInterval;
  specificity: RateInterval;
}

export function roganGladen(input: RoganGladenInput, confidence = 0.95): RoganGladenResult | undefined {
  const { observed: p, n, sensitivity: se, specificity: sp, nPositive, nNegative } = input;
  const j = se + sp - 1;
  if (!(j > 0) || n <= 0 || nPositive <= 0 || nNegative <= 0) return undefined;
  const pi = (p + sp - 1) / j;
  const clipped = Math.min(1, Math.max(0, pi));
  const z = normalQuantile(1 - (1 - confidence) / 2);
  const obs = rateInterval(p, n, z);
  const sens = rateInterval(se, nPositive, z);
  const spec = rateInterval(sp, nNegative, z);
  const down = Math.hypot(obs.value - obs.low, clipped * (sens.high - se), (1 - clipped) * (sp - spec.low));
  const up = Math.hypot(obs.high - obs.value, clipped * (se - sens.low), (1 - clipped) * (spec.high - sp));
  return {
    value: clipped,
    low: Math.max(0, clipped - down / j),
    high: Math.min(1, clipped + up / j),
    unclipped: pi,
    observed: obs,
    sensitivity: sens,
    specificity: spec,
  };
}

function rateInterval(rate: number, n: number, z: number): RateInterval {
  const w = wilsonInterval(rate * n, n, z) as { low: number; high: number };
  return { value: rate, low: w.low, high: w.high, n };
}
