import { percentile } from '../../stats/bootstrap.js';
import { oneSampleTTest } from '../../stats/student-t.js';
import { deriveSeed, PyRandom } from '../../util/random.js';
import { ABLATION_SIZES, AXIS_SCALE, DEFAULT_EPSILONS, SAGO_AXES, type SagoAxis } from './constants.js';

/**
 * SAGO's Stability Generalization Score (see docs/sago.md#sgs). For one model and one axis:
 * Delta(i, v) = X(variant v of prompt i) - X(prompt i), normalised by the axis' scale R;
 * s(i) = RMS of the normalised deltas of prompt i over its variants (missing values ignored);
 * SGS per dataset = mean s(i); the total pools prompts; a one-sided one-sample t-test of
 * H0: E[s] <= eps says whether the instability exceeds a tolerance.
 */

/** A variation as the metrics see it: the paper's (F, u, s, p). */
export interface VariationKey {
  /** Unique within a table (e.g. `noise/spacing/5/prefix`). */
  key: string;
  family: string;
  subtype: string;
  /** A number for graded subtypes; a label for sentence form (`interrogative`). */
  strength: number | string;
  position: string;
}

/**
 * One model's raw deltas: prompts x variations per axis, row-major, NaN where a value is missing
 * (variant filtered out, failed call, detector not applicable). An axis absent from `deltas` is
 * unavailable for the model.
 */
export interface SagoDeltaTable {
  prompts: readonly { dataset: string; id: string }[];
  variations: readonly VariationKey[];
  deltas: Partial<Record<SagoAxis, Float64Array>>;
}

export type SignificanceMarker = '' | '*' | '**' | '†';

/** One t-test on its own; its marker is of the p adjusted over the tables' tests (significance.ts). */
export interface EpsilonTest {
  eps: number;
  t: number;
  df: number;
  p: number;
}

export interface AxisScore {
  /** Prompts with at least one value on this axis. */
  n: number;
  /** Mean s(i); undefined when n = 0. */
  sgs: number | undefined;
  /** Sample standard deviation of s(i) (n - 1); undefined when n < 2. */
  sd: number | undefined;
  /** Normalised deltas that went into it. */
  values: number;
  /** One per eps; empty when n < 2 (no test) — `untested` says why. */
  tests: EpsilonTest[];
  untested?: string;
}

export interface ScopeScores {
  /** A dataset name, or `total` for all prompts pooled. */
  scope: string;
  prompts: number;
  axes: Partial<Record<SagoAxis, AxisScore>>;
}

export interface SgsOptions {
  epsilons?: readonly number[];
}

/** Per-dataset and total SGS with tests, for every axis the table has. */
export function sagoScores(table: SagoDeltaTable, opts: SgsOptions = {}): ScopeScores[] {
  const epsilons = opts.epsilons ?? DEFAULT_EPSILONS;
  const perAxis = new Map<SagoAxis, Float64Array>();
  for (const axis of SAGO_AXES) {
    const deltas = table.deltas[axis];
    if (deltas) perAxis.set(axis, perPromptInstability(table, axis, deltas));
  }
  const datasets = [...new Set(table.prompts.map((p) => p.dataset))];
  const scopes: { scope: string; rows: number[] }[] = datasets.map((d) => ({
    scope: d,
    rows: table.prompts.flatMap((p, i) => (p.dataset === d ? [i] : [])),
  }));
  scopes.push({ scope: 'total', rows: table.prompts.map((_, i) => i) });
  return scopes.map(({ scope, rows }) => {
    const axes: Partial<Record<SagoAxis, AxisScore>> = {};
    for (const [axis, s] of perAxis) {
      const xs = rows.map((r) => s[r] as number).filter((x) => !Number.isNaN(x));
      const counts = table.deltas[axis] as Float64Array;
      let values = 0;
      const V = table.variations.length;
      for (const r of rows)
        for (let v = 0; v < V; v++) if (!Number.isNaN(counts[r * V + v] as number)) values++;
      axes[axis] = scoreOf(xs, values, epsilons);
    }
    return { scope, prompts: rows.length, axes };
  });
}

