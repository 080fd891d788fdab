import type { ChartSpec } from '../../report/charts.js';
import type { Row } from '../../report/html/chart-kit.js';
import type { HtmlKit } from '../../report/html/section.js';

/**
 * The SAGO section's own chart specs (report-section.ts draws them): bars of SGS by position,
 * lines of SGS by strength, and the radar of each model's total SGS over the axes. The heatmaps and
 * the sample-size bands are the report's chart kit's.
 */

/** Colour and order of the axes in every ablation chart. */
export interface AxisColors {
  domain: string[];
  range: string[];
}

export const AXIS_PALETTE = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1'];

/** The top of a value axis: 10% above the largest value, never 0. */
export function maxOf(rows: Row[], field: string): number {
  const xs = rows.map((r) => Number(r[field] ?? 0)).filter((x) => Number.isFinite(x));
  return Math.max(1e-6, ...xs) * 1.1;
}

export function groupedBars(values: Row[], field: string, title: string, colors: AxisColors): ChartSpec {
  return {
    data: { table: values },
    vegaLite: {
      // With an xOffset the step is one bar's (vega-lite sizes the offset band), not a group's.
      width: { step: 16 },
      height: 200,
      data: { name: 'table' },
      mark: { type: 'bar' },
      encoding: {
        x: { field, type: 'nominal', title, axis: { labelAngle: 0 } },
        xOffset: { field: 'axis', type: 'nominal', scale: { domain: colors.domain } },
        y: { field: 'sgs', type: 'quantitative', title: 'SGS' },
        color: { field: 'axis', type: 'nominal', title: 'axis', scale: colors },
      },
    },
  };
}

export function strengthSpec(values: Row[], colors: AxisColors): ChartSpec {
  const steps = [...new Set(values.map((v) => String(v.step)))];
  const x = {
    field: 'step',
    type: 'ordinal',
    title: 'subtype and strength',
    sort: steps,
    axis: { labelAngle: -45 },
  };
  return {
    data: { table: values },
    vegaLite: {
      width: { step: 22 },
      height: 200,
      data: { name: 'table' },
      layer: [
        {
          mark: { type: 'line', opacity: 0.7 },
          encoding: {
            x,
            y: { field: 'sgs', type: 'quantitative', title: 'SGS' },
            color: { field: 'axis', type: 'nominal', title: 'axis', scale: colors },
            detail: { field: 'subtype', type: 'nominal' },
          },
        },
        {
          mark: { type: 'point', filled: true },
          encoding: {
            x,
            y: { field: 'sgs', type: 'quantitative' },
            color: { field: 'axis', type: 'nominal', scale: colors },
          },
        },
      ],
    },
  };
}

/** A radar (vega, after its radar example): one closed line per model over the axes. */
export function radarSpec(values: Row[], keys: string[], modelColors: HtmlKit['modelColors']): ChartSpec {
  const max = maxOf(values, 'value');
  const models = [...new Set(values.map((v) => String(v.model)))];
  const range = models.map((m) => modelColors.range[modelColors.domain.indexOf(m)] ?? '#6b7280');
  return {
    vega: {
      width: 300,
      height: 300,
      padding: 50,
      autosize: { type: 'none', contains: 'padding' },
      signals: [{ name: 'radius', update: 'width / 2' }],
      data: [
        { name: 'table', values },
        { name: 'keys', values: keys.map((k) => ({ key: k })) },
      ],
      scales: [
        { name: 'angular', type: 'point', range: { signal: '[-PI, PI]' }, padding: 0.5, domain: keys },
        // Square root: SGS differ by orders of magnitude across axes; linear radii hide the small ones.
        {
          name: 'radial',
          type: 'sqrt',
          range: { signal: '[0, radius]' },
          zero: true,
          nice: false,
          domain: [0, max],
        },
        { name: 'color', type: 'ordinal', domain: models, range },
      ],
      encode: { enter: { x: { signal: 'radius' }, y: { signal: 'radius' } } },
      marks: [radarPolygons(), radarSpokes(), radarKeyLabels(), radarScaleLabel(max)],
    },
  };
}

/** One closed line per model through its value on each axis. */
function radarPolygons() {
  return {
    type: 'group',
    name: 'categories',
    zindex: 1,
    from: { facet: { data: 'table', name: 'facet', groupby: ['model'] } },
    marks: [
      {
        type: 'line',
        name: 'category-line',
        from: { data: 'facet' },
        encode: {
          enter: {
            interpolate: { value: 'linear-closed' },
            x: { signal: "scale('radial', datum.value) * cos(scale('angular', datum.axis))" },
            y: { signal: "scale('radial', datum.value) * sin(scale('angular', datum.axis))" },
            stroke: { scale: 'color', field: 'model' },
            strokeWidth: { value: 2 },
            fill: { scale: 'color', field: 'model' },
            fillOpacity: { value: 0.1 },
          },
        },
      },
    ],
  };
}

/** A spoke from the centre to each axis. */
function radarSpokes() {
  return {
    type: 'rule',
    name: 'radial-grid',
    from: { data: 'keys' },
    zindex: 0,
    encode: {
      enter: {
        x: { value: 0 },
        y: { value: 0 },
        x2: { signal: "radius * cos(scale('angular', datum.key))" },
        y2: { signal: "radius * sin(scale('angular', datum.key))" },
        stroke: { value: '#d1d5db' },
        strokeWidth: { value: 1 },
      },
    },
  };
}

/** Each axis' name past the end of its spoke, aligned away from the centre. */
function radarKeyLabels() {
  return {
    type: 'text',
    name: 'key-label',
    from: { data: 'keys' },
    zindex: 1,
    encode: {
      enter: {
        x: { signal: "(radius + 8) * cos(scale('angular', datum.key))" },
        y: { signal: "(radius + 8) * sin(scale('angular', datum.key))" },
        text: { field: 'key' },
        align: [{ test: "abs(scale('angular', datum.key)) > PI / 2", value: 'right' }, { value: 'left' }],
        baseline: [
          { test: "scale('angular', datum.key) > 0", value: 'top' },
          { test: "scale('angular', datum.key) == 0", value: 'middle' },
          { value: 'bottom' },
        ],
        fill: { value: '#111827' },
        fontSize: { value: 11 },
      },
    },
  };
}

/** The value at the rim, so the radii can be read. */
function radarScaleLabel(max: number) {
  return {
    type: 'text',
    name: 'scale-label',
    encode: {
      enter: {
        x: { value: 2 },
        y: { signal: '-radius' },
        text: { value: `max ${max.toFixed(3)}` },
        fill: { value: '#6b7280' },
        fontSize: { value: 10 },
      },
    },
  };
}
