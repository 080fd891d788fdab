import { PyRandom } from '../../util/random.js';
import type { Interval } from './estimators/index.js';

/**
 * The paired comparison of two models' spreads (docs/spread.md#comparison): both asked the same
 * cells, so their per-template accuracies pair by template. The difference of mean accuracy over
 * templates, of spread (best - worst) and the share of templates where the second model is ahead,
 * each with a percentile interval from one bootstrap over items applied to both models at once.
 */

export interface SpreadComparison {
  base: string;
  other: string;
  /** Templates both models have an answered cell of. */
  templates: number;
  /** Mean over templates of (other - base) per-template accuracy. */
  meanDifference?: Interval;
  /** other's spread - base's spread. */
  spreadDifference?: Interval;
  /** Share of the paired templates where other's accuracy is above base's. */
  otherAhead?: Interval;
  unavailable?: string;
}

interface Cell {
  template: number;
  item: number;
  status: 'done' | 'failed';
  correct: boolean;
}
interface Side {
  identity: string;
  cells: readonly Cell[];
}

const RESAMPLES = 400;

function means(cells: readonly Cell[], nTemplates: number, weights: readonly number[]): number[] {
  const sum = new Float64Array(nTemplates);
  const n = new Float64Array(nTemplates);
  for (const c of cells) {
    const w = c.status === 'done' ? (weights[c.item] ?? 0) : 0;
    sum[c.template] = (sum[c.template] ?? 0) + w * (c.correct ? 1 : 0);
    n[c.template] = (n[c.template] ?? 0) + w;
  }
  return Array.from(sum, (s, t) => ((n[t] ?? 0) > 0 ? s / (n[t] ?? 1) : Number.NaN));
}

function figures(a: readonly number[], b: readonly number[]) {
  const paired = a.flatMap((x, t) =>
    Number.isNaN(x) || Number.isNaN(b[t] ?? Number.NaN) ? [] : [[x, b[t] ?? 0]],
  );
  if (paired.length === 0) return undefined;
  const spread = (xs: number[]) => Math.max(...xs) - Math.min(...xs);
  return {
    templates: paired.length,
    mean: paired.reduce((s, [x, y]) => s + ((y ?? 0) - (x ?? 0)), 0) / paired.length,
    spread: spread(paired.map((p) => p[1] ?? 0)) - spread(paired.map((p) => p[0] ?? 0)),
    ahead: paired.filter(([x, y]) => (y ?? 0) > (x ?? 0)).length / paired.length,
  };
}

function interval(value: number, draws: number[], level: number): Interval {
  const s = [...draws].sort((x, y) => x - y);
  const at = (q: number) => s[Math.min(s.length - 1, Math.max(0, Math.round(q * (s.length - 1))))] ?? value;
  return { value, lo: at((1 - level) / 2), hi: at((1 + level) / 2) };
}

export function compareSpreads(
  base: Side,
  other: Side,
  grid: { templates: number; items: number },
  opts: { seed: number; level: number },
): SpreadComparison {
  const ones = new Array<number>(grid.items).fill(1);
  const point = figures(means(base.cells, grid.templates, ones), means(other.cells, grid.templates, ones));
  const head = { base: base.identity, other: other.identity };
  if (!point)
    return { ...head, templates: 0, unavailable: 'no template has an answered cell of both models' };
  const rng = new PyRandom(opts.seed);
  const draws = { mean: [] as number[], spread: [] as number[], ahead: [] as number[] };
  for (let b = 0; b < RESAMPLES; b++) {
    const w = new Array<number>(grid.items).fill(0);
    for (let i = 0; i < grid.items; i++) {
      const j = rng.randbelow(grid.items);
      w[j] = (w[j] ?? 0) + 1;
    }
    const f = figures(means(base.cells, grid.templates, w), means(other.cells, grid.templates, w));
    if (!f) continue;
    draws.mean.push(f.mean);
    draws.spread.push(f.spread);
    draws.ahead.push(f.ahead);
  }
  return {
    ...head,
    templates: point.templates,
    meanDifference: interval(point.mean, draws.mean, opts.level),
    spreadDifference: interval(point.spread, draws.spread, opts.level),
    otherAhead: interval(point.ahead, draws.ahead, opts.level),
  };
}

/** Each model after the first compared with the first. */
export function spreadComparisons(
  grid: { templates: number; items: number },
  models: readonly Side[],
  opts: { seed: number; level: number },
): SpreadComparison[] {
  const [first, ...rest] = models;
  return first ? rest.map((m) => compareSpreads(first, m, grid, opts)) : [];
}
