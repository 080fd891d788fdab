import { newcombePairedInterval, pairedDesignEffect } from './paired-interval.js';

/**
 * Paired comparison of two models on the same tests (docs/check.md#compare): McNemar's exact test
 * on the discordant pairs, and Newcombe's interval of the accuracy difference on the table shrunk
 * by the clusters' design effect (paired-interval.ts). McNemar treats every pair as independent;
 * pairs that share a seed or item are not, which is why the interval counts clusters.
 */

export interface McNemarResult {
  /** Pairs where the base model was right and the new one wrong. */
  b: number;
  /** Pairs where the base model was wrong and the new one right. */
  c: number;
  /** Two-sided exact p: min(1, 2 P(X <= min(b, c))), X ~ Binomial(b + c, 1/2); 1 when b + c = 0. */
  p: number;
  /** Two-sided mid-p: the exact p less P(X = min(b, c)) (less conservative, not exact). */
  midP: number;
}

/** McNemar's exact test: the binomial test of b against b + c discordant pairs at 1/2. */
export function mcnemarExact(b: number, c: number): McNemarResult {
  if (!Number.isInteger(b) || !Number.isInteger(c) || b < 0 || c < 0)
    throw new RangeError(`McNemar counts must be non-negative integers, got b=${b}, c=${c}`);
  const m = b + c;
  if (m === 0) return { b, c, p: 1, midP: 1 };
  const k = Math.min(b, c);
  const { cdf, pmf } = binomialHalfLowerTail(m, k);
  return { b, c, p: Math.min(1, 2 * cdf), midP: Math.min(1, 2 * cdf - pmf) };
}

/**
 * P(X <= k) and P(X = k) for X ~ Binomial(m, 1/2), k <= m / 2. Computed from the largest term
 * (P(X = k); in log space beyond 1,000 pairs, where 2^-m underflows) down to 0 by the ratio
 * C(m, i-1) / C(m, i) = i / (m - i + 1); every added term is smaller than the last, so the sum is
 * accurate to a few ulps per term.
 */
function binomialHalfLowerTail(m: number, k: number): { cdf: number; pmf: number } {
  let pmf: number;
  if (m <= 1000) {
    // C(m, k) < 1e300 and 2^-m is a normal double: exact small cases stay exact (9/256, not 9.000001/256).
    let comb = 1;
    for (let i = 1; i <= k; i++) comb = (comb * (m - k + i)) / i;
    pmf = comb * 2 ** -m;
  } else {
    let logComb = 0;
    for (let i = 1; i <= k; i++) logComb += Math.log((m - k + i) / i);
    pmf = Math.exp(logComb - m * Math.LN2);
  }
  let term = 1;
  let sum = 1;
  for (let i = k; i >= 1; i--) {
    term *= i / (m - i + 1);
    sum += term;
    if (term < sum * 1e-17) break;
  }
  return { cdf: pmf * sum, pmf };
}

/** One test answered by both models: a pair of correctness verdicts in a cluster (seed or item). */
export interface PairedObservation {
  cluster: string;
  base: boolean;
  new: boolean;
  /** The family of tests it belongs to, when the comparison tests families too. */
  family?: string;
}

export interface PairedComparison {
  /** Pairs compared. */
  n: number;
  /** Distinct clusters (the bootstrap's units). */
  clusters: number;
  /** Rows base right/wrong, columns new right/wrong: a = both right, d = both wrong. */
  table: { a: number; b: number; c: number; d: number };
  baseAccuracy: number | undefined;
  newAccuracy: number | undefined;
  mcnemar: McNemarResult;
  /**
   * new - base accuracy over the pairs, with Newcombe's interval on the table divided by the
   * design effect (docs/decisions.md E47): no resampling, so no seed and no Monte Carlo error.
   */
  difference: {
    estimate: number | undefined;
    low: number | undefined;
    high: number | undefined;
    confidence: number;
    /** The clusters' design effect the table was divided by (1: pairs as independent as they look). */
    designEffect: number;
  };
}

export interface PairedOptions {
  /** CI level of the difference; 0.95 by default. */
  confidence?: number;
}

/** McNemar and the interval of the difference over the same pairs. */
export function pairedComparison(
  pairs: readonly PairedObservation[],
  opts: PairedOptions = {},
): PairedComparison {
  const table = { a: 0, b: 0, c: 0, d: 0 };
  // Per cluster: pairs, b (base-only right), c (new-only right): what the design effect reads.
  const index = new Map<string, number>();
  const sums: [number, number, number][] = [];
  for (const p of pairs) {
    let i = index.get(p.cluster);
    if (i === undefined) {
      i = sums.length;
      index.set(p.cluster, i);
      sums.push([0, 0, 0]);
    }
    const s = sums[i] as [number, number, number];
    s[0]++;
    if (p.base && p.new) table.a++;
    else if (p.base) {
      table.b++;
      s[1]++;
    } else if (p.new) {
      table.c++;
      s[2]++;
    } else table.d++;
  }
  const n = pairs.length;
  const confidence = opts.confidence ?? 0.95;
  const designEffect = pairedDesignEffect(sums);
  const effective = {
    a: table.a / designEffect,
    b: table.b / designEffect,
    c: table.c / designEffect,
    d: table.d / designEffect,
  };
  const interval = newcombePairedInterval(effective, confidence);
  return {
    n,
    clusters: sums.length,
    table,
    baseAccuracy: n === 0 ? undefined : (table.a + table.b) / n,
    newAccuracy: n === 0 ? undefined : (table.a + table.c) / n,
    mcnemar: mcnemarExact(table.b, table.c),
    difference: {
      estimate: n === 0 ? undefined : (table.c - table.b) / n,
      low: interval?.low,
      high: interval?.high,
      confidence,
      designEffect,
    },
  };
}
