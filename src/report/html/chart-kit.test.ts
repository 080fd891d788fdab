import { beforeAll, describe, expect, it } from 'vitest';
import { chartSvg } from '../charts.js';
import { loadCharting } from '../vega-runtime.js';
import { heatmap } from './chart-kit.js';

// The charts draw with vega, loaded once as the CLI loads it (report/vega-runtime.ts).
beforeAll(loadCharting);

describe('heatmap', () => {
  const values = [0.8, 0.85, 0.88, 1, 0.02].map((share, i) => ({
    item: `i${i}`,
    phrasing: 'p',
    share,
    label: String(share),
  }));
  const spec = (domain?: [number, number]) =>
    heatmap({
      values,
      x: { field: 'phrasing', title: 'phrasing' },
      y: { field: 'item', title: 'item' },
      value: { field: 'share', title: 'share', scheme: 'redyellowgreen', ...(domain && { domain }) },
      text: 'label',
    });
  const inkOf = (s: ReturnType<typeof spec>) =>
    Object.fromEntries(
      ((s.data?.table ?? []) as { share: number; __ink: string }[]).map((r) => [r.share, r.__ink]),
    );

  it('colours on [0, 1], not the data’s extent, so 0.80 and 0.88 look close', () => {
    const layer = (
      (spec() as { vegaLite: { layer: unknown } }).vegaLite.layer as {
        encoding: { color: { scale: { domain: number[] } } };
      }[]
    )[0];
    expect(layer?.encoding.color.scale.domain).toEqual([0, 1]);
  });

  it('writes white only on fills dark enough for it (WCAG luminance of the scheme’s colour)', () => {
    // redyellowgreen: pale yellow-green at 0.80-0.88 takes dark text; the deep green of 1 and the
    // deep red of 0.02 take white.
    expect(inkOf(spec())).toEqual({
      0.8: '#111827',
      0.85: '#111827',
      0.88: '#111827',
      1: '#ffffff',
      0.02: '#ffffff',
    });
    // The ink follows the domain: on [0.8, 1] 0.80 is its deep red end.
    expect(inkOf(spec([0.8, 1]))[0.8]).toBe('#ffffff');
    expect(chartSvg(spec(), 'h1')).toContain('fill="#ffffff"');
  });
});