/** s(i) for every prompt: RMS of Delta/R over the prompt's variants with a value; NaN when none. */
export function perPromptInstability(
  table: SagoDeltaTable,
  axis: SagoAxis,
  deltas: Float64Array,
  columns?: readonly number[],
): Float64Array {
  const P = table.prompts.length;
  const V = table.variations.length;
  const R = AXIS_SCALE[axis];
  const out = new Float64Array(P);
  for (let i = 0; i < P; i++) {
    let sum = 0;
    let n = 0;
    const base = i * V;
    if (columns) {
      for (const v of columns) {
        const d = deltas[base + v] as number;
        if (!Number.isNaN(d)) {
          sum += (d / R) * (d / R);
          n++;
        }
      }
    } else {
      for (let v = 0; v < V; v++) {
        const d = deltas[base + v] as number;
        if (!Number.isNaN(d)) {
          sum += (d / R) * (d / R);
          n++;
        }
      }
    }
    out[i] = n === 0 ? Number.NaN : Math.sqrt(sum / n);
  }
  return out;
}

/** SGS, sd and one-sided t-tests over per-prompt instabilities. */
export function scoreOf(xs: readonly number[], values: number, epsilons: readonly number[]): AxisScore {
  const n = xs.length;
  if (n === 0)
    return { n, sgs: undefined, sd: undefined, values, tests: [], untested: 'no prompt has a value' };
  const mean = xs.reduce((a, b) => a + b, 0) / n;
  const sd = n < 2 ? undefined : Math.sqrt(xs.reduce((a, x) => a + (x - mean) * (x - mean), 0) / (n - 1));
  const tests: EpsilonTest[] = [];
  let untested: string | undefined;
  if (n < 2) untested = 'a t-test needs at least 2 prompts';
  else {
    for (const eps of epsilons) {
      const t = oneSampleTTest(xs, eps, 'greater');
      if (t) tests.push({ eps, t: t.t, df: t.df, p: t.p });
      else untested = `no test at eps ${eps}: every s(i) equals eps`;
    }
  }
  return { n, sgs: mean, sd, values, tests, ...(untested !== undefined ? { untested } : {}) };
}

/** * p < .05, ** p < .01, † p < .001 (the paper's markers). */
export function markerFor(p: number): SignificanceMarker {
  if (p < 0.001) return '†';
  if (p < 0.01) return '**';
  if (p < 0.05) return '*';
  return '';
}

// ---------------------------------------------------------------------------------------------
// Ablations (paper Appendix D and E; see docs/sago.md#ablations)
// ---------------------------------------------------------------------------------------------

export interface SampleSizePoint {
  n: number;
  /** Draws with a defined statistic (a draw where fewer than 2 groups have values has none). */
  draws: number;
  p10?: number;
  p50?: number;
  p90?: number;
  /** P90 - P10. */
  band?: number;
  /** Why there is no value (e.g. N larger than the prompts there are). */
  unavailable?: string;
}

/**
 * Index subsets for the prompt-sample-size ablation: for each N, `draws` samples of N prompt
 * indices without replacement (CPython's `random.Random(seed).sample`). Drawn once per
 * (prompt count, N, seed) and shared by every model and axis, so all see the same subsets.
 */
export function sampleSizeDraws(
  promptCount: number,
  sizes: readonly number[],
  draws: number,
  seed: number,
): Map<number, Uint32Array[]> {
  const out = new Map<number, Uint32Array[]>();
  const population = Array.from({ length: promptCount }, (_, i) => i);
  for (const n of sizes) {
    if (n > promptCount) continue;
    const rng = new PyRandom(deriveSeed(seed, 'sago/ablation/sample-size', promptCount, n));
    const list: Uint32Array[] = [];
    for (let d = 0; d < draws; d++) list.push(Uint32Array.from(rng.sample(population, n)));
    out.set(n, list);
  }
  return out;
}

