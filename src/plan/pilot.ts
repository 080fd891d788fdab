import { comparedPairs } from '../check/compare.js';
import type { CheckProtocol } from '../check/types.js';
import type { WaverConfig } from '../config/schema.js';
import type { PairedObservation } from '../stats/paired.js';
import type { Store } from '../store/store.js';

/**
 * The rates of a pilot run, or of a finished one, from a store (docs/plan.md#pilot): two models'
 * paired answers as `waver check --compare` pairs them (a protocol's `compare`), giving each
 * model's accuracy, the share of discordant pairs, the pairs' count, the design effect of their
 * clusters (an item, a seed) and each cluster's SAA (every cell of it right) for the saa design.
 */

export interface Pilot {
  protocol: string;
  suite: string;
  base: string;
  new: string;
  pairs: number;
  /** What a cluster is: `seed`, `item`. */
  cluster: string;
  clusters: number;
  /** The family whose pairs were read; absent: all pairs. */
  family?: string;
  /** Per cluster: whether every cell of it is right, under each model. */
  items: { a: boolean; b: boolean }[];
  p1: number;
  p2: number;
  discordance: number;
  /** Of the paired difference new - base; at least 1 (docs/plan.md#pilot). */
  designEffect: number;
  /** The design effect as measured, before the floor at 1; undefined when every pair agrees. */
  measuredDesignEffect: number | undefined;
  /**
   * Of one model's accuracy over the clusters, the larger of the two models' (at least 1): what an
   * unpaired design's items carry.
   */
  armDesignEffect: number;
  /** The `check --compare --metric` the pairs are read as: `accuracy`, or a protocol's (`saa`: one pair per item). */
  metric: string;
}

export function pilotOf(
  store: Store,
  opts: {
    config: WaverConfig;
    protocols: readonly CheckProtocol[];
    base: string;
    new: string;
    protocol?: string;
    /** Only the pairs of this family (a ladder family), as check --compare's per-family test takes them. */
    family?: string;
    /** Pairs as `check --compare --metric` reads them (a design's own metric, `saa`); cells by default. */
    metric?: string;
  },
): Pilot | undefined {
  const found = comparedPairs(store, opts);
  const pairs = opts.family === undefined ? found.pairs : found.pairs.filter((p) => p.family === opts.family);
  if (pairs.length === 0) return undefined;
  const byCluster = new Map<string, PairedObservation[]>();
  for (const p of pairs) byCluster.set(p.cluster, [...(byCluster.get(p.cluster) ?? []), p]);
  const share = (f: (p: PairedObservation) => boolean) => pairs.filter(f).length / pairs.length;
  const clusters = [...byCluster.values()];
  const measured = pairedDesignEffect(clusters);
  const arm = (f: (p: PairedObservation) => boolean) =>
    clusterDesignEffect(clusters, (p) => Number(f(p))) ?? 1;
  return {
    protocol: found.protocol.protocol,
    suite: found.suite.hash,
    base: found.base.label,
    new: found.new.label,
    pairs: pairs.length,
    cluster: found.unit.cluster,
    clusters: byCluster.size,
    ...(opts.family !== undefined && { family: opts.family }),
    items: clusters.map((c) => ({ a: c.every((p) => p.base), b: c.every((p) => p.new) })),
    p1: share((p) => p.base),
    p2: share((p) => p.new),
    discordance: share((p) => p.base !== p.new),
    designEffect: Math.max(1, measured ?? 1),
    measuredDesignEffect: measured,
    armDesignEffect: Math.max(
      1,
      arm((p) => p.base),
      arm((p) => p.new),
    ),
    metric: found.metric,
  };
}

/**
 * The design effect of the mean paired difference d = new - base (in {-1, 0, 1}) over clusters:
 * the variance of the ratio estimator sum D_c / sum n_c with clusters drawn with replacement,
 * K / (K - 1) sum_c (D_c - dbar n_c)^2 / N^2, over the variance as if the N pairs were independent,
 * s^2 / N (s^2 the pairs' sample variance). Undefined when s^2 = 0 or there is one cluster.
 */
export function pairedDesignEffect(clusters: readonly (readonly PairedObservation[])[]): number | undefined {
  return clusterDesignEffect(clusters, (p) => Number(p.new) - Number(p.base));
}

/** The same for any per-pair value d: one model's correctness (0 or 1) gives its accuracy's. */
export function clusterDesignEffect(
  clusters: readonly (readonly PairedObservation[])[],
  d: (p: PairedObservation) => number,
): number | undefined {
  const all = clusters.flat();
  const total = all.length;
  const k = clusters.length;
  if (total < 2 || k < 2) return undefined;
  const mean = all.reduce((s, p) => s + d(p), 0) / total;
  const s2 = all.reduce((s, p) => s + (d(p) - mean) ** 2, 0) / (total - 1);
  if (s2 === 0) return undefined;
  const between = clusters.reduce((s, c) => s + (c.reduce((t, p) => t + d(p), 0) - mean * c.length) ** 2, 0);
  const clusteredVariance = ((k / (k - 1)) * between) / total ** 2;
  return clusteredVariance / (s2 / total);
}
