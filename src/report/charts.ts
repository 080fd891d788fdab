import type * as vega from 'vega';
import type { TopLevelSpec } from 'vega-lite';
import { LEGEND_CHARS, LEGEND_HEAD } from './labels.js';
import { charting } from './vega-runtime.js';

/**
 * Charts for the reports: a vega-lite (or plain vega) spec rendered to an SVG string in Node, with
 * no browser and no network, so a report carries its pictures inline (docs/report.md#charts).
 *
 * Rendering is synchronous on purpose: `renderReport` returns a string, and a spec with inline
 * data needs nothing asynchronous. vega's own `view.toSVG()` is async only because it awaits image
 * loading; `svgOf` does the same steps without the wait (charts.test.ts checks the output is
 * identical to `toSVG()`, so a vega upgrade that changes the steps is caught).
 */

/**
 * A chart: a vega-lite spec (most charts) or a plain vega spec (the radar, which vega-lite cannot
 * draw), and the rows of its named data sources (`data: {name: 'table'}` in the spec). Keeping
 * the rows out of the spec lets charts of one shape share one compiled and parsed spec: a report
 * draws dozens of charts of a few shapes, and compiling is half the cost of each.
 */
export type ChartSpec = ({ vegaLite: Record<string, unknown> } | { vega: Record<string, unknown> }) & {
  data?: Record<string, readonly object[]>;
  /** Model labels as the eval shows them (labels.ts shortLabels), for the legends' and axes' labels. */
  labels?: ReadonlyMap<string, string>;
};

/** Shared look: the report's font and colours; no background so the page's shows through. */
const VEGA_LITE_CONFIG = {
  background: 'white',
  // No per-mark aria labels: the figure carries one (title and caption), and hundreds of marks'
  // labels would double the SVG and the time to make it.
  aria: false,
  font: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  // Labels are model, dataset and phrasing names: room for whole names (a longer one is cut with
  // an ellipsis).
  axis: {
    labelFontSize: 11,
    titleFontSize: 12,
    gridColor: '#e5e7eb',
    labelLimit: 360,
  },
  // Number ticks may be thinned; names on a band axis never are (they are angled or wrapped instead).
  axisQuantitative: { tickCount: 6, labelOverlap: 'greedy', labelSeparation: 6 },
  legend: {
    labelFontSize: 11,
    titleFontSize: 12,
    labelLimit: 360,
    orient: 'right',
  },
  title: { fontSize: 13, anchor: 'start' },
  view: { stroke: '#d1d5db' },
};

interface ViewInternals {
  _viewWidth: number;
  _viewHeight: number;
}

interface StringRenderer {
  initialize(el: null, width: number, height: number, origin: number[], scale: number): StringRenderer;
  background(color: unknown): StringRenderer;
  render(scene: unknown): StringRenderer;
  svg(): string;
}

/** The vega spec of a chart (vega-lite compiled with the report's config), without its named data's rows. */
export function vegaSpecOf(chart: ChartSpec): vega.Spec {
  if ('vega' in chart) return { config: VEGA_LITE_CONFIG, ...chart.vega } as vega.Spec;
  const spec = { config: VEGA_LITE_CONFIG, ...chart.vegaLite } as unknown as TopLevelSpec;
  return shortenLabels(charting().vegaLite.compile(spec).spec as vega.Spec, chart.labels);
}

/**
 * Legend and axis labels that are model labels show as the eval shows them (`labels`: the part
 * that tells its models apart, docs/decisions.md#e52-short-labels); any other label longer
 * than LEGEND_CHARS is cut in the middle, as shortLabel does: its end is what tells two models
 * apart, and vega's own limit cuts the end. (vega-lite's labelExpr, per legend and axis.)
 */
