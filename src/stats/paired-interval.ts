import { normalQuantile } from './normal.js';
import { wilsonInterval } from './wilson.js';

/**
 * The interval of a paired difference of accuracies, new - base, without resampling
 * (docs/decisions.md E47): Newcombe's square-and-add (hybrid score) interval for paired
 * proportions (Newcombe 1998, Stat Med 17:2635, method 10, with the continuity-corrected
 * correlation of Fagerland, Lydersen & Laake 2014's "Newcombe square-and-add"), on the 2x2 table
 * divided by the design effect of the clusters (Rao & Scott 1992): pairs that share a seed or an
 * item count as fewer independent pairs. It depends on the data alone, so a gate that reads it
 * gives the same verdict at every `--seed`.
 */

/** Rows base right/wrong, columns new right/wrong; counts may be fractional (effective counts). */
export interface PairedTable {
  a: number;
  b: number;
  c: number;
  d: number;
}

/** new - base with Newcombe's interval at `confidence`; undefined ends when the table is empty. */
export function newcombePairedInterval(
  t: PairedTable,
  confidence: number,
): { low: number; high: number } | undefined {
  const n = t.a + t.b + t.c + t.d;
  if (!(n > 0)) return undefined;
  const z = normalQuantile(1 - (1 - confidence) / 2);
  const base = t.a + t.b;
  const next = t.a + t.c;
  const p1 = base / n;
  const p2 = next / n;
  const w1 = wilsonInterval(base, n, z) as { low: number; high: number };
  const w2 = wilsonInterval(next, n, z) as { low: number; high: number };
  const psi = correlation(t, n);
  const theta = p2 - p1;
  const down = [p2 - w2.low, w1.high - p1] as const;
  const up = [w2.high - p2, p1 - w1.low] as const;
  const spread = ([x, y]: readonly [number, number]) =>
    Math.sqrt(Math.max(0, x * x + y * y - 2 * psi * x * y));
  return { low: Math.max(-1, theta - spread(down)), high: Math.min(1, theta + spread(up)) };
}

/**
 * The correlation of the two margins with Newcombe's continuity correction: a positive ad - bc
 * is reduced by n/2 (to 0 at most), a negative one is kept; 0 when a margin is empty.
 */
function correlation(t: PairedTable, n: number): number {
  const product = (t.a + t.b) * (t.c + t.d) * (t.a + t.c) * (t.b + t.d);
  if (product === 0) return 0;
  const cross = t.a * t.d - t.b * t.c;
  const corrected = cross > n / 2 ? cross - n / 2 : Math.min(cross, 0);
  return corrected / Math.sqrt(product);
}

/**
 * The design effect of the paired difference (c - b) / n over clusters: the cluster-robust
 * (ratio-estimator, Obuchowski 1998) variance over the variance as if every pair were
 * independent, both with the small-sample factor of their unit count, so clusters of one pair
 * give exactly 1. At least 1: a negative intra-cluster correlation does not narrow the interval.
 * `clusters` holds each cluster's [pairs, b, c].
 */
export function pairedDesignEffect(clusters: readonly (readonly [number, number, number])[]): number {
  let n = 0;
  let net = 0;
  let discordant = 0;
  for (const [pairs, b, c] of clusters) {
    n += pairs;
    net += c - b;
    discordant += b + c;
  }
  const k = clusters.length;
  // One pair per cluster (or too few to estimate): the pairs are the units, nothing to adjust.
  if (n < 2 || k < 2 || k === n) return 1;
  const d = net / n;
  let clustered = 0;
  for (const [pairs, b, c] of clusters) clustered += (c - b - d * pairs) ** 2;
  const varClustered = (k / (k - 1)) * (clustered / (n * n));
  const varIndependent = (discordant - n * d * d) / (n * (n - 1));
  return varIndependent > 0 ? Math.max(1, varClustered / varIndependent) : 1;
}
