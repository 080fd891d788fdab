import { binomialPmfs } from '../../stats/binomial.js';
import { proportion } from '../../stats/power.js';

/**
 * The Collapse Point (docs/ladder.md#collapse-point): its rule, once, and what the plan sizes with
 * it, the distribution of an estimated Collapse Point and the power to see one come before another
 * (docs/plan.md#collapse).
 */

/**
 * The slack of the comparison: a tie within floating noise is no collapse (0.8 x 0.9 is
 * 0.7200000000000001, and acc(L1) = 0.72 ties it; docs/ladder.md#collapse-point).
 */
export const COLLAPSE_SLACK = 1e-12;

/**
 * The Collapse Point rule (docs/method.md#ladder-metrics, docs/ladder.md#collapse-point), written
 * once: a level collapses when its accuracy is below `ratio` times the baseline's, strictly, a tie
 * within the slack not counted. The metrics, the plan's curves and the plan's exact power all ask
 * it; the reference code's side compares the floats as computed (`slack` 0, fidelity L17-L19).
 */
export function collapses(acc: number, acc0: number, ratio: number, slack = COLLAPSE_SLACK): boolean {
  return acc < ratio * acc0 - slack;
}

/**
 * The Collapse Point of an accuracy curve: the lowest level k >= 1 that collapses, among the
 * levels `tested` (every level unless given); `levels + 1` stands for "never" so that curves compare.
 */
export function collapsePointOf(
  curve: readonly number[],
  ratio = 0.8,
  tested: (level: number) => boolean = () => true,
): number {
  const base = curve[0] as number;
  for (let k = 1; k < curve.length; k++)
    if (tested(k) && collapses(curve[k] as number, base, ratio)) return k;
  return curve.length;
}

/**
 * The distribution of the estimated Collapse Point when level i's accuracy is k_i / N_i with
 * k_i ~ Binomial(N_i, curve[i]), the levels independent, `cells[i]` = N_i (index 0 the baseline's
 * cells, its tests times their repeats). Given the baseline's k_0, level i collapses when
 * k_i / N_i < ratio * k_0 / N_0 - 1e-12, the metrics' rule (`collapses`); a level without cells has no
 * test and is skipped. So P(CP = j | k_0) = prod_{i<j} (1 - c_i) c_j over the tested levels, and
 * "never" (index curve.length) is what is left. Summed exactly over k_0. Index 0 holds the chance
 * that the Collapse Point is unavailable: k_0 = 0 (acc(L0) = 0), or no baseline or no tested level.
 */
export function collapsePointDistribution(
  curve: readonly number[],
  cells: readonly number[],
  ratio = 0.8,
): Float64Array {
  const levels = curve.length;
  if (cells.length !== levels) throw new RangeError('one cell count per level of the curve is needed');
  const out = new Float64Array(levels + 1);
  const n0 = cells[0] as number;
  const tested = cells.flatMap((n, i) => (i > 0 && n > 0 ? [i] : []));
  if (n0 === 0 || tested.length === 0) {
    out[0] = 1;
    return out;
  }
  const cumulative = tested.map((i) => {
    const n = cells[i] as number;
    const pmf = binomialPmfs(n, curve[i] as number);
    for (let k = 1; k <= n; k++) pmf[k] = (pmf[k - 1] as number) + (pmf[k] as number);
    return pmf;
  });
  // below[t]: how many counts k of tested level t collapse, 0..below-1; it grows with k_0.
  const below = tested.map(() => 0);
  const base = binomialPmfs(n0, curve[0] as number);
  out[0] = base[0] as number;
  for (let k0 = 1; k0 <= n0; k0++) {
    const acc0 = k0 / n0;
    const w = base[k0] as number;
    let standing = w;
    tested.forEach((i, t) => {
      const n = cells[i] as number;
      let b = below[t] as number;
      while (b <= n && collapses(b / n, acc0, ratio)) b++;
      below[t] = b;
      if (w === 0) return;
      const c = b === 0 ? 0 : Math.min(1, (cumulative[t] as Float64Array)[b - 1] as number);
      out[i] = (out[i] as number) + standing * c;
      standing *= 1 - c;
    });
    out[levels] = (out[levels] as number) + standing;
  }
  return out;
}

/**
 * Power to see a Collapse Point shift: the chance that model A's estimated Collapse Point comes
 * out earlier than model B's when both are asked the same cells (`cells[i]` at level i, index 0
 * the baseline) and their true accuracy curves (acc(L0), acc(L1), ...) say A collapses first:
 * sum_j P(CP_A = j) P(CP_B later than j or never), exact (collapsePointDistribution); an
 * unavailable Collapse Point of either is no shift seen. The two models' counts are taken as
 * independent, and so are the cells of one seed (docs/plan.md#collapse).
 */
export function collapseShiftPower(
  curveA: readonly number[],
  curveB: readonly number[],
  cells: readonly number[],
  ratio = 0.8,
): number {
  if (curveA.length !== curveB.length || curveA.length < 2)
    throw new RangeError('the two accuracy curves need the same levels, the baseline and at least one more');
  for (const p of [...curveA, ...curveB]) proportion('an accuracy', p);
  const a = collapsePointDistribution(curveA, cells, ratio);
  const b = collapsePointDistribution(curveB, cells, ratio);
  let power = 0;
  let laterB = 1 - (b[0] as number);
  for (let j = 1; j < a.length; j++) {
    laterB -= b[j] as number;
    power += (a[j] as number) * Math.max(0, laterB);
  }
  return Math.min(1, power);
}
