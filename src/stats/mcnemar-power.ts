import { binomialCdf, lnBinomialPmf } from './binomial.js';
import { smallestN } from './power.js';

/**
 * The exact power of McNemar's exact test, the test `waver check --compare` runs (docs/plan.md#exact,
 * docs/decisions.md E29): n independent pairs, each discordant with chance psi = p10 + p01. Given m
 * discordant pairs, the count c of the rarer kind (p01, when p10 > p01) is Binomial(m, p01 / psi);
 * the test rejects in the stated direction when the exact p of c is below alpha:
 * two-sided 2 P(X <= c) < alpha, one-sided P(X <= c) < alpha, X ~ Binomial(m, 1/2). So
 * power(n) = sum_m Binomial(m; n, psi) P(c <= k_m), k_m the largest c that rejects.
 */

/** The largest count c of m discordant pairs whose exact p is below alpha; -1 when none is. */
function criticalCount(m: number, alpha: number, sides: 1 | 2): number {
  const level = sides === 2 ? alpha / 2 : alpha;
  // The normal approximation's count, then a step to the exact boundary.
  let k = Math.max(-1, Math.floor(m / 2 - (Math.sqrt(m) / 2) * 4));
  while (k + 1 <= m && binomialCdf(k + 1, m, 0.5) < level) k++;
  while (k >= 0 && binomialCdf(k, m, 0.5) >= level) k--;
  return k;
}

export interface ExactMcNemarInput {
  /** Pairs right under the first model and wrong under the second. */
  p10: number;
  p01: number;
  alpha: number;
  sides: 1 | 2;
}

/** Memo of critical counts by m: a search evaluates many n over the same m. */
const critical = new Map<string, number>();

/** The exact power at n pairs of rejecting in the direction of p10 - p01 (its sign decides). */
export function exactMcNemarPower(n: number, input: ExactMcNemarInput): number {
  const { alpha, sides } = input;
  const p10 = Math.max(input.p10, input.p01);
  const p01 = Math.min(input.p10, input.p01);
  const psi = p10 + p01;
  if (psi === 0 || p10 === p01) return 0;
  const rare = p01 / psi;
  // Only m within 12 standard deviations of n psi carry probability a double can see.
  const sd = Math.sqrt(n * psi * (1 - psi));
  const lo = Math.max(0, Math.floor(n * psi - 12 * sd - 2));
  const hi = Math.min(n, Math.ceil(n * psi + 12 * sd + 2));
  let power = 0;
  for (let m = lo; m <= hi; m++) {
    const key = `${m}:${alpha}:${sides}`;
    let k = critical.get(key);
    if (k === undefined) {
      k = criticalCount(m, alpha, sides);
      critical.set(key, k);
    }
    if (k < 0) continue;
    const w = Math.exp(lnBinomialPmf(m, n, psi));
    if (w > 0) power += w * binomialCdf(k, m, rare);
  }
  return Math.min(1, power);
}

/** The smallest n whose exact power reaches the target (power.ts smallestN), from the asymptotic n. */
export function exactMcNemarN(
  input: ExactMcNemarInput,
  target: number,
  start: number,
  maxN = 1_000_000,
): { n: number; power: number } | undefined {
  return smallestN((n) => exactMcNemarPower(n, input), target, { start, maxN });
}
