import { describe, expect, it } from 'vitest';
import { PyRandom } from '../../../util/random.js';
import { type CellObservation, estimateSpread, planCells } from './index.js';

/** A 12 x 40 grid whose template t answers right with probability 0.3 + 0.04 t. */
function grid(): number[][] {
  const rng = new PyRandom(3);
  return Array.from({ length: 12 }, (_, t) =>
    Array.from({ length: 40 }, () => (rng.random() < 0.3 + 0.04 * t ? 1 : 0)),
  );
}

function observe(Y: number[][], cells: Array<{ template: number; item: number }>): CellObservation[] {
  return cells.map(({ template, item }) => ({
    template,
    item,
    correct: (Y[template] as number[])[item] as number,
  }));
}

describe('estimateSpread', () => {
  const Y = grid();
  const all = Y.flatMap((row, template) => row.map((_, item) => ({ template, item })));

  it('with every cell observed gives the full grid itself, for both methods', () => {
    const input = { nTemplates: 12, nItems: 40, observations: observe(Y, all), seed: 1 };
    const means = Y.map((row) => row.reduce((a, b) => a + b, 0) / 40);
    for (const method of ['prompteval', 'full-grid'] as const) {
      const e = estimateSpread(input, { method, resamples: 20 });
      expect(e.perTemplate).toEqual(means);
      expect(e.best.value).toBe(Math.max(...means));
      expect(e.worst.value).toBe(Math.min(...means));
      expect(e.spread.value).toBeCloseTo(Math.max(...means) - Math.min(...means), 15);
      expect(e.observedCells).toBe(480);
    }
  });

  it('gives ordered, non-empty intervals, the same for the same seed', () => {
    const input = {
      nTemplates: 12,
      nItems: 40,
      observations: observe(Y, planCells(12, 40, 150, 2)),
      seed: 9,
    };
    const a = estimateSpread(input, { resamples: 40 });
    expect(estimateSpread(input, { resamples: 40 })).toEqual(a);
    expect(estimateSpread({ ...input, seed: 10 }, { resamples: 40 }).spread.lo).not.toBe(a.spread.lo);
    for (const q of a.quantiles) {
      expect(q.lo).toBeLessThanOrEqual(q.hi);
      expect(q.hi - q.lo).toBeGreaterThan(0);
    }
    expect(a.quantiles.map((q) => q.q)).toEqual([0.05, 0.25, 0.5, 0.75, 0.95]);
    expect(a.spread.lo).toBeLessThan(a.spread.hi);
  });

  it('counts a repeated cell once and averages its repeats', () => {
    const obs = observe(Y, all);
    const withRepeat = [...obs, { template: 0, item: 0, correct: 1 - ((Y[0] as number[])[0] as number) }];
    const e = estimateSpread(
      { nTemplates: 12, nItems: 40, observations: withRepeat, seed: 1 },
      { method: 'full-grid', resamples: 5 },
    );
    expect(e.observedCells).toBe(480);
    const row0 = (Y[0] as number[]).reduce((a, b) => a + b, 0);
    expect(e.perTemplate[0]).toBeCloseTo((row0 - ((Y[0] as number[])[0] as number) + 0.5) / 40, 15);
  });

  it('refuses input it cannot estimate from, naming the observation', () => {
    const base = { nTemplates: 2, nItems: 2, seed: 1 };
    expect(() => estimateSpread({ ...base, observations: [] })).toThrow(/no observations/);
    expect(() => estimateSpread({ ...base, observations: [{ template: 2, item: 0, correct: 1 }] })).toThrow(
      /observation 0: template 2/,
    );
    expect(() => estimateSpread({ ...base, observations: [{ template: 0, item: 0, correct: 1.5 }] })).toThrow(
      /correct 1.5/,
    );
    expect(() =>
      estimateSpread(
        { ...base, observations: [{ template: 0, item: 0, correct: 1 }] },
        { method: 'full-grid' },
      ),
    ).toThrow(/every template/);
    expect(() =>
      estimateSpread({
        ...base,
        observations: [{ template: 0, item: 0, correct: 1 }],
        templateCovariates: [[1]],
      }),
    ).toThrow(/templateCovariates must be 2 rows/);
  });
});
