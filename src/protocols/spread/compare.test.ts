import { describe, expect, it } from 'vitest';
import { compareSpreads } from './compare.js';

/** Three templates x four items: base right on every cell of templates 0 and 1, other on templates 0 and 2, half of 1. */
function cells(right: (t: number, i: number) => boolean) {
  return Array.from({ length: 12 }, (_, k) => {
    const template = Math.floor(k / 4);
    const item = k % 4;
    return { template, item, status: 'done' as const, correct: right(template, item) };
  });
}

describe('two models paired by template', () => {
  const base = { identity: 'base', cells: cells((t) => t !== 2) };
  const other = { identity: 'other', cells: cells((t, i) => t === 0 || t === 2 || (t === 1 && i < 2)) };

  it('gives the mean difference, the difference of spreads and the share of templates ahead', () => {
    const c = compareSpreads(base, other, { templates: 3, items: 4 }, { seed: 1, level: 0.95 });
    // base 1, 1, 0; other 1, 0.5, 1: differences 0, -0.5, +1.
    expect(c.templates).toBe(3);
    expect(c.meanDifference?.value).toBeCloseTo(0.5 / 3);
    expect(c.spreadDifference?.value).toBeCloseTo(0.5 - 1);
    expect(c.otherAhead?.value).toBeCloseTo(1 / 3);
    for (const x of [c.meanDifference, c.spreadDifference, c.otherAhead]) {
      expect(x?.lo).toBeLessThanOrEqual(x?.value ?? Number.NaN);
      expect(x?.hi).toBeGreaterThanOrEqual(x?.value ?? Number.NaN);
    }
  });

  it('is unavailable, with the reason, when no template has an answered cell of both', () => {
    const failed = { identity: 'down', cells: base.cells.map((c) => ({ ...c, status: 'failed' as const })) };
    expect(compareSpreads(base, failed, { templates: 3, items: 4 }, { seed: 1, level: 0.95 })).toMatchObject({
      templates: 0,
      unavailable: 'no template has an answered cell of both models',
    });
  });
});
