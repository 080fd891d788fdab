import { PyRandom } from '../util/random.js';

/**
 * Seeded cluster (item-level) bootstrap with percentile confidence intervals. Clusters are the
 * units resampled with replacement (items, so phrasings and repeats of one item move together),
 * which is what docs/method.md asks for ("cluster bootstrap over items, 2000 resamples, percentile,
 * seeded").
 */

export interface BootstrapResult {
  /** The statistic on the full data (not the bootstrap mean); undefined if it cannot be computed. */
  estimate: number | undefined;
  /** Percentile CI bounds; undefined when no resample gave a defined statistic (or n = 0). */
  low: number | undefined;
  high: number | undefined;
  /** Resamples drawn (0 when there are no clusters). */
  resamples: number;
  /** Resamples whose statistic was undefined (e.g. every drawn item incomplete); excluded from the CI. */
  undefinedResamples: number;
  /** The defined resample statistics, in resample order (unsorted). */
  distribution: number[];
}

export interface BootstrapOptions {
  /** Number of resamples; 2000 by default (docs/method.md). */
  resamples?: number;
  /** Seed for `PyRandom`; the same seed, data and statistic give the same result. */
  seed: number;
  /** Two-sided confidence level in (0, 1); 0.95 by default. */
  confidence?: number;
  /**
   * Optional fast path: the statistic of a resample given the drawn cluster indices (into
   * `clusters`, with repeats), so callers with precomputed per-cluster numbers can avoid building
   * the sample. Must compute the same thing as `statistic`, which is still used for the estimate.
   * The array is reused between calls: read it, do not keep it.
   */
  statisticOnIndices?: (indices: Uint32Array) => number | undefined;
}

/**
 * Resample `clusters` with replacement `resamples` times and return the statistic on the full
 * data with a percentile CI at (1 - c)/2 and 1 - (1 - c)/2 (numpy's linear interpolation).
 *
 * Reproducible outside waver: the indices of each resample, in turn, are those of Python's
 * `rng.choices(range(n), k=n)` for one `rng = random.Random(seed)`.
 *
 * The sample passed to `statistic` during resampling is one array reused between calls (so 2,000
 * resamples do not allocate 2,000 arrays): read it, do not keep a reference to it.
 */
export function clusterBootstrap<C>(
  clusters: readonly C[],
  statistic: (sample: readonly C[]) => number | undefined,
  opts: BootstrapOptions,
): BootstrapResult {
  const resamples = opts.resamples ?? 2000;
  const confidence = opts.confidence ?? 0.95;
  if (!Number.isInteger(resamples) || resamples < 1) {
    throw new RangeError(`bootstrap resamples must be a positive integer, got ${resamples}`);
  }
  if (!(confidence > 0 && confidence < 1)) {
    throw new RangeError(`bootstrap confidence must be in (0, 1), got ${confidence}`);
  }
  const estimate = definedOrUndefined(statistic(clusters));
  const n = clusters.length;
  if (n === 0) {
    return {
      estimate,
      low: undefined,
      high: undefined,
      resamples: 0,
      undefinedResamples: 0,
      distribution: [],
    };
  }

  const rng = new PyRandom(opts.seed);
  const indices = new Uint32Array(n);
  const sample: C[] = new Array(n);
  const onIndices = opts.statisticOnIndices;
  const distribution: number[] = [];
  let undefinedResamples = 0;
  for (let b = 0; b < resamples; b++) {
    let value: number | undefined;
    if (onIndices) {
      for (let i = 0; i < n; i++) indices[i] = Math.floor(rng.random() * n);
      value = onIndices(indices);
    } else {
      for (let i = 0; i < n; i++) sample[i] = clusters[Math.floor(rng.random() * n)] as C;
      value = statistic(sample);
    }
    const defined = definedOrUndefined(value);
    if (defined === undefined) undefinedResamples++;
    else distribution.push(defined);
  }

  if (distribution.length === 0) {
    return { estimate, low: undefined, high: undefined, resamples, undefinedResamples, distribution };
  }
  const sorted = Float64Array.from(distribution).sort();
  const alpha = (1 - confidence) / 2;
  return {
    estimate,
    low: percentile(sorted, alpha),
    high: percentile(sorted, 1 - alpha),
    resamples,
    undefinedResamples,
    distribution,
  };
}

