import type { ChartSpec } from '../charts.js';
import { charting } from '../vega-runtime.js';

/**
 * vega-lite specs the sections share: lines with confidence bands, estimates with interval bars,
 * heatmaps. Data is inline (values), so rendering needs nothing from outside.
 */

/** Tableau 10, then darker variants: distinct colours for up to 20 models. */
const PALETTE = [
  '#4e79a7',
  '#f28e2b',
  '#e15759',
  '#76b7b2',
  '#59a14f',
  '#edc948',
  '#b07aa1',
  '#ff9da7',
  '#9c755f',
  '#bab0ac',
  '#1f4e79',
  '#a65b00',
  '#8c1c1d',
  '#2f6f6a',
  '#2e6b27',
  '#8a7400',
  '#6b3f62',
  '#b35860',
  '#5c4433',
  '#6e6661',
];

export function colorsFor(labels: readonly string[]): { domain: string[]; range: string[] } {
  const domain = [...new Set(labels)];
  return { domain, range: domain.map((_, i) => PALETTE[i % PALETTE.length] as string) };
}

export type Row = Record<string, string | number | null>;

export interface BandLines {
  values: Row[];
  x: {
    field: string;
    title: string;
    sort?: string[];
    type?: 'ordinal' | 'quantitative';
    scale?: Record<string, unknown>;
    /** Tick values (e.g. the sample sizes of an ablation). */
    axisValues?: number[];
  };
  y: { field: string; low: string; high: string; title: string; domain?: [number, number] };
  color: { field: string; title: string; domain: string[]; range: string[] };
  width?: number;
  height?: number;
  legend?: boolean;
  title?: string;
}

/** One line per colour group with a shaded interval band (low..high) and points. */
export function bandLines(o: BandLines): ChartSpec {
  const x = {
    field: o.x.field,
    type: o.x.type ?? 'ordinal',
    title: o.x.title,
    ...(o.x.sort && { sort: o.x.sort }),
    ...(o.x.scale && { scale: o.x.scale }),
    axis: { labelAngle: 0, ...(o.x.axisValues && { values: o.x.axisValues }) },
  };
  const color = {
    field: o.color.field,
    type: 'nominal',
    title: o.color.title,
    scale: { domain: o.color.domain, range: o.color.range },
    ...(o.legend === false && { legend: null }),
  };
  const y = {
    field: o.y.field,
    type: 'quantitative',
    title: o.y.title,
    scale: { domain: o.y.domain ?? [0, 1], clamp: true },
  };
  return {
    vegaLite: {
      width: o.width ?? 420,
      height: o.height ?? 240,
      ...(o.title && { title: o.title }),
      data: { name: 'table' },
      resolve: { legend: { fill: 'independent', color: 'independent' } },
      layer: [
        {
          transform: [{ filter: `isValid(datum.${o.y.low}) && isValid(datum.${o.y.high})` }],
          mark: { type: 'area', opacity: 0.15 },
          // The band is coloured through `fill`, a scale of its own without a legend: the line
          // layer's legend names the groups (a `legend: null` on the shared colour scale hides both).
          encoding: {
            x,
            y: { ...y, field: o.y.low },
            y2: { field: o.y.high },
            fill: { ...color, legend: null },
          },
        },
        {
          mark: { type: 'line', point: { filled: true, size: 36 } },
          encoding: { x, y, color },
        },
      ],
    },
    data: { table: o.values },
  };
}

export interface IntervalDots {
  values: Row[];
  /** The category axis (one row per category). */
  category: { field: string; title: string | null; sort?: string[] };
  /** Several estimates per category, offset and coloured by this field. */
  series: { field: string; title: string; domain: string[]; range: string[] };
  value: { field: string; low: string; high: string; title: string; domain?: [number, number] };
  horizontal?: boolean;
  width?: number;
  height?: number;
  title?: string;
}

/**
 * Whether the category names fit side by side under their group (about 6.5 px a character at the
 * axis font, a group being one 20 px step per series); else they are angled.
 */
function fitsLevel(o: IntervalDots): boolean {
  const names = o.category.sort ?? o.values.map((r) => String(r[o.category.field]));
  const longest = Math.max(0, ...names.map((n) => n.length));
  return longest * 6.5 + 8 <= 20 * Math.max(1, o.series.domain.length);
}

