import { PyRandom } from '../util/random.js';
import { normalQuantile } from './normal.js';

/**
 * Sample sizes a claim needs, and the difference a run could detect (docs/plan.md). Closed forms
 * where the textbooks have one (two proportions, McNemar), simulation where the statistic has
 * none (SAA over items, a Collapse Point). Every simulation is seeded: the same input gives the
 * same n.
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

function proportion(name: string, p: number): void {
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
 * The discordant shares of two paired proportions p1, p2 whose pairs disagree in a share `psi`:
 * p10 = (psi + d) / 2, p01 = (psi - d) / 2 with d = p1 - p2. psi must lie in [|d|, min(p1 + p2, 2 - p1 - p2)].
 */
export function discordantShares(p1: number, p2: number, psi: number): { p10: number; p01: number } {
  const d = p1 - p2;
  const most = Math.min(p1 + p2, 2 - p1 - p2, 1);
  if (!(psi >= Math.abs(d) - 1e-12 && psi <= most + 1e-12))
    throw new RangeError(
      `a discordance of ${psi} is impossible for ${p1} vs ${p2}: it must lie in [${Math.abs(d)}, ${most}]`,
    );
  return { p10: (psi + d) / 2, p01: (psi - d) / 2 };
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
 * Accuracy at one ladder level, two models: seeds per model for the two-proportions test on cells
 * when each seed is asked `repeats` times with intra-seed correlation icc (design effect).
 */
export function clusteredProportionsN(
  p1: number,
  p2: number,
  repeats: number,
  icc: number,
  test: Test = {},
): { clusters: number; cells: number; independentCells: number; designEffect: number } {
  const independentCells = twoProportionsN(p1, p2, test);
  const deff = designEffect(repeats, icc);
  const clusters = Math.ceil((independentCells * deff) / repeats - 1e-9);
  return { clusters, cells: clusters * repeats, independentCells, designEffect: deff };
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

/** McNemar's minimum detectable p10 - p01 for n pairs whose pairs disagree in a share psi. */
export function pairedMinimumDetectableDifference(
  n: number,
  psi: number,
  test: Test = {},
): number | undefined {
  proportion('psi', psi);
  if (psi === 0 || pairedProportionsN(psi, 0, test) > n) return undefined;
  let lo = 0;
  let hi = psi;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (mid === 0 || pairedProportionsN((psi + mid) / 2, (psi - mid) / 2, test) > n) lo = mid;
    else hi = mid;
  }
  return hi;
}

// --- simulation --------------------------------------------------------------------------------

export interface Simulation {
  /** Simulated studies per candidate n; 1000 by default. */
  simulations?: number;
  seed?: number;
  /** The largest n searched; 100,000 by default. */
  maxN?: number;
}

/**
 * The smallest n whose simulated power reaches the target: doubling, then bisection. Each n is
 * simulated with the same seed (common random numbers), so the estimate moves smoothly with n.
 * Undefined when maxN does not reach it.
 */
export function smallestN(
  powerAt: (n: number, rng: PyRandom) => number,
  target: number,
  sim: Simulation = {},
): { n: number; power: number } | undefined {
  const seed = sim.seed ?? 0;
  const maxN = sim.maxN ?? 100_000;
  const at = (n: number) => powerAt(n, new PyRandom(seed));
  let hi = 2;
  let powerHi = at(hi);
  while (powerHi < target) {
    if (hi >= maxN) return undefined;
    hi = Math.min(maxN, hi * 2);
    powerHi = at(hi);
  }
  let lo = Math.floor(hi / 2);
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    const p = at(mid);
    if (p >= target) {
      hi = mid;
      powerHi = p;
    } else lo = mid;
  }
  return { n: hi, power: powerHi };
}

/** One item of a pilot for two models: each model's correctness in each of its cells. */
export interface PairedCluster {
  a: readonly boolean[];
  b: readonly boolean[];
}

/**
 * Power of a paired test on SAA (an item scores 1 when every cell of it is correct) between two
 * models over n items drawn with replacement from `pool` (a pilot's items, or items simulated from
 * stated rates): the cluster bootstrap by simulation of docs/plan.md#saa. Each simulated study
 * tests the mean per-item difference with a z test at alpha; the power is the share that reject.
 */