/**
 * The paper's Appendix D statistic for one axis: for each draw of N prompts, the standard
 * deviation (n - 1) across variation groups (F, u, s, p) of the group's mean |Delta/R| over the
 * drawn prompts; reported as P10 / P50 / P90 over the draws and the band P90 - P10.
 */
export function sampleSizeAblation(
  table: SagoDeltaTable,
  axis: SagoAxis,
  draws: Map<number, Uint32Array[]>,
  sizes: readonly number[] = ABLATION_SIZES,
): SampleSizePoint[] {
  return sampleSizeAblations(table, [axis], draws, sizes)[axis] ?? [];
}

/**
 * `sampleSizeAblation` for several axes at once: one pass over each draw's prompts sums every
 * axis' groups (rows laid out axis after axis), which is what keeps paper-scale runs fast.
 */
export function sampleSizeAblations(
  table: SagoDeltaTable,
  axes: readonly SagoAxis[],
  draws: Map<number, Uint32Array[]>,
  sizes: readonly number[] = ABLATION_SIZES,
): Partial<Record<SagoAxis, SampleSizePoint[]>> {
  const m = ablationMatrix(table, axes);
  const { present, P } = m;
  const scratch = drawScratch(m);
  const out: Partial<Record<SagoAxis, SampleSizePoint[]>> = {};
  for (const axis of present) out[axis] = [];
  for (const n of sizes) {
    const list = draws.get(n);
    if (!list) {
      for (const axis of present) out[axis]?.push({ n, draws: 0, unavailable: `only ${P} prompts` });
      continue;
    }
    const stats = drawStatistics(m, scratch, list, n);
    present.forEach((axis, a) => {
      out[axis]?.push(
        sampleSizePoint(
          n,
          (stats[a] as number[]).sort((x, y) => x - y),
        ),
      );
    });
  }
  return out;
}

/**
 * Every axis' |Delta/R| laid out side by side, row i a prompt: `abs` (missing as 0) and a 0/1
 * `mask` of the values present. Axes with no missing value come first: their counts are the draw
 * size, so the mask is only summed over the columns of axes that have gaps (from `maskFrom` on).
 */
interface AblationMatrix {
  present: SagoAxis[];
  P: number;
  V: number;
  /** Columns of a row: every present axis' V variations. */
  W: number;
  /** The first column of an axis with gaps; -1 when none has one. */
  maskFrom: number;
  abs: Float64Array;
  mask: Float64Array;
  /** Column totals over all prompts: a draw of more than half the prompts is summed as the total minus the prompts left out (fewer rows to add). */
  totalSum: Float64Array;
  totalCount: Float64Array;
}

function ablationMatrix(table: SagoDeltaTable, axes: readonly SagoAxis[]): AblationMatrix {
  const hasGap = (axis: SagoAxis) => (table.deltas[axis] as Float64Array).some((d) => Number.isNaN(d));
  const withData = axes.filter((a) => table.deltas[a] !== undefined);
  const present = [...withData.filter((a) => !hasGap(a)), ...withData.filter(hasGap)];
  const P = table.prompts.length;
  const V = table.variations.length;
  const W = present.length * V;
  const abs = new Float64Array(P * W);
  const mask = new Float64Array(P * W);
  present.forEach((axis, a) => {
    const deltas = table.deltas[axis] as Float64Array;
    const R = AXIS_SCALE[axis];
    for (let i = 0; i < P; i++)
      for (let v = 0; v < V; v++) {
        const d = deltas[i * V + v] as number;
        if (!Number.isNaN(d)) {
          abs[i * W + a * V + v] = Math.abs(d) / R;
          mask[i * W + a * V + v] = 1;
        }
      }
  });
  const all = Uint32Array.from({ length: P }, (_, i) => i);
  const totalSum = new Float64Array(W);
  const totalCount = new Float64Array(W);
  addRows(totalSum, abs, all, P, 0, W, W);
  addRows(totalCount, mask, all, P, 0, W, W);
  return { present, P, V, W, maskFrom: present.findIndex(hasGap) * V, abs, mask, totalSum, totalCount };
}

