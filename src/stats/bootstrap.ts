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
