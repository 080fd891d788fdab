import { PyRandom } from '../util/random.js';
import { percentile } from './bootstrap.js';

/**
 * Where the variance of a binary outcome comes from, on a crossed design: items x the levels of
 * each factor (template, option order, ...), each cell asked the same number of times. Random
 * effects for item, each factor and the listed two-way interactions (a factor with another or with
 * 'item'); the interactions not listed are pooled into the cell-level `residual`; when cells are
 * asked more than once, the spread of the repeats within a cell is the `repeat` component.
 *
 * Estimator: the random-effects ANOVA (method of moments) of a balanced design: sums of squares of
 * the marginal means, each term's expected mean square sum_{C containing it} k_C sigma2_C with
 * k_C = N / (levels of C's factors multiplied), solved from the interactions down; a negative
 * solution is reported as 0 (the others are computed from the unclipped values, as the ANOVA
 * method does). On the probability scale, so the components add up to the outcome's variance.
 * Why this and not a mixed model, with the checks: docs/spread.md#estimators (E55).
 * Intervals: percentile cluster bootstrap over items (items resampled with the draws of
 * `clusterBootstrap`, a drawn-twice item counting as two), 95%.
 *
 * Only complete items enter (every combination of the factors' levels, each asked the same number
 * of times); the result says how many were kept and dropped.
 */
export interface VarianceCell {
  item: string;
  factors: Record<string, string>;
  correct: number;
}

export interface VarianceComponent {
  component: string;
  variance: number;
  share: number;
  lo: number;
  hi: number;
}

export type VarianceComponents = VarianceComponent[] & {
  itemsUsed: number;
  itemsDropped: number;
  repeats: number;
};

export interface VarianceComponentOptions {
  factors: string[];
  interactions?: Array<[string, string]>;
  bootstrap: number;
  seed: number;
}

export function varianceComponents(
  cells: readonly VarianceCell[],
  opts: VarianceComponentOptions,
): VarianceComponents {
  const design = balancedDesign(cells, opts);
  const terms = modelTerms(opts);
  const point = anova(design, terms, identity(design.items.length));
  const rng = new PyRandom(opts.seed);
  const draws: number[][] = point.map(() => []);
  const n = design.items.length;
  const picked = new Array<number>(n);
  for (let b = 0; b < opts.bootstrap; b++) {
    for (let i = 0; i < n; i++) picked[i] = Math.floor(rng.random() * n);
    for (const [k, c] of anova(design, terms, picked).entries()) draws[k]?.push(Math.max(0, c.variance));
  }
  const total = point.reduce((s, c) => s + Math.max(0, c.variance), 0);
  const rows = point.map((c, k) => {
    const variance = Math.max(0, c.variance);
    const sorted = Float64Array.from(draws[k] ?? []).sort();
    return {
      component: c.component,
      variance,
      share: total > 0 ? variance / total : Number.NaN,
      lo: sorted.length > 0 ? percentile(sorted, 0.025) : Number.NaN,
      hi: sorted.length > 0 ? percentile(sorted, 0.975) : Number.NaN,
    };
  });
  return Object.assign(rows, {
    itemsUsed: n,
    itemsDropped: design.itemsDropped,
    repeats: design.repeats,
  });
}

function identity(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}

/** A model term: 'item', a factor, or a pair of them; `names` index into ['item', ...factors]. */
interface Term {
  component: string;
  dims: number[];
}

function modelTerms(opts: VarianceComponentOptions): Term[] {
  const names = ['item', ...opts.factors];
  const terms: Term[] = names.map((name, d) => ({ component: name, dims: [d] }));
  for (const [a, b] of opts.interactions ?? []) {
    const da = names.indexOf(a);
    const db = names.indexOf(b);
    if (da < 0 || db < 0 || da === db) {
      throw new RangeError(`varianceComponents: interaction ${a}×${b} must name two of ${names.join(', ')}`);
    }
    terms.push({ component: `${a}×${b}`, dims: [da, db] });
  }
  return terms;
}

interface BalancedDesign {
  /** Per kept item: the mean of each combination of factor levels (mixed radix over `levels`). */
  items: Float64Array[];
  /** Per kept item: the sum of squared deviations of its repeats from their cell means. */
  withinSS: Float64Array;
  levels: number[];
  repeats: number;
  itemsDropped: number;
}