/** Buffers reused by every draw: a draw's column sums and counts, and its rows left out. */
function drawScratch({ P, W }: AblationMatrix) {
  return {
    sums: new Float64Array(W),
    counts: new Float64Array(W),
    left: new Uint32Array(P),
    chosen: new Uint8Array(P),
  };
}

/** For each draw of n prompts, each axis' sd across variation groups of the groups' mean |Delta/R|. */
function drawStatistics(
  m: AblationMatrix,
  { sums, counts, left, chosen }: ReturnType<typeof drawScratch>,
  list: readonly Uint32Array[],
  n: number,
): number[][] {
  const { P, V, W, maskFrom, abs, mask, totalSum, totalCount } = m;
  const anyMissing = maskFrom >= 0;
  const stats: number[][] = m.present.map(() => []);
  const complement = n > P / 2;
  for (const idx of list) {
    let rows = idx;
    let count = idx.length;
    if (complement) {
      chosen.fill(0);
      for (let j = 0; j < idx.length; j++) chosen[idx[j] as number] = 1;
      count = 0;
      for (let i = 0; i < P; i++) if (chosen[i] === 0) left[count++] = i;
      rows = left;
    }
    sums.fill(0);
    addRows(sums, abs, rows, count, 0, W, W);
    counts.fill(n);
    if (anyMissing) {
      counts.fill(0, maskFrom);
      addRows(counts, mask, rows, count, maskFrom, W, W);
    }
    if (complement) {
      for (let k = 0; k < W; k++) sums[k] = (totalSum[k] as number) - (sums[k] as number);
      if (anyMissing)
        for (let k = maskFrom; k < W; k++) counts[k] = (totalCount[k] as number) - (counts[k] as number);
    }
    for (let a = 0; a < m.present.length; a++) {
      const sd = sdOfMeans(sums.subarray(a * V, a * V + V), counts.subarray(a * V, a * V + V));
      if (sd !== undefined) (stats[a] as number[]).push(sd);
    }
  }
  return stats;
}

/** P10, P50 and P90 of an axis' statistics over the draws (sorted), and the band between. */
function sampleSizePoint(n: number, s: readonly number[]): SampleSizePoint {
  if (s.length === 0) return { n, draws: 0, unavailable: 'fewer than 2 variation groups with values' };
  const p10 = percentile(s, 0.1);
  const p50 = percentile(s, 0.5);
  const p90 = percentile(s, 0.9);
  return { n, draws: s.length, p10, p50, p90, band: p90 - p10 };
}

/**
 * target[k] += sum over the first `count` rows of matrix[row * W + k], for k in [from, to). Four
 * rows per pass: the hot loop of the sample-size ablation (half the time of one row per pass).
 */
function addRows(
  target: Float64Array,
  matrix: Float64Array,
  rows: Uint32Array,
  count: number,
  from: number,
  to: number,
  W: number,
): void {
  let j = 0;
  for (; j + 3 < count; j += 4) {
    const b0 = (rows[j] as number) * W;
    const b1 = (rows[j + 1] as number) * W;
    const b2 = (rows[j + 2] as number) * W;
    const b3 = (rows[j + 3] as number) * W;
    for (let k = from; k < to; k++)
      target[k] =
        (target[k] as number) +
        ((matrix[b0 + k] as number) + (matrix[b1 + k] as number)) +
        ((matrix[b2 + k] as number) + (matrix[b3 + k] as number));
  }
  for (; j < count; j++) {
    const b = (rows[j] as number) * W;
    for (let k = from; k < to; k++) target[k] = (target[k] as number) + (matrix[b + k] as number);
  }
}

