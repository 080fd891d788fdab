import { comparedPairs } from '../check/compare.js';
import type { CheckProtocol } from '../check/types.js';
import type { WaverConfig } from '../config/schema.js';
import type { PairedCluster } from '../stats/power.js';
import type { Store } from '../store/store.js';

/**
 * The rates of a pilot run, or of a finished one, from a store (docs/plan.md#pilot): two models'
 * paired answers as `waver check --compare` pairs them (a protocol's `compare`), giving each
 * model's accuracy, the share of discordant pairs, the pairs' count and, grouped by cluster (an
 * item, a seed), the items SAA's simulation draws from.
 */

export interface Pilot {
  protocol: string;
  suite: string;
  base: string;
  new: string;
  pairs: number;
  clusters: PairedCluster[];
  p1: number;
  p2: number;
  discordance: number;
}

export function pilotOf(
  store: Store,
  opts: {
    config: WaverConfig;
    protocols: readonly CheckProtocol[];
    base: string;
    new: string;
    protocol?: string;
  },
): Pilot | undefined {
  const found = comparedPairs(store, opts);
  const pairs = found.pairs;
  if (pairs.length === 0) return undefined;
  const byCluster = new Map<string, { a: boolean[]; b: boolean[] }>();
  for (const p of pairs) {
    const c = byCluster.get(p.cluster) ?? { a: [], b: [] };
    c.a.push(p.base);
    c.b.push(p.new);
    byCluster.set(p.cluster, c);
  }
  const share = (f: (p: (typeof pairs)[number]) => boolean) => pairs.filter(f).length / pairs.length;
  return {
    protocol: found.protocol.protocol,
    suite: found.suite.hash,
    base: found.base.label,
    new: found.new.label,
    pairs: pairs.length,
    clusters: [...byCluster.values()],
    p1: share((p) => p.base),
    p2: share((p) => p.new),
    discordance: share((p) => p.base !== p.new),
  };
}
