import * as vega from 'vega';
import { beforeAll, describe, expect, it } from 'vitest';
import { type ChartSpec, chartSvg, safeSvg, svgOf, vegaSpecOf } from './charts.js';
import { shortLabel } from './labels.js';
import { loadCharting } from './vega-runtime.js';

// The charts draw with vega, loaded once as the CLI loads it (report/vega-runtime.ts).
beforeAll(loadCharting);

const LINE: ChartSpec = {
  vegaLite: {
    width: 240,
    height: 160,
    data: {
      values: [
        { x: 0, y: 1, model: 'evil<script>alert(1)</script>' },
        { x: 1, y: 0.5, model: 'evil<script>alert(1)</script>' },
        { x: 0, y: 0.8, model: 'a & b' },
        { x: 1, y: 0.7, model: 'a & b' },
      ],
    },
    mark: { type: 'line', point: true },
    encoding: {
      x: { field: 'x', type: 'quantitative' },
      y: { field: 'y', type: 'quantitative' },
      color: { field: 'model', type: 'nominal' },
    },
  },
};

describe('chartSvg', () => {
  it('renders a vega-lite spec to an SVG string synchronously, identical to vega’s own toSVG', async () => {
    const svg = chartSvg(LINE, 'c1');
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).toContain('<path');
    const view = new vega.View(vega.parse(vegaSpecOf(LINE)), { renderer: 'none' });
    vega.resetSVGDefIds();
    const reference = await view.toSVG();
    view.run();
    vega.resetSVGDefIds();
    const mine = svgOf(view);
    view.finalize();
    expect(mine).toBe(reference);
  });

  it('escapes untrusted labels and refuses unsafe SVG', () => {
    const svg = chartSvg(LINE, 'c2');
    expect(svg).not.toContain('<script');
    expect(svg).toContain('evil&lt;script&gt;');
    expect(svg).toContain('a &amp; b');
    expect(() => safeSvg('<svg><script>x()</script></svg>')).toThrow(/unsafe/);
    expect(() => safeSvg('<svg><rect onload="x()"/></svg>')).toThrow(/unsafe/);
    expect(() => safeSvg('<svg><a xlink:href="javascript:x()"/></svg>')).toThrow(/unsafe/);
    expect(() => safeSvg('<svg><rect fill="url(http://x/y)"/></svg>')).toThrow(/unsafe/);
  });

  it('prefixes clip-path ids so many charts can share a page, deterministically', () => {
    const bars: ChartSpec = {
      vegaLite: {
        width: 100,
        height: 80,
        data: { values: [{ a: 'x', b: 2 }] },
        mark: { type: 'bar', clip: true },
        encoding: { x: { field: 'a', type: 'nominal' }, y: { field: 'b', type: 'quantitative' } },
      },
    };
    const a = chartSvg(bars, 'one');
    const b = chartSvg(bars, 'one');
    expect(a).toBe(b);
    const ids = [...a.matchAll(/\bid="([^"]+)"/g)].map((m) => m[1]);
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) expect(id?.startsWith('one-')).toBe(true);
    for (const m of a.matchAll(/url\(#([^)]+)\)/g)) expect(m[1]?.startsWith('one-')).toBe(true);
  });

  it('charts of one shape share a parsed spec and still draw their own rows', () => {
    const shape = (rows: object[]): ChartSpec => ({
      vegaLite: {
        width: 120,
        height: 80,
        data: { name: 'table' },
        mark: 'bar',
        encoding: { x: { field: 'k', type: 'nominal' }, y: { field: 'v', type: 'quantitative' } },
      },
      data: { table: rows },
    });
    const first = chartSvg(shape([{ k: 'a', v: 1 }]), 's');
    const second = chartSvg(
      shape([
        { k: 'b', v: 2 },
        { k: 'c', v: 3 },
      ]),
      's',
    );
    expect(first).not.toBe(second);
    // The second, drawn from the cached spec, is what a fresh parse gives.
    const { data, ...rest } = shape([
      { k: 'b', v: 2 },
      { k: 'c', v: 3 },
    ]);
    const inline = {
      vegaLite: {
        ...(rest as { vegaLite: Record<string, unknown> }).vegaLite,
        data: { values: data?.table },
      },
    };
    expect(second).toBe(chartSvg(inline, 's'));
    expect(second.match(/<path[^>]*\bd="M[^"]*Z"/g)?.length).toBeGreaterThanOrEqual(2);
  });

  it('renders a plain vega spec', () => {
    const svg = chartSvg(
      {
        vega: {
          width: 50,
          height: 50,
          marks: [{ type: 'symbol', encode: { enter: { x: { value: 10 }, y: { value: 10 } } } }],
        },
      },
      'v',
    );
    expect(svg).toContain('<svg');
  });
});

describe('legend labels', () => {
  it('cut a long model label in the middle, keeping the end that tells two models apart', () => {
    const a = 'gguf:/home/someone/models/llama-2-7b-chat.Q4_K_M.gguf';
    const b = 'gguf:/home/someone/models/llama-2-7b-chat.Q8_0.gguf';
    const svg = chartSvg(
      {
        vegaLite: {
          data: { name: 't' },
          mark: 'point',
          encoding: { x: { field: 'x', type: 'quantitative' }, color: { field: 'm', type: 'nominal' } },
        },
        data: {
          t: [
            { x: 1, m: a },
            { x: 2, m: b },
          ],
        },
      },
      'lg',
    );
    expect(shortLabel(a)).toBe('gguf:/home/s…a-2-7b-chat.Q4_K_M.gguf');
    expect(svg).toContain(`>${shortLabel(a)}<`);
    expect(svg).toContain(`>${shortLabel(b)}<`);
    expect(shortLabel('replay:alpha')).toBe('replay:alpha');
  });
});