function shortenLabels(spec: vega.Spec, labels: ReadonlyMap<string, string> = new Map()): vega.Spec {
  const shown = [...labels].filter(([full, short]) => full !== short);
  const cut = `length(datum.label) > ${LEGEND_CHARS} ? slice(datum.label, 0, ${LEGEND_HEAD}) + '…' + slice(datum.label, -${LEGEND_CHARS - LEGEND_HEAD - 1}) : datum.label`;
  const full = JSON.stringify(shown.map(([f]) => f));
  const short = JSON.stringify(shown.map(([, s]) => s));
  const text = {
    signal:
      shown.length === 0
        ? cut
        : `indexof(${full}, datum.label) >= 0 ? ${short}[indexof(${full}, datum.label)] : ${cut}`,
  };
  type Guide = { encode?: { labels?: { update?: Record<string, unknown> } } };
  const relabel = (guide: Guide) => {
    guide.encode = guide.encode ?? {};
    const labels = guide.encode.labels ?? {};
    guide.encode.labels = { ...labels, update: { ...(labels.update ?? {}), text } };
  };
  const visit = (node: { legends?: Guide[]; axes?: Guide[]; marks?: unknown[] }) => {
    for (const legend of node.legends ?? []) relabel(legend);
    // An axis's labels only where models have short labels (a number's label matches none and stays).
    for (const axis of node.axes ?? []) if (shown.length > 0) relabel(axis);
    for (const mark of node.marks ?? []) visit(mark as typeof node);
  };
  visit(spec as Parameters<typeof visit>[0]);
  return spec;
}

/** Parsed specs by shape (the spec without its rows); a report has a few dozen shapes at most. */
const runtimes = new Map<string, vega.Runtime>();
const MAX_RUNTIMES = 200;

function runtimeOf(chart: ChartSpec): vega.Runtime {
  const { data: _rows, labels, ...shape } = chart;
  const key = JSON.stringify([shape, labels ? [...labels] : []]);
  let runtime = runtimes.get(key);
  if (!runtime) {
    runtime = charting().vega.parse(vegaSpecOf(chart));
    if (runtimes.size >= MAX_RUNTIMES) runtimes.clear();
    runtimes.set(key, runtime);
  }
  return runtime;
}

/**
 * Renders a chart to an SVG string. `idPrefix` makes the SVG's clip-path and gradient ids unique
 * in a page that holds many charts (vega numbers them per process: two charts in one page would
 * otherwise clip each other's marks).
 */
export function chartSvg(chart: ChartSpec, idPrefix = 'chart'): string {
  const view = new (charting().vega.View)(runtimeOf(chart), { renderer: 'none' });
  try {
    for (const [name, rows] of Object.entries(chart.data ?? {})) view.data(name, rows as object[]);
    charting().vega.resetSVGDefIds();
    view.run();
    const svg = svgOf(view);
    return safeSvg(uniqueIds(svg, idPrefix));
  } finally {
    view.finalize();
  }
}

/** vega-view's renderHeadless for SVG, without awaiting image loads (a report's charts have no images). */
export function svgOf(view: vega.View): string {
  const Renderer = (
    charting().vega.renderModule as unknown as (name: string) => {
      headless: new (loader: unknown) => StringRenderer;
    }
  )('svg').headless;
  const padding = view.padding() as { left: number; right: number; top: number; bottom: number };
  const internals = view as unknown as ViewInternals;
  const width = Math.max(0, internals._viewWidth + padding.left + padding.right);
  const height = Math.max(0, internals._viewHeight + padding.top + padding.bottom);
  const origin = view.origin();
  const renderer = new Renderer(view.loader())
    .initialize(null, width, height, [padding.left + (origin[0] ?? 0), padding.top + (origin[1] ?? 0)], 1)
    .background(view.background());
  const scene = (view.scenegraph() as unknown as { root: unknown }).root;
  return renderer.render(scene).svg();
}

function uniqueIds(svg: string, prefix: string): string {
  if (!/^[A-Za-z][\w-]*$/.test(prefix)) throw new Error(`bad chart id prefix ${JSON.stringify(prefix)}`);
  return svg
    .replace(/\bid="([^"]+)"/g, (_m, id: string) => `id="${prefix}-${id}"`)
    .replace(/url\(#([^)]+)\)/g, (_m, id: string) => `url(#${prefix}-${id})`);
}

/**
 * Refuses an SVG that could run or load anything. vega escapes the text it draws (labels are
 * model names and dataset names, untrusted); this is the second line: no script, event handler,
 * link, foreign HTML or external reference may reach the page.
 */
export function safeSvg(svg: string): string {
  const bad =
    /<script|<foreignObject|<iframe|<image|\son[a-z]+\s*=|javascript:|(?:xlink:)?href\s*=|url\((?!#)/i.exec(
      svg,
    );
  if (bad) throw new Error(`refusing a chart SVG with unsafe content near ${JSON.stringify(bad[0])}`);
  return svg;
}
