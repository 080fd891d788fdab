import type { SuiteFill } from '../check/types.js';
import { PlanInputError } from './common.js';

/**
 * A suite's fill as the ladder designs size from it (docs/plan.md#suite): for one scope (family),
 * how many of the suite's clusters (seeds) have a test at each level and the cells those tests are
 * asked, the reference's (level 0) likewise, and the scope's cells per cluster.
 */

/** One level of a scope: the clusters with a test there, the tests, and their cells (tests x repeats). */
export interface LevelShape {
  clusters: number;
  tests: number;
  cells: number;
}

export interface ScopeShape {
  scope: string;
  /** What a cluster is: `seed`. */
  cluster: string;
  /** Clusters in the suite, with a test of any scope. */
  clusters: number;
  /** Level 0, the reference every scope is measured against. */
  reference: LevelShape;
  /** Each level above 0 where the scope has a test. */
  levels: Map<number, LevelShape>;
  /** The scope's cells in each cluster of the suite, every level and unlevelled tests counted, 0 where it has none. */
  cellsPerCluster: number[];
  /** Every scope of the suite, the reference's too: the families `check --compare` tests one by one. */
  scopes: string[];
}

/** The times a test is asked, where the plan's flags override the suite's config. */
export interface Asked {
  repeats?: number;
  baselineRepeats?: number;
}

/** The scopes with a test above level 0 (the families), in the suite's order. */
export function fillScopes(fill: SuiteFill): string[] {
  return [...new Set(fill.tests.flatMap((t) => (t.level === 0 ? [] : [t.scope])))];
}

export function scopeShape(fill: SuiteFill, family: string | undefined, asked: Asked): ScopeShape {
  const families = fillScopes(fill);
  if (families.length === 0) throw new PlanInputError('the suite has no test above level 0', '--suite');
  if (family !== undefined && !families.includes(family))
    throw new PlanInputError(`the suite has no ${family} tests (it has ${families.join(', ')})`, '--family');
  if (family === undefined && families.length > 1)
    throw new PlanInputError(
      `the suite has ${families.length} families (${families.join(', ')}): choose one with --family`,
      '--family',
    );
  const scope = family ?? (families[0] as string);
  const repeatsOf = (level: number | undefined, own: number) =>
    level === 0 ? (asked.baselineRepeats ?? own) : (asked.repeats ?? own);
  const clusterIndex = new Map<string, number>();
  for (const t of fill.tests)
    if (!clusterIndex.has(t.cluster)) clusterIndex.set(t.cluster, clusterIndex.size);
  const cellsPerCluster = new Array<number>(clusterIndex.size).fill(0);
  const seen = new Map<number, Set<string>>();
  const levels = new Map<number, LevelShape>();
  const reference: LevelShape = { clusters: 0, tests: 0, cells: 0 };
  for (const t of fill.tests) {
    const atReference = t.level === 0;
    if (!atReference && t.scope !== scope) continue;
    const cells = repeatsOf(t.level, t.repeats);
    if (!atReference) {
      const c = clusterIndex.get(t.cluster) as number;
      cellsPerCluster[c] = (cellsPerCluster[c] as number) + cells;
      if (t.level === undefined) continue;
    }
    const level = t.level as number;
    const shape = atReference ? reference : (levels.get(level) ?? { clusters: 0, tests: 0, cells: 0 });
    levels.set(level, shape);
    const clusters = seen.get(level) ?? new Set<string>();
    seen.set(level, clusters);
    clusters.add(t.cluster);
    shape.clusters = clusters.size;
    shape.tests++;
    shape.cells += cells;
  }
  levels.delete(0);
  return {
    scope,
    cluster: fill.cluster,
    clusters: clusterIndex.size,
    reference,
    levels,
    cellsPerCluster,
    scopes: [...new Set(fill.tests.map((t) => t.scope))],
  };
}