function balancedDesign(cells: readonly VarianceCell[], opts: VarianceComponentOptions): BalancedDesign {
  const levelIds = opts.factors.map(() => new Map<string, number>());
  const byItem = new Map<string, Map<number, number[]>>();
  cells.forEach((cell, k) => {
    if (!(cell.correct >= 0 && cell.correct <= 1)) {
      throw new RangeError(
        `varianceComponents: cell ${k} (item ${cell.item}): correct ${cell.correct} is not in [0, 1]`,
      );
    }
    const levels = opts.factors.map((f, d) => {
      const v = cell.factors[f];
      if (v === undefined)
        throw new RangeError(`varianceComponents: cell ${k} (item ${cell.item}) has no factor '${f}'`);
      const ids = levelIds[d] as Map<string, number>;
      if (!ids.has(v)) ids.set(v, ids.size);
      return ids.get(v) as number;
    });
    const key = levels.reduce((acc, l) => acc * 1_000_003 + l, 0);
    const combos = byItem.get(cell.item) ?? new Map<number, number[]>();
    byItem.set(cell.item, combos);
    const list = combos.get(key) ?? [];
    list.push(cell.correct);
    combos.set(key, list);
  });
  const levels = levelIds.map((m) => m.size);
  return keepComplete(byItem, levels, opts.factors);
}

/** Items with every combination asked the most common number of times; the others dropped. */
function keepComplete(
  byItem: Map<string, Map<number, number[]>>,
  levels: number[],
  factors: string[],
): BalancedDesign {
  const nCombos = levels.reduce((a, b) => a * b, 1);
  const keys = comboKeys(levels);
  const uniformCount = (combos: Map<number, number[]>): number | undefined => {
    if (combos.size !== nCombos) return undefined;
    const r = combos.get(keys[0] as number)?.length;
    return keys.every((k) => combos.get(k)?.length === r) ? r : undefined;
  };
  const tally = new Map<number, number>();
  for (const combos of byItem.values()) {
    const r = uniformCount(combos);
    if (r !== undefined) tally.set(r, (tally.get(r) ?? 0) + 1);
  }
  const repeats = [...tally.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]?.[0];
  if (repeats === undefined) {
    throw new RangeError(
      `varianceComponents: no item has every combination of ${factors.join(', ') || 'its cells'} asked the same number of times`,
    );
  }
  const items: Float64Array[] = [];
  const within: number[] = [];
  for (const combos of byItem.values()) {
    if (uniformCount(combos) !== repeats) continue;
    const means = new Float64Array(nCombos);
    let ss = 0;
    keys.forEach((key, c) => {
      const ys = combos.get(key) as number[];
      const m = ys.reduce((a, b) => a + b, 0) / ys.length;
      means[c] = m;
      for (const y of ys) ss += (y - m) ** 2;
    });
    items.push(means);
    within.push(ss);
  }
  if (items.length < 2)
    throw new RangeError(`varianceComponents: needs at least 2 complete items, got ${items.length}`);
  return {
    items,
    withinSS: Float64Array.from(within),
    levels,
    repeats,
    itemsDropped: byItem.size - items.length,
  };
}

/** The map keys of every level combination, in mixed-radix order (last factor fastest). */
function comboKeys(levels: number[]): number[] {
  let keys = [0];
  for (const l of levels) keys = keys.flatMap((k) => Array.from({ length: l }, (_, v) => k * 1_000_003 + v));
  return keys;
}