/** Sample sd (n - 1) of sums[g] / counts[g] over groups with a count; undefined for fewer than 2. */
function sdOfMeans(sums: Float64Array, counts: Uint32Array | Float64Array): number | undefined {
  let n = 0;
  let mean = 0;
  let m2 = 0;
  for (let g = 0; g < sums.length; g++) {
    const c = counts[g] as number;
    if (c === 0) continue;
    const x = (sums[g] as number) / c;
    n++;
    const d = x - mean;
    mean += d / n;
    m2 += d * (x - mean);
  }
  return n < 2 ? undefined : Math.sqrt(m2 / (n - 1));
}

export interface SliceScore {
  /** The slice: a position, or a strength of one subtype. */
  label: string;
  /** Variations in the slice. */
  variations: number;
  /** SGS restricted to the slice's variations (mean over prompts of the RMS over them). */
  sgs: number | undefined;
  /** Prompts with a value in the slice. */
  n: number;
  /**
   * The paper's Appendix E statistic: sd (n - 1) across the slice's variation groups of each
   * group's mean |Delta/R| over prompts; undefined with fewer than 2 groups.
   */
  groupSd: number | undefined;
}

/** SGS and group-mean sd per position p (groups: (F, u, s) at that p). */
export function positionAblation(table: SagoDeltaTable, axis: SagoAxis): SliceScore[] {
  const positions = [...new Set(table.variations.map((v) => v.position))];
  return positions.map((p) =>
    sliceScore(
      table,
      axis,
      p,
      table.variations.flatMap((v, i) => (v.position === p ? [i] : [])),
    ),
  );
}

export interface StrengthAblation {
  family: string;
  subtype: string;
  slices: SliceScore[];
}

/** Per subtype with graded strengths: SGS and group-mean sd per strength (groups: (F, u, p) at that s). */
export function strengthAblation(table: SagoDeltaTable, axis: SagoAxis): StrengthAblation[] {
  const subtypes = new Map<string, { family: string; subtype: string }>();
  for (const v of table.variations)
    if (typeof v.strength === 'number')
      subtypes.set(`${v.family}/${v.subtype}`, { family: v.family, subtype: v.subtype });
  return [...subtypes.values()].map(({ family, subtype }) => {
    const ofSubtype = table.variations
      .map((v, i) => ({ v, i }))
      .filter(({ v }) => v.family === family && v.subtype === subtype);
    const strengths = [...new Set(ofSubtype.map(({ v }) => v.strength as number))].sort((a, b) => a - b);
    return {
      family,
      subtype,
      slices: strengths.map((s) =>
        sliceScore(
          table,
          axis,
          String(s),
          ofSubtype.filter(({ v }) => v.strength === s).map(({ i }) => i),
        ),
      ),
    };
  });
}

function sliceScore(table: SagoDeltaTable, axis: SagoAxis, label: string, columns: number[]): SliceScore {
  const deltas = table.deltas[axis];
  if (!deltas) return { label, variations: columns.length, sgs: undefined, n: 0, groupSd: undefined };
  const s = perPromptInstability(table, axis, deltas, columns);
  const xs = [...s].filter((x) => !Number.isNaN(x));
  const V = table.variations.length;
  const R = AXIS_SCALE[axis];
  const sums = new Float64Array(columns.length);
  const counts = new Float64Array(columns.length);
  for (let i = 0; i < table.prompts.length; i++) {
    columns.forEach((v, g) => {
      const d = deltas[i * V + v] as number;
      if (!Number.isNaN(d)) {
        sums[g] = (sums[g] as number) + Math.abs(d) / R;
        counts[g] = (counts[g] as number) + 1;
      }
    });
  }
  return {
    label,
    variations: columns.length,
    sgs: xs.length === 0 ? undefined : xs.reduce((a, b) => a + b, 0) / xs.length,
    n: xs.length,
    groupSd: sdOfMeans(sums, counts),
  };
}
