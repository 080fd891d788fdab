import { clusterBootstrap } from './bootstrap.js';

/**
 * Agreement between raters who label the same items on one scale (docs/judges.md#agreement).
 * A label is a category index 0..k-1 in the scale's order; `undefined` is a missing label. Every
 * statistic is undefined, never 0, when it cannot be computed (no item both raters labelled, or
 * no variation to agree beyond chance on).
 */

export type Label = number | undefined;

/** How disagreement between two categories is weighed: nominal (all alike), ordinal (by rank), interval. */
export type Metric = 'nominal' | 'ordinal' | 'interval';

/** The items both raters labelled, as pairs. */
function pairsOf(a: readonly Label[], b: readonly Label[]): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (x !== undefined && y !== undefined) out.push([x, y]);
  }
  return out;
}

/** counts[i][j]: items rater a labelled i and rater b labelled j (items both labelled). */
export function confusionMatrix(a: readonly Label[], b: readonly Label[], k: number): number[][] {
  const m = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  for (const [x, y] of pairsOf(a, b)) (m[x] as number[])[y] = ((m[x] as number[])[y] as number) + 1;
  return m;
}

/** The share of items both labelled on which they gave the same label. */
export function rawAgreement(a: readonly Label[], b: readonly Label[]): number | undefined {
  const pairs = pairsOf(a, b);
  if (pairs.length === 0) return undefined;
  return pairs.filter(([x, y]) => x === y).length / pairs.length;
}

/** Kappa's disagreement weights: unweighted, |i - j| / (k - 1), or ((i - j) / (k - 1))^2, by rank. */
export const KAPPA_WEIGHTS = ['none', 'linear', 'quadratic'] as const;
export type KappaWeights = (typeof KAPPA_WEIGHTS)[number];

/**
 * Cohen's kappa over the items both labelled: 1 - sum(w * observed) / sum(w * expected), with
 * disagreement weights w = [i != j] (unweighted), |i - j| / (k - 1) (linear) or
 * ((i - j) / (k - 1))^2 (quadratic) on the labels' ranks 0..k-1, the
 * expected counts from the two raters' marginals (Cohen 1960, 1968; scikit-learn's
 * `cohen_kappa_score`). Undefined with no pairs or when chance disagreement is 0 (both raters
 * used one and the same label throughout).
 */
export function cohenKappa(
  a: readonly Label[],
  b: readonly Label[],
  k: number,
  weights: KappaWeights = 'none',
): number | undefined {
  const pairs = pairsOf(a, b);
  if (pairs.length === 0 || k < 2) return undefined;
  return kappaOfMatrix(confusionMatrix(a, b, k), weights);
}

function kappaOfMatrix(m: readonly (readonly number[])[], weights: KappaWeights): number | undefined {
  const k = m.length;
  const n = m.reduce((s, row) => s + row.reduce((t, v) => t + v, 0), 0);
  if (n === 0) return undefined;
  const rows = m.map((row) => row.reduce((t, v) => t + v, 0));
  const cols = Array.from({ length: k }, (_, j) => m.reduce((t, row) => t + (row[j] as number), 0));
  let observed = 0;
  let expected = 0;
  for (let i = 0; i < k; i++)
    for (let j = 0; j < k; j++) {
      const w =
        weights === 'quadratic'
          ? ((i - j) / (k - 1)) ** 2
          : weights === 'linear'
            ? Math.abs(i - j) / (k - 1)
            : i === j
              ? 0
              : 1;
      observed += w * ((m[i] as number[])[j] as number);
      expected += (w * (rows[i] as number) * (cols[j] as number)) / n;
    }
  return expected === 0 ? undefined : 1 - observed / expected;
}

/**
 * Krippendorff's alpha from its coincidence-matrix definition (Krippendorff 2011, "Computing
 * Krippendorff's alpha-reliability"): `units[u][r]` is rater r's label of item u or undefined.
 * Items with fewer than two labels are not pairable and left out; each pairable item adds
 * 1/(m_u - 1) to o[c][k] for every ordered pair of its labels from different raters.
 * alpha = 1 - (n - 1) * sum(o * delta^2) / sum(n_c * n_k * delta^2), with delta^2 nominal
 * ([c != k]), ordinal ((sum of n_g for g from c to k) - (n_c + n_k) / 2)^2, or interval ((c - k)^2).
 * Undefined without pairable values or when every value is the same (no expected disagreement).
 */
export function krippendorffAlpha(
  units: readonly (readonly Label[])[],
  k: number,
  metric: Metric = 'nominal',
): number | undefined {
  const o = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  for (const unit of units) {
    const values = unit.filter((v): v is number => v !== undefined);
    const m = values.length;
    if (m < 2) continue;
    for (let i = 0; i < m; i++)
      for (let j = 0; j < m; j++) {
        if (i === j) continue;
        const row = o[values[i] as number] as number[];
        row[values[j] as number] = (row[values[j] as number] as number) + 1 / (m - 1);
      }
  }
  const nc = o.map((row) => row.reduce((s, v) => s + v, 0));
  const n = nc.reduce((s, v) => s + v, 0);
  if (n <= 1) return undefined;
  const delta2 = (c: number, g: number): number => {
    if (metric === 'nominal') return c === g ? 0 : 1;
    if (metric === 'interval') return (c - g) ** 2;
    const [lo, hi] = c < g ? [c, g] : [g, c];
    let between = 0;
    for (let h = lo; h <= hi; h++) between += nc[h] as number;
    return (between - ((nc[c] as number) + (nc[g] as number)) / 2) ** 2;
  };
  let observed = 0;
  let expected = 0;
  for (let c = 0; c < k; c++)
    for (let g = 0; g < k; g++) {
      const d = delta2(c, g);
      observed += ((o[c] as number[])[g] as number) * d;
      expected += (nc[c] as number) * (nc[g] as number) * d;
    }
  if (expected === 0) return undefined;
  return 1 - ((n - 1) * observed) / expected;
}

export interface Interval {
  value: number | undefined;
  low: number | undefined;
  high: number | undefined;
  /** Resamples drawn, and those whose statistic was undefined (dropped from the interval). */
  resamples: number;
  undefinedResamples: number;
  /** Why there is no value. */
  unavailable?: string;
}

export interface IntervalOptions {
  seed: number;
  resamples?: number;
  confidence?: number;
  /** Why the statistic is undefined on the items when it is (e.g. no chance disagreement). */
  undefinedBecause?: string;
}

/** The resamples an agreement interval draws by default: enough that its ends move by well under 0.01 between seeds. */
export const AGREEMENT_RESAMPLES = 10_000;

/**
 * A statistic of items with a percentile interval from resampling the items (their labels move
 * together): the CIs of docs/judges.md#agreement.
 */
export function overItems<T>(
  items: readonly T[],
  statistic: (sample: readonly T[]) => number | undefined,
  opts: IntervalOptions,
): Interval {
  if (items.length === 0)
    return {
      value: undefined,
      low: undefined,
      high: undefined,
      resamples: 0,
      undefinedResamples: 0,
      unavailable: 'no item both raters labelled',
    };
  const r = clusterBootstrap(items, statistic, {
    seed: opts.seed,
    resamples: opts.resamples ?? AGREEMENT_RESAMPLES,
    confidence: opts.confidence ?? 0.95,
  });
  return {
    value: r.estimate,
    low: r.low,
    high: r.high,
    resamples: r.resamples,
    undefinedResamples: r.undefinedResamples,
    ...(r.estimate === undefined && {
      unavailable: opts.undefinedBecause ?? 'not computable on these items',
    }),
  };
}