/** Unclipped ANOVA estimates for the items at `picked` (indices into design.items, repeats allowed). */
function anova(
  design: BalancedDesign,
  terms: Term[],
  picked: readonly number[],
): Array<{ component: string; variance: number }> {
  const nI = picked.length;
  const sizes = [nI, ...design.levels];
  const nCombos = design.levels.reduce((a, b) => a * b, 1);
  const r = design.repeats;
  const N = nI * nCombos * r;
  const coords = comboCoordinates(design.levels);
  let grand = 0;
  let withinSS = 0;
  for (const i of picked) {
    grand += (design.items[i] as Float64Array).reduce((a, b) => a + b, 0);
    withinSS += design.withinSS[i] as number;
  }
  grand /= nI * nCombos;
  // Marginal means of every term: sums over cells (each cell mean weighs r observations equally).
  const marginal = (dims: number[]) => {
    const shape = dims.map((d) => sizes[d] as number);
    const sums = new Float64Array(shape.reduce((a, b) => a * b, 1));
    // Indexed in place (no array per cell and resample: the bootstrap runs this ~10^6 times).
    picked.forEach((i, pos) => {
      const means = design.items[i] as Float64Array;
      for (let c = 0; c < nCombos; c++) {
        const combo = coords[c] as number[];
        let idx = 0;
        for (let k = 0; k < dims.length; k++) {
          const d = dims[k] as number;
          idx = idx * (shape[k] as number) + (d === 0 ? pos : (combo[d - 1] as number));
        }
        sums[idx] = (sums[idx] as number) + (means[c] as number);
      }
    });
    const per = (nI * nCombos) / sums.length;
    return { shape, means: sums.map((s) => s / per) };
  };
  const mains = sizes.map((_, d) => marginal([d]).means);
  const ss: number[] = [];
  const df: number[] = [];
  for (const term of terms) {
    if (term.dims.length === 1) {
      const d = term.dims[0] as number;
      const m = mains[d] as Float64Array;
      ss.push((N / m.length) * m.reduce((a, v) => a + (v - grand) ** 2, 0));
      df.push(m.length - 1);
    } else {
      const [a, b] = term.dims as [number, number];
      const { shape, means } = marginal([a, b]);
      const [la, lb] = shape as [number, number];
      let s = 0;
      for (let x = 0; x < la; x++)
        for (let z = 0; z < lb; z++) {
          const dev =
            (means[x * lb + z] as number) -
            ((mains[a] as Float64Array)[x] as number) -
            ((mains[b] as Float64Array)[z] as number) +
            grand;
          s += dev * dev;
        }
      ss.push((N / (la * lb)) * s);
      df.push((la - 1) * (lb - 1));
    }
  }
  let totalSS = withinSS;
  for (const i of picked) for (const m of design.items[i] as Float64Array) totalSS += r * (m - grand) ** 2;
  const resDf = nI * nCombos - 1 - df.reduce((a, b) => a + b, 0);
  if (resDf < 1)
    throw new RangeError('varianceComponents: the listed terms leave no degrees of freedom for the residual');
  const msRes = (totalSS - withinSS - ss.reduce((a, b) => a + b, 0)) / resDf;
  const repeatVar = r > 1 ? withinSS / (nI * nCombos * (r - 1)) : 0;
  return solveExpectedMeanSquares(terms, ss, df, sizes, N, msRes, repeatVar, r);
}

/** E[MS_T] = E[MS_residual] + sum over model terms C containing T of k_C sigma2_C; highest order first. */
function solveExpectedMeanSquares(
  terms: Term[],
  ss: number[],
  df: number[],
  sizes: number[],
  N: number,
  msRes: number,
  repeatVar: number,
  r: number,
): Array<{ component: string; variance: number }> {
  const k = (t: Term) => N / t.dims.reduce((a, d) => a * (sizes[d] as number), 1);
  const variance = new Array<number>(terms.length).fill(0);
  const order = terms
    .map((_, i) => i)
    .sort((a, b) => (terms[b] as Term).dims.length - (terms[a] as Term).dims.length);
  for (const i of order) {
    const t = terms[i] as Term;
    let higher = 0;
    terms.forEach((u, j) => {
      if (u.dims.length > t.dims.length && t.dims.every((d) => u.dims.includes(d)))
        higher += k(u) * (variance[j] as number);
    });
    variance[i] = ((ss[i] as number) / (df[i] as number) - msRes - higher) / k(t);
  }
  const out = terms.map((t, i) => ({ component: t.component, variance: variance[i] as number }));
  if (r > 1) out.push({ component: 'repeat', variance: repeatVar });
  out.push({ component: 'residual', variance: r > 1 ? (msRes - repeatVar) / r : msRes });
  return out;
}

function comboCoordinates(levels: number[]): number[][] {
  let coords: number[][] = [[]];
  for (const l of levels) coords = coords.flatMap((c) => Array.from({ length: l }, (_, v) => [...c, v]));
  return coords;
}
