import { lnGamma } from './student-t.js';

// Binomial probabilities in log space, accurate in the far tails (docs/plan.md#exact).

/** ln of the Binomial(m, q) probability of k. */
export function lnBinomialPmf(k: number, m: number, q: number): number {
  if (q === 0) return k === 0 ? 0 : -Infinity;
  if (q === 1) return k === m ? 0 : -Infinity;
  return lnGamma(m + 1) - lnGamma(k + 1) - lnGamma(m - k + 1) + k * Math.log(q) + (m - k) * Math.log1p(-q);
}

/**
 * P(X <= k), X ~ Binomial(m, q). The tail away from the mean is summed in log space from its inner
 * end outwards, where the terms fall away geometrically, and stops when a term no longer counts;
 * a k above the mean is 1 less the upper tail.
 */
export function binomialCdf(k: number, m: number, q: number): number {
  if (k < 0) return 0;
  if (k >= m) return 1;
  if (k > m * q) return 1 - tail(k + 1, m, q, 1);
  return tail(k, m, q, -1);
}

/** P(X <= from) (step -1) or P(X >= from) (step 1), from lying on the tail's side of the mean. */
function tail(from: number, m: number, q: number, step: 1 | -1): number {
  const top = lnBinomialPmf(from, m, q);
  if (top === -Infinity) return 0;
  let term = 1;
  let sum = 1;
  for (let i = from; step < 0 ? i >= 1 : i < m; i += step) {
    // pmf(i - 1) / pmf(i) = i (1 - q) / ((m - i + 1) q); its inverse going up.
    term *= step < 0 ? (i * (1 - q)) / ((m - i + 1) * q) : ((m - i) * q) / ((i + 1) * (1 - q));
    sum += term;
    if (term < sum * 1e-17) break;
  }
  return Math.min(1, Math.exp(top) * sum);
}

/** The Binomial(m, q) probabilities of 0..m, each from its log. */
export function binomialPmfs(m: number, q: number): Float64Array {
  const out = new Float64Array(m + 1);
  for (let k = 0; k <= m; k++) out[k] = Math.exp(lnBinomialPmf(k, m, q));
  return out;
}
