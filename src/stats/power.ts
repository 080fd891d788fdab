import { normalCdf, normalQuantile } from './normal.js';
import { studentTQuantile } from './student-t.js';

/**
 * Sample sizes a claim needs, and the difference a run could detect (docs/plan.md). Closed forms
 * where the textbooks have one (two proportions, McNemar), and the search for the smallest n whose
 * exact power, a sum over binomial counts, reaches the target (McNemar's exact test, and the
 * protocols' own exact powers): no figure here is simulated, so none carries Monte Carlo error.
 */

export interface Test {
  /** Two-sided level of the test; 0.05 by default. */
  alpha?: number;
  /** The chance of detecting the difference when it is there; 0.8 by default. */
  power?: number;
  /** 2 (default) or 1. */
  sides?: 1 | 2;
}

function zs(t: Test): { za: number; zb: number } {
  const alpha = t.alpha ?? 0.05;
  const power = t.power ?? 0.8;
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be in (0, 1), got ${alpha}`);
  if (!(power > 0 && power < 1)) throw new RangeError(`power must be in (0, 1), got ${power}`);
  return { za: normalQuantile(1 - alpha / (t.sides ?? 2)), zb: normalQuantile(power) };
}

/** A RangeError unless `p` is in [0, 1], naming what it is. */
export function proportion(name: string, p: number): void {
  if (!(p >= 0 && p <= 1)) throw new RangeError(`${name} must be a proportion in [0, 1], got ${p}`);
}

/**
 * Items per arm to tell proportion p1 from p2 with a z test of two independent proportions, the
 * pooled-variance formula without continuity correction (Fleiss, Levin & Paik 2003, eq. 4.14):
 * n = (za * sqrt(2 pbar qbar) + zb * sqrt(p1 q1 + p2 q2))^2 / (p1 - p2)^2, rounded up.
 * 0.8 vs 0.7 at power 0.8, alpha 0.05 two-sided: 294.
 */
export function twoProportionsN(p1: number, p2: number, test: Test = {}): number {
  proportion('p1', p1);
  proportion('p2', p2);
  if (p1 === p2) throw new RangeError('the two proportions are equal: no n detects a difference of 0');
  const { za, zb } = zs(test);
  const pbar = (p1 + p2) / 2;
  const root = za * Math.sqrt(2 * pbar * (1 - pbar)) + zb * Math.sqrt(p1 * (1 - p1) + p2 * (1 - p2));
  return Math.ceil(root ** 2 / (p1 - p2) ** 2 - 1e-9);
}

/**
 * Items for a (1 - alpha) normal-approximation CI of a proportion p to have half-width at most w:
 * n = z^2 p q / w^2, rounded up (z = z_{1 - alpha/2}). An expected half-width: the interval of a
 * run varies with its own estimate.
 */
export function ciWidthN(p: number, halfWidth: number, alpha = 0.05): number {
  proportion('p', p);
  if (!(halfWidth > 0 && halfWidth < 1))
    throw new RangeError(`the half-width must be in (0, 1), got ${halfWidth}`);
  if (p === 0 || p === 1) throw new RangeError(`a rate of ${p} has no spread: give one inside (0, 1)`);
  const z = normalQuantile(1 - alpha / 2);
  return Math.ceil((z * z * p * (1 - p)) / halfWidth ** 2 - 1e-9);
}

/**
 * Pairs (prompts both models answer) for a paired t test of a mean difference d whose per-pair
 * differences have standard deviation sd (SGS between two models): the smallest n with
 * n >= ((t_{1-alpha/s, n-1} + t_{power, n-1}) sd / d)^2, found by stepping from the normal n
 * (the t quantiles shrink as n grows, so the first n that satisfies it is the answer).
 */
export function meanDifferenceN(d: number, sd: number, test: Test = {}): number {
  if (!(d !== 0 && Number.isFinite(d))) throw new RangeError('the difference is 0: no n detects it');
  if (!(sd > 0)) throw new RangeError(`the standard deviation must be above 0, got ${sd}`);
  const { za, zb } = zs(test);
  const alpha = test.alpha ?? 0.05;
  const power = test.power ?? 0.8;
  const need = (n: number) =>
    ((studentTQuantile(1 - alpha / (test.sides ?? 2), n - 1) + studentTQuantile(power, n - 1)) * sd) ** 2 /
    d ** 2;
  let n = Math.max(2, Math.ceil(((za + zb) * sd) ** 2 / d ** 2 - 1e-9));
  while (n < need(n)) n++;
  return n;
}

/**
 * Pairs (items both models answer) for McNemar's test to detect p1 - p2 = p10 - p01, from the
 * discordant shares: p10 (right under the first, wrong under the second) and p01 (the other way).
 * Connor (1987): n = (za * sqrt(psi) + zb * sqrt(psi - delta^2))^2 / delta^2, psi = p10 + p01.
 */
export function pairedProportionsN(p10: number, p01: number, test: Test = {}): number {
  proportion('p10', p10);
  proportion('p01', p01);
  const psi = p10 + p01;
  const delta = p10 - p01;
  if (psi > 1) throw new RangeError(`the discordant shares add up to ${psi} > 1`);
  if (delta === 0) throw new RangeError('p10 = p01: no n detects a difference of 0');
  const { za, zb } = zs(test);
  const root = za * Math.sqrt(psi) + zb * Math.sqrt(psi - delta ** 2);
  return Math.ceil(root ** 2 / delta ** 2 - 1e-9);
}

/**
 * Pairs for the non-inferiority gate of `check --compare --margin m` (docs/check.md#decision): it
 * passes when the lower end of the two-sided (1 - alpha) CI of new - base is above -m. With the
 * variance of a paired difference of proportions, (psi - delta^2) / n (the Wald interval, which
 * check's cluster bootstrap approximates over independent pairs), the power at n is
 * Phi((delta + m) / sqrt((psi - delta^2) / n) - z(1 - alpha/2)), so
 * n = (z(1 - alpha/2) + z(power))^2 (psi - delta^2) / (delta + m)^2, rounded up, with
 * delta = pNew - pBase and psi the discordance (Liu et al. 2002 give the same Wald form).
 */
export function nonInferiorityPairsN(
  pBase: number,
  pNew: number,
  psi: number,
  margin: number,
  test: Pick<Test, 'alpha' | 'power'> = {},
): number {
  const delta = pNew - pBase;
  if (!(margin > 0 && margin < 1))
    throw new RangeError(`the margin must be a share in (0, 1), got ${margin}`);
  if (!(delta + margin > 1e-12))
    throw new RangeError(
      `the new model is expected ${shown(-delta)} below the base, at or past the margin ${margin}: no n shows it non-inferior`,
    );
  if (!(psi > 0))
    throw new RangeError('a discordance of 0: the two models never disagree, so no CI has width');
  const { za, zb } = zs({ ...test, sides: 2 });
  return Math.max(1, Math.ceil(((za + zb) ** 2 * (psi - delta ** 2)) / (delta + margin) ** 2 - 1e-9));
}

/** The power of `nonInferiorityPairsN`'s rule at n pairs. */
export function nonInferiorityPower(
  n: number,
  pBase: number,
  pNew: number,
  psi: number,
  margin: number,
  alpha = 0.05,
): number {
  const delta = pNew - pBase;
  const se = Math.sqrt((psi - delta ** 2) / n);
  return normalCdf((delta + margin) / se - normalQuantile(1 - alpha / 2));
}

/**
 * The discordant shares of two paired proportions p1, p2 whose pairs disagree in a share `psi`:
 * p10 = (psi + d) / 2, p01 = (psi - d) / 2 with d = p1 - p2. psi must lie in [|d|, min(p1 + p2, 2 - p1 - p2)].
 * A share off its range by rounding alone (0.8 - 0.7 is 0.10000000000000009) is put on it.
 */
export function discordantShares(p1: number, p2: number, psi: number): { p10: number; p01: number } {
  const d = p1 - p2;
  const least = Math.abs(d);
  const most = Math.min(p1 + p2, 2 - p1 - p2, 1);
  if (!(psi >= least - 1e-12 && psi <= most + 1e-12))
    throw new RangeError(
      `a discordance of ${psi} is impossible for ${p1} vs ${p2}: it must lie in [${shown(least)}, ${shown(most)}]`,
    );
  const clamp = (x: number) => Math.min(1, Math.max(0, x));
  return { p10: clamp((psi + d) / 2), p01: clamp((psi - d) / 2) };
}

/** A computed bound as people wrote it: 0.1, not 0.10000000000000009. */
function shown(x: number): number {
  return Number(x.toPrecision(12));
}

/**
 * The largest discordance possible between two models when the first is right with chance p1 and
 * the difference is 0 (p10 <= p1, p01 <= 1 - p1): 2 min(p1, 1 - p1). A discordance above it
 * cannot go with a small difference, so a minimum detectable difference from it means nothing.
 */
export function mostDiscordance(p1: number): number {
  return 2 * Math.min(p1, 1 - p1);
}

/**
 * Kish's design effect for clusters of m correlated observations with intra-cluster correlation
 * icc: 1 + (m - 1) * icc. m repeats of one seed carry the information of m / deff independent cells.
 */
export function designEffect(m: number, icc: number): number {
  if (!(m >= 1)) throw new RangeError(`cluster size must be >= 1, got ${m}`);
  if (!(icc >= 0 && icc <= 1))
    throw new RangeError(`the intra-cluster correlation must be in [0, 1], got ${icc}`);
  return 1 + (m - 1) * icc;
}

/**
 * Kish's design effect for clusters of unequal sizes m_c with a common intra-cluster correlation
 * icc: 1 + (sum m_c^2 / sum m_c - 1) * icc, the size-weighted mean cluster size in place of m.
 * Equal sizes give designEffect(m, icc). Clusters of size 0 add nothing.
 */
export function unequalClusterDesignEffect(sizes: readonly number[], icc: number): number {
  const total = sizes.reduce((a, m) => a + m, 0);
  if (!(total > 0)) throw new RangeError('the clusters have no observations');
  const weighted = sizes.reduce((a, m) => a + m * m, 0) / total;
  return designEffect(weighted, icc);
}

/**
 * The smallest difference d (p2 = p1 - d, or p1 + d when `direction` is 1) that n per arm detects
 * at the test's power: the inverse of twoProportionsN, by bisection on d. Undefined when even the
 * largest difference the proportion allows needs more than n.
 */
export function minimumDetectableDifference(
  n: number,
  p1: number,
  test: Test = {},
  direction: 1 | -1 = -1,
): number | undefined {
  proportion('p1', p1);
  if (!(n >= 1)) throw new RangeError(`n must be at least 1, got ${n}`);
  const most = direction < 0 ? p1 : 1 - p1;
  if (most <= 0 || twoProportionsN(p1, p1 + direction * most, test) > n) return undefined;
  let lo = 0;
  let hi = most;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (mid === 0 || twoProportionsN(p1, p1 + direction * mid, test) > n) lo = mid;
    else hi = mid;
  }
  return hi;
}

/**
 * McNemar's minimum detectable p10 - p01 for n pairs whose pairs disagree in a share psi, by
 * bisection on d: the smallest d at which `detects(n, p10, p01)` holds (Connor's n <= n unless
 * another test is given, e.g. the exact power reaching the target).
 */
export function pairedMinimumDetectableDifference(
  n: number,
  psi: number,
  test: Test = {},
  detects: (p10: number, p01: number) => boolean = (p10, p01) => pairedProportionsN(p10, p01, test) <= n,
): number | undefined {
  proportion('psi', psi);
  if (psi === 0 || !detects(psi, 0)) return undefined;
  let lo = 0;
  let hi = psi;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (mid === 0 || !detects((psi + mid) / 2, (psi - mid) / 2)) lo = mid;
    else hi = mid;
  }
  return hi;
}

/**
 * The chance that all `cells` cells of an item are right (the rate of an item that one wrong cell
 * fails) under the stated per-cell accuracy, when the item's chance q is Beta with mean p and
 * intra-item correlation icc (a + b = (1 - icc) / icc): E[q^m] = prod_{k<m} (a + k) / (a + b + k),
 * the beta-binomial's P(m of m). icc 0 is p^m (independent cells), icc 1 is p (every cell alike).
 */
export function allRightRate(p: number, cells: number, icc: number): number {
  proportion('p', p);
  designEffect(cells, icc);
  if (icc === 0) return p ** cells;
  if (icc === 1 || p === 0 || p === 1) return p;
  const total = (1 - icc) / icc;
  const a = p * total;
  let rate = 1;
  for (let k = 0; k < cells; k++) rate *= (a + k) / (total + k);
  return rate;
}

// --- exact powers by search ---------------------------------------------------------------

/**
 * The smallest n whose exact power reaches the target. An exact power is a sawtooth in n (counts
 * move in whole steps), so after growing from `start` and bisecting to a crossing, the search steps
 * back through a window below it (5% of n plus 10, at most 100) and keeps the smallest n that reaches the
 * target (docs/plan.md#exact). Undefined when maxN does not reach it.
 */
export function smallestN(
  powerAt: (n: number) => number,
  target: number,
  opts: { start?: number; maxN: number },
): { n: number; power: number } | undefined {
  let hi = Math.max(2, Math.min(opts.maxN, opts.start ?? 2));
  while (powerAt(hi) < target) {
    if (hi >= opts.maxN) return undefined;
    hi = Math.min(opts.maxN, Math.ceil(hi * 1.5));
  }
  let lo = Math.max(1, Math.floor(hi / 2));
  while (lo > 1 && powerAt(lo) >= target) lo = Math.max(1, Math.floor(lo / 2));
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (powerAt(mid) >= target) hi = mid;
    else lo = mid;
  }
  let best = hi;
  // At most 100 steps: past a few thousand the teeth are far below the power's own rounding.
  for (let n = hi - 1; n >= Math.max(1, hi - Math.min(100, Math.ceil(hi * 0.05) + 10)); n--)
    if (powerAt(n) >= target) best = n;
  return { n: best, power: powerAt(best) };
}
