import {
  type VarianceCell,
  type VarianceComponent,
  type VarianceComponentOptions,
  varianceComponents,
} from '../stats/variance-components.js';

/**
 * Where a model's variance comes from, as a report section shows it (docs/spread.md#variance):
 * `varianceComponents` over the cells a protocol hands in (spread: item x template; paraphrase:
 * item x phrasing x repeat), with its cluster-bootstrap intervals over items and the items used
 * and dropped; or why it cannot be computed (never 0). Only complete items enter (docs/decisions.md E59). Protocols pick the factors; this file
 * knows none of them.
 */

/** Resamples of the cluster bootstrap over items behind each component's interval. */
const VARIANCE_BOOTSTRAP = 1000;

export type VarianceFigure =
  | {
      components: VarianceComponent[];
      factors: string[];
      itemsUsed: number;
      itemsDropped: number;
      repeats: number;
      bootstrap: number;
    }
  | { unavailable: string };

export function varianceFigure(
  cells: readonly VarianceCell[],
  opts: Omit<VarianceComponentOptions, 'bootstrap'>,
): VarianceFigure {
  if (cells.length === 0) return { unavailable: 'no cell was answered' };
  try {
    const v = varianceComponents(cells, { ...opts, bootstrap: VARIANCE_BOOTSTRAP });
    return {
      components: [...v],
      factors: opts.factors,
      itemsUsed: v.itemsUsed,
      itemsDropped: v.itemsDropped,
      repeats: v.repeats,
      bootstrap: VARIANCE_BOOTSTRAP,
    };
  } catch (e) {
    // The design's own limits (no complete item, too few levels) are reasons, not failures.
    if (e instanceof RangeError) return { unavailable: e.message.replace(/^varianceComponents: /, '') };
    throw e;
  }
}

const pct = (x: number) => (Number.isNaN(x) ? '—' : `${(100 * x).toFixed(1)}%`);
const num = (x: number) => (Number.isNaN(x) ? '—' : x.toFixed(4));

/** The figure's Markdown: a table of components, or the line saying why there is none. */
export function varianceMarkdown(title: string, v: VarianceFigure): string[] {
  if ('unavailable' in v) return [`${title}: unavailable (${v.unavailable}).`, ''];
  return [
    `${title} (random-effects ANOVA over item x ${v.factors.join(' x ')}${v.repeats > 1 ? ` x ${v.repeats} repeats` : ''}; n = ${v.itemsUsed} items used, ${v.itemsDropped} dropped as incomplete; 95% cluster bootstrap over items, ${v.bootstrap} resamples):`,
    '',
    '| component | variance [95% CI] | share |',
    '|---|---|---|',
    ...v.components.map(
      (c) => `| ${c.component} | ${num(c.variance)} [${num(c.lo)}, ${num(c.hi)}] | ${pct(c.share)} |`,
    ),
    '',
  ];
}

/** The figure as JSON: NaN (a share of a zero total) as null. */
export function varianceJson(v: VarianceFigure) {
  if ('unavailable' in v) return v;
  const clean = (x: number) => (Number.isNaN(x) ? null : x);
  return {
    ...v,
    components: v.components.map((c) => ({
      component: c.component,
      variance: c.variance,
      share: clean(c.share),
      lo: clean(c.lo),
      hi: clean(c.hi),
    })),
  };
}
