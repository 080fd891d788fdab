import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../test-support/shared.js';
import { PyRandom } from '../util/random.js';
import { type VarianceCell, varianceComponents } from './variance-components.js';

/**
 * Against an independent pandas/numpy ANOVA (src/test-support/spread/python/
 * variance_components_ref.py, fixture variance-components.json) to 1e-10, and unbiased on
 * simulated data whose components are known.
 */
const fixture = JSON.parse(
  readFileSync(resolve(repoRoot, 'src/test-support/spread/variance-components.json'), 'utf8'),
) as {
  cases: Array<{
    name: string;
    factors: string[];
    interactions: Array<[string, string]>;
    cells: VarianceCell[];
    anova: Record<string, number>;
  }>;
};

describe('varianceComponents', () => {
  for (const c of fixture.cases) {
    it(`${c.name}: equals the numpy ANOVA (negative estimates shown as 0)`, () => {
      const result = varianceComponents(c.cells, {
        factors: c.factors,
        interactions: c.interactions,
        bootstrap: 0,
        seed: 1,
      });
      expect(result.map((r) => r.component)).toEqual(Object.keys(c.anova));
      for (const r of result)
        expect(Math.abs(r.variance - Math.max(0, c.anova[r.component] as number))).toBeLessThan(1e-10);
      expect(result.reduce((s, r) => s + r.share, 0)).toBeCloseTo(1, 12);
      expect(result.itemsDropped).toBe(0);
    });
  }

  it('is unbiased on simulated data with known components (mean of 40 designs within 4 standard errors)', () => {
    // Small enough that every outcome stays in [0, 1]; the order's 2 levels make its estimate the noisiest.
    const sd = {
      item: 0.04,
      template: 0.025,
      order: 0.02,
      'template×item': 0.02,
      repeat: 0.03,
      residual: 0.025,
    };
    const rng = new PyRandom(39);
    const normal = () => Math.sqrt(-2 * Math.log(1 - rng.random())) * Math.cos(2 * Math.PI * rng.random());
    const estimates: Record<string, number[]> = {};
    for (let rep = 0; rep < 40; rep++) {
      const [I, T, O, R] = [60, 6, 2, 2];
      const template = Array.from({ length: T }, () => sd.template * normal());
      const order = Array.from({ length: O }, () => sd.order * normal());
      const cells: VarianceCell[] = [];
      for (let i = 0; i < I; i++) {
        const item = sd.item * normal();
        for (let t = 0; t < T; t++) {
          const ti = sd['template×item'] * normal();
          for (let o = 0; o < O; o++) {
            const cell =
              0.5 + item + (template[t] as number) + (order[o] as number) + ti + sd.residual * normal();
            for (let r = 0; r < R; r++) {
              cells.push({
                item: `i${i}`,
                factors: { template: `t${t}`, order: `o${o}` },
                correct: cell + sd.repeat * normal(),
              });
            }
          }
        }
      }
      const result = varianceComponents(cells, {
        factors: ['template', 'order'],
        interactions: [['template', 'item']],
        bootstrap: 0,
        seed: 1,
      });
      for (const r of result) {
        estimates[r.component] = [...(estimates[r.component] ?? []), r.variance];
      }
    }
    for (const [component, s] of Object.entries(sd)) {
      const xs = estimates[component] as number[];
      const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
      const se = Math.sqrt(xs.reduce((a, v) => a + (v - mean) ** 2, 0) / (xs.length - 1) / xs.length);
      expect(Math.abs(mean - s * s), component).toBeLessThan(4 * se + 1e-6);
    }
  });

  it('gives cluster-bootstrap intervals over items that hold the estimate, reproducible in the seed', () => {
    const c = fixture.cases[0] as (typeof fixture.cases)[number];
    const opts = { factors: c.factors, interactions: c.interactions, bootstrap: 300, seed: 7 };
    const a = varianceComponents(c.cells, opts);
    expect(varianceComponents(c.cells, opts)).toEqual(a);
    const item = a.find((r) => r.component === 'item');
    expect(item?.lo).toBeLessThan(item?.variance as number);
    expect(item?.hi).toBeGreaterThan(item?.variance as number);
    expect(
      varianceComponents(c.cells, { ...opts, seed: 8 }).find((r) => r.component === 'item')?.lo,
    ).not.toBe(item?.lo);
  });

  it('keeps only complete items, counts the others, and names bad input', () => {
    const c = fixture.cases[1] as (typeof fixture.cases)[number];
    const incomplete = c.cells.filter((cell, k) => !(cell.item === 'i03' && k % 2 === 0));
    const r = varianceComponents(incomplete, {
      factors: c.factors,
      interactions: c.interactions,
      bootstrap: 0,
      seed: 1,
    });
    expect([r.itemsUsed, r.itemsDropped]).toEqual([29, 1]);
    expect(() =>
      varianceComponents([{ item: 'a', factors: {}, correct: 2 }], { factors: [], bootstrap: 0, seed: 1 }),
    ).toThrow(/cell 0 \(item a\): correct 2/);
    expect(() =>
      varianceComponents(c.cells, { factors: ['template', 'format'], bootstrap: 0, seed: 1 }),
    ).toThrow(/no factor 'format'/);
    expect(() =>
      varianceComponents(c.cells, {
        factors: c.factors,
        interactions: [['template', 'seed']],
        bootstrap: 0,
        seed: 1,
      }),
    ).toThrow(/template×seed/);
  });
});