/** Point estimates with interval bars, grouped by category and offset by series. */
export function intervalDots(o: IntervalDots): ChartSpec {
  const cat = o.horizontal ? 'y' : 'x';
  const val = o.horizontal ? 'x' : 'y';
  const catEnc = {
    field: o.category.field,
    type: 'nominal',
    title: o.category.title,
    ...(o.category.sort && { sort: o.category.sort }),
    ...(!o.horizontal && { axis: { labelAngle: fitsLevel(o) ? 0 : -40 } }),
  };
  const offset = { field: o.series.field, type: 'nominal', scale: { domain: o.series.domain } };
  const color = {
    field: o.series.field,
    type: 'nominal',
    title: o.series.title,
    scale: { domain: o.series.domain, range: o.series.range },
  };
  const valEnc = {
    field: o.value.field,
    type: 'quantitative',
    title: o.value.title,
    scale: { domain: o.value.domain ?? [0, 1], clamp: true },
  };
  const offsetChannel = `${cat}Offset`;
  return {
    vegaLite: {
      ...(o.horizontal
        ? // With an offset channel the step is one series' (vega-lite sizes the offset band), not a category's.
          { width: o.width ?? 420, height: { step: 16 } }
        : { width: { step: 20 }, height: o.height ?? 220 }),
      ...(o.title && { title: o.title }),
      data: { name: 'table' },
      layer: [
        {
          transform: [{ filter: `isValid(datum.${o.value.low}) && isValid(datum.${o.value.high})` }],
          mark: { type: 'rule', strokeWidth: 2 },
          encoding: {
            [cat]: catEnc,
            [offsetChannel]: offset,
            [val]: { ...valEnc, field: o.value.low },
            [`${val}2`]: { field: o.value.high },
            color,
          },
        },
        {
          transform: [{ filter: `isValid(datum.${o.value.field})` }],
          mark: { type: 'point', filled: true, size: 50 },
          encoding: { [cat]: catEnc, [offsetChannel]: offset, [val]: valEnc, color },
        },
        {
          // An estimate that cannot be computed is written as such at the axis, never drawn as 0.
          transform: [{ filter: `!isValid(datum.${o.value.field})` }],
          mark: { type: 'text', align: 'left', baseline: 'middle', dx: 3, fontSize: 10, color: '#6b7280' },
          encoding: {
            [cat]: catEnc,
            [offsetChannel]: offset,
            [val]: { datum: 0, type: 'quantitative', scale: valEnc.scale },
            text: { value: 'unavailable' },
          },
        },
      ],
    },
    data: { table: o.values },
  };
}

export interface Heatmap {
  values: Row[];
  x: { field: string; title: string; sort?: string[] };
  y: { field: string; title: string | null; sort?: string[] };
  /** Colour by this number (null = no value: drawn grey). */
  value: { field: string; title: string; domain?: [number, number]; scheme?: string; reverse?: boolean };
  /** Text drawn in each cell (e.g. "0.124†"); omitted for dense maps. */
  text?: string;
  cell?: { width: number; height: number };
  title?: string;
}

/**
 * The colour domain: the one given, else [0, 1] for shares and the like, else 0 to the largest
 * value. Never the data's own extent: 0.80 and 0.88 must not look as far apart as 0 and 1.
 */
function domainOf(o: Heatmap): [number, number] {
  if (o.value.domain) return o.value.domain;
  const nums = o.values.map((r) => r[o.value.field]).filter((v): v is number => typeof v === 'number');
  return [Math.min(0, ...nums), Math.max(1, ...nums)];
}

/** Relative luminance (WCAG) of an `rgb(r, g, b)` or `#rrggbb` colour. */
function luminance(color: string): number {
  const hex = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(color);
  const rgb = hex
    ? hex.slice(1).map((h) => Number.parseInt(h, 16))
    : (color.match(/[\d.]+/g) ?? ['0', '0', '0']).slice(0, 3).map(Number);
  const [r, g, b] = rgb.map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/**
 * The ink of each cell's text, from the fill the scheme gives its value: white only on a fill dark
 * enough for it (luminance below 0.18, where white has the better contrast), else near-black.
 */
function inkOf(o: Heatmap, [lo, hi]: [number, number]): (v: unknown) => string {
  const interpolate = charting().vega.scheme(o.value.scheme ?? 'oranges') as
    | ((t: number) => string)
    | undefined;
  return (v) => {
    if (typeof v !== 'number' || !interpolate) return '#111827';
    let t = Math.min(1, Math.max(0, (v - lo) / (hi - lo || 1)));
    if (o.value.reverse) t = 1 - t;
    return luminance(interpolate(t)) < 0.18 ? '#ffffff' : '#111827';
  };
}

export function heatmap(o: Heatmap): ChartSpec {
  const x = {
    field: o.x.field,
    type: 'nominal',
    title: o.x.title,
    ...(o.x.sort && { sort: o.x.sort }),
    // Steep enough that long names (phrasings, datasets) clear their neighbours at any cell width.
    axis: { labelAngle: -45 },
  };
  const y = { field: o.y.field, type: 'nominal', title: o.y.title, ...(o.y.sort && { sort: o.y.sort }) };
  const domain = domainOf(o);
  const ink = inkOf(o, domain);
  const values = o.text ? o.values.map((r) => ({ ...r, __ink: ink(r[o.value.field]) })) : o.values;
  const layers: Record<string, unknown>[] = [
    {
      mark: { type: 'rect', stroke: 'white', strokeWidth: 1 },
      encoding: {
        x,
        y,
        color: {
          condition: {
            test: `!isValid(datum.${o.value.field})`,
            value: '#e5e7eb',
          },
          field: o.value.field,
          type: 'quantitative',
          title: o.value.title,
          scale: {
            scheme: o.value.scheme ?? 'oranges',
            domain,
            ...(o.value.reverse && { reverse: true }),
          },
        },
      },
    },
  ];
  if (o.text)
    layers.push({
      mark: { type: 'text', fontSize: 10 },
      encoding: {
        x,
        y,
        text: { field: o.text, type: 'nominal' },
        color: { field: '__ink', type: 'nominal', scale: null },
      },
    });
  return {
    vegaLite: {
      width: { step: o.cell?.width ?? 70 },
      height: { step: o.cell?.height ?? 22 },
      ...(o.title && { title: o.title }),
      data: { name: 'table' },
      // The text's ink is a colour of its own, not a value on the cells' scale.
      resolve: { scale: { color: 'independent' } },
      layer: layers,
    },
    data: { table: values },
  };
}