/** NaN counts as undefined too: a statistic that divides by zero has no value, not a NaN one. */
function definedOrUndefined(value: number | undefined): number | undefined {
  return value === undefined || Number.isNaN(value) ? undefined : value;
}

/**
 * The q-quantile (q in [0, 1]) of ascending-sorted values by numpy's default ("linear") method:
 * virtual index h = (n - 1) q, interpolated between its neighbours with numpy's `_lerp`, which
 * works from the upper neighbour when the fraction is >= 0.5 (so results match numpy bit for bit).
 */
export function percentile(sortedAscending: ArrayLike<number>, q: number): number {
  const n = sortedAscending.length;
  if (n === 0) throw new RangeError('percentile of an empty array');
  if (!(q >= 0 && q <= 1)) throw new RangeError(`percentile q must be in [0, 1], got ${q}`);
  const h = (n - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, n - 1);
  const gamma = h - lo;
  const a = sortedAscending[lo] as number;
  const b = sortedAscending[hi] as number;
  const diff = b - a;
  return gamma >= 0.5 ? b - diff * (1 - gamma) : a + diff * gamma;
}

/**
 * `percentile` of each q over the defined (not NaN) values, given in any order: the two order
 * statistics each q needs are found by selection, not by sorting every value (a ladder report
 * takes ~1,000 intervals of 2,000 resamples each, and a typed array's sort was a tenth of its
 * metrics' time). The same numbers as `percentile` of the sorted defined values; undefined when
 * none is defined. `values` is left as it was; `scratch`, when given, is used for the work.
 */
export function percentilesOf(
  values: ArrayLike<number>,
  qs: readonly number[],
  scratch?: Float64Array,
): number[] | undefined {
  const work = scratch && scratch.length >= values.length ? scratch : new Float64Array(values.length);
  let n = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number;
    if (!Number.isNaN(v)) work[n++] = v;
  }
  if (n === 0) return undefined;
  return qs.map((q) => {
    if (!(q >= 0 && q <= 1)) throw new RangeError(`percentile q must be in [0, 1], got ${q}`);
    const h = (n - 1) * q;
    const lo = Math.floor(h);
    const hi = Math.min(lo + 1, n - 1);
    const a = select(work, n, lo);
    // After selecting rank lo, everything right of it is >= it: rank lo + 1 is their least.
    let b = a;
    if (hi > lo) {
      b = work[lo + 1] as number;
      for (let i = lo + 2; i < n; i++) if ((work[i] as number) < b) b = work[i] as number;
    }
    const gamma = h - lo;
    const diff = b - a;
    return gamma >= 0.5 ? b - diff * (1 - gamma) : a + diff * gamma;
  });
}

/** The k-th least of a[0..n) (Hoare's selection, median-of-three pivots), a reordered around it. */
function select(a: Float64Array, n: number, k: number): number {
  let left = 0;
  let right = n - 1;
  while (right > left) {
    const mid = (left + right) >>> 1;
    // Median of three as the pivot, so sorted or constant runs do not go quadratic.
    if ((a[mid] as number) < (a[left] as number)) swap(a, mid, left);
    if ((a[right] as number) < (a[left] as number)) swap(a, right, left);
    if ((a[right] as number) < (a[mid] as number)) swap(a, right, mid);
    const pivot = a[mid] as number;
    let i = left;
    let j = right;
    while (i <= j) {
      while ((a[i] as number) < pivot) i++;
      while ((a[j] as number) > pivot) j--;
      if (i <= j) {
        swap(a, i, j);
        i++;
        j--;
      }
    }
    if (k <= j) right = j;
    else if (k >= i) left = i;
    else return a[k] as number;
  }
  return a[k] as number;
}

function swap(a: Float64Array, i: number, j: number): void {
  const t = a[i] as number;
  a[i] = a[j] as number;
  a[j] = t;
}