export function saaPower(
  pool: readonly PairedCluster[],
  n: number,
  rng: PyRandom,
  test: Test = {},
  simulations = 1000,
): number {
  if (pool.length === 0) throw new RangeError('no items to simulate from');
  const { za } = zs(test);
  const d = pool.map((c) => Number(c.a.every(Boolean)) - Number(c.b.every(Boolean)));
  let rejected = 0;
  for (let s = 0; s < simulations; s++) {
    let sum = 0;
    let sum2 = 0;
    for (let i = 0; i < n; i++) {
      const v = d[rng.randbelow(d.length)] as number;
      sum += v;
      sum2 += v * v;
    }
    const mean = sum / n;
    const variance = n > 1 ? (sum2 - n * mean * mean) / (n - 1) : 0;
    if (variance > 0 && Math.abs(mean) / Math.sqrt(variance / n) > za) rejected++;
  }
  return rejected / simulations;
}

/**
 * Items simulated from stated rates: each model answers each of `cells` cells of an item correctly
 * with the item's own chance, drawn from a beta distribution with mean p and intra-item
 * correlation icc (alpha + beta = (1 - icc) / icc; icc 0 is one chance for every item). The two
 * models' chances are drawn apart: a conservative pairing (docs/plan.md#saa).
 */
export function simulatedItems(
  pA: number,
  pB: number,
  cells: number,
  icc: number,
  count: number,
  rng: PyRandom,
): PairedCluster[] {
  proportion('p1', pA);
  proportion('p2', pB);
  designEffect(cells, icc);
  const chance = (p: number) => {
    if (icc === 0 || p === 0 || p === 1) return p;
    const total = (1 - icc) / icc;
    return betaVariate(rng, p * total, (1 - p) * total);
  };
  const draw = (p: number) => {
    const q = chance(p);
    return Array.from({ length: cells }, () => rng.random() < q);
  };
  return Array.from({ length: count }, () => ({ a: draw(pA), b: draw(pB) }));
}

/** Beta(a, b) from two gamma variates (Marsaglia & Tsang 2000, with the boost for shape < 1). */
function betaVariate(rng: PyRandom, a: number, b: number): number {
  const x = gammaVariate(rng, a);
  const y = gammaVariate(rng, b);
  return x + y === 0 ? 0.5 : x / (x + y);
}

function gammaVariate(rng: PyRandom, shape: number): number {
  if (shape < 1) return gammaVariate(rng, shape + 1) * (1 - rng.random()) ** (1 / shape);
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    const z = gaussian(rng);
    const v = (1 + c * z) ** 3;
    if (v <= 0) continue;
    const u = 1 - rng.random();
    if (Math.log(u) < 0.5 * z * z + d - d * v + d * Math.log(v)) return d * v;
  }
}

function gaussian(rng: PyRandom): number {
  const u = 1 - rng.random();
  const v = rng.random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/**
 * The Collapse Point of an accuracy curve (docs/method.md#ladder-metrics): the lowest level k >= 1
 * with acc(Lk) < ratio * acc(L0); `levels + 1` stands for "never" so that curves compare.
 */
export function collapsePointOf(curve: readonly number[], ratio = 0.8): number {
  const base = curve[0] as number;
  for (let k = 1; k < curve.length; k++) if ((curve[k] as number) < ratio * base) return k;
  return curve.length;
}

/**
 * Power to see a Collapse Point shift: the chance that, with n seeds asked `repeats` times at each
 * level (the baseline too), model A's estimated Collapse Point comes out earlier than model B's,
 * when their true accuracy curves (acc(L0), acc(L1), ...) say A collapses first. Cells are drawn
 * independently (no intra-seed correlation: docs/plan.md#collapse).
 */
export function collapseShiftPower(
  curveA: readonly number[],
  curveB: readonly number[],
  n: number,
  repeats: number,
  rng: PyRandom,
  ratio = 0.8,
  simulations = 1000,
): number {
  if (curveA.length !== curveB.length || curveA.length < 2)
    throw new RangeError('the two accuracy curves need the same levels, the baseline and at least one more');
  for (const p of [...curveA, ...curveB]) proportion('an accuracy', p);
  const cells = n * repeats;
  const estimate = (curve: readonly number[]) =>
    collapsePointOf(
      curve.map((p) => {
        let k = 0;
        for (let i = 0; i < cells; i++) if (rng.random() < p) k++;
        return k / cells;
      }),
      ratio,
    );
  let seen = 0;
  for (let s = 0; s < simulations; s++) if (estimate(curveA) < estimate(curveB)) seen++;
  return seen / simulations;
}
