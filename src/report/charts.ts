import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';

/**
 * Charts for the reports: a vega-lite (or plain vega) spec rendered to an SVG string in Node, with
 * no browser and no network, so a report carries its pictures inline (docs/report.md#charts).
 *
 * Rendering is synchronous on purpose: `renderReport` returns a string, and a spec with inline
 * data needs nothing asynchronous. vega's own `view.toSVG()` is async only because it awaits image
 * loading; `svgOf` does the same steps without the wait (charts.test.ts checks the output is
 * identical to `toSVG()`, so a vega upgrade that changes the steps is caught).
 */

/** A chart: a vega-lite spec (most charts) or a plain vega spec (the radar, which vega-lite cannot draw). */
export type ChartSpec = { vegaLite: Record<string, unknown> } | { vega: Record<string, unknown> };

/** Shared look: the report's font and colours; no background so the page's shows through. */
const VEGA_LITE_CONFIG = {
  background: 'white',
  font: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  axis: { labelFontSize: 11, titleFontSize: 12, gridColor: '#e5e7eb' },
  legend: { labelFontSize: 11, titleFontSize: 12, labelLimit: 260 },
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

/** The vega spec of a chart (vega-lite compiled with the report's config). */
export function vegaSpecOf(chart: ChartSpec): vega.Spec {
  if ('vega' in chart) return { config: VEGA_LITE_CONFIG, ...chart.vega } as vega.Spec;
  const spec = { config: VEGA_LITE_CONFIG, ...chart.vegaLite } as unknown as TopLevelSpec;
  return compile(spec).spec as vega.Spec;
}

/**
 * Renders a chart to an SVG string. `idPrefix` makes the SVG's clip-path and gradient ids unique
 * in a page that holds many charts (vega numbers them per process: two charts in one page would
 * otherwise clip each other's marks).
 */
export function chartSvg(chart: ChartSpec, idPrefix = 'chart'): string {
  const view = new vega.View(vega.parse(vegaSpecOf(chart)), { renderer: 'none' });
  try {
    vega.resetSVGDefIds();
    view.run();
    const svg = svgOf(view);
    return safeSvg(uniqueIds(svg, idPrefix));
  } finally {
    view.finalize();
  }
}

/** vega-view's renderHeadless for SVG, without awaiting image loads (a report's charts have no images). */
export function svgOf(view: vega.View): string {
  const Renderer = (vega.renderModule as unknown as (name: string) => { headless: new (loader: unknown) => StringRenderer })(
    'svg',
  ).headless;
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
  const bad = /<script|<foreignObject|<iframe|<image|\son[a-z]+\s*=|javascript:|(?:xlink:)?href\s*=|url\((?!#)/i.exec(svg);
  if (bad) throw new Error(`refusing a chart SVG with unsafe content near ${JSON.stringify(bad[0])}`);
  return svg;
}
