import { describe, expect, it } from 'vitest';
import { python3Missing, runPython } from '../test-support/python3.js';
import {
  cohenKappa,
  confusionMatrix,
  krippendorffAlpha,
  type Label,
  overItems,
  rawAgreement,
} from './agreement.js';

/**
 * The reference is an independent computation in numpy: kappa from agreement weights
 * (p_o - p_e) / (1 - p_e), and alpha from its pairwise definition over values (mean disagreement
 * within items over mean disagreement between all pairable values), not from the coincidence matrix.
 */
const REFERENCE = `
import json, sys
import numpy as np
data = json.load(sys.stdin)
units = [[None if v is None else int(v) for v in u] for u in data['units']]
k = data['k']
def kappa(a, b, quadratic, linear=False):
    pairs = [(x, y) for x, y in zip(a, b) if x is not None and y is not None]
    m = np.zeros((k, k))
    for x, y in pairs: m[x, y] += 1
    m /= m.sum()
    i, j = np.indices((k, k))
    agree = 1 - ((i - j) / (k - 1)) ** 2 if quadratic else 1 - abs(i - j) / (k - 1) if linear else (i == j).astype(float)
    po = (agree * m).sum()
    pe = (agree * np.outer(m.sum(1), m.sum(0))).sum()
    return (po - pe) / (1 - pe)
def alpha(metric):
    vals = [[v for v in u if v is not None] for u in units]
    vals = [v for v in vals if len(v) >= 2]
    pool = [x for v in vals for x in v]
    n = len(pool)
    counts = np.bincount(pool, minlength=k)
    def d(c, g):
        if metric == 'nominal': return float(c != g)
        if metric == 'interval': return float((c - g) ** 2)
        lo, hi = min(c, g), max(c, g)
        return (counts[lo:hi + 1].sum() - (counts[c] + counts[g]) / 2) ** 2
    do = sum(sum(d(x, y) for ii, x in enumerate(v) for jj, y in enumerate(v) if ii != jj) / (len(v) - 1) for v in vals) / n
    de = sum(d(x, y) for ii, x in enumerate(pool) for jj, y in enumerate(pool) if ii != jj) / (n * (n - 1))
    return 1 - do / de
cols = list(zip(*units))
out = {
  'kappaQ': kappa(cols[0], cols[1], True), 'kappa': kappa(cols[0], cols[1], False),
  'kappaQ02': kappa(cols[0], cols[2], True),
  'kappaL': kappa(cols[0], cols[1], False, linear=True), 'kappaL02': kappa(cols[0], cols[2], False, linear=True),
  'alphaOrdinal': alpha('ordinal'), 'alphaNominal': alpha('nominal'), 'alphaInterval': alpha('interval'),
}
print(json.dumps(out))
`;

// Four raters on 4-point labels (0..3), 14 items, with missing labels throughout.
const U = undefined;
const UNITS: Label[][] = [
  [3, 3, 2, U],
  [2, 2, 2, 3],
  [0, 1, U, 0],
  [1, 1, 1, 1],
  [3, 2, 3, 3],
  [U, 0, 0, 1],
  [2, 3, 2, U],
  [0, 0, U, U],
  [1, 2, 1, 2],
  [3, 3, 3, 3],
  [2, U, 1, 2],
  [0, 0, 0, U],
  [1, 0, U, 1],
  [U, U, 3, U],
];
const col = (r: number) => UNITS.map((u) => u[r]);

describe('agreement statistics', () => {
  it.skipIf(python3Missing)(`equal an independent numpy computation ${python3Missing ?? ''}`, () => {
    const ref = runPython<Record<string, number>>(REFERENCE, {
      units: UNITS.map((u) => u.map((v) => v ?? null)),
      k: 4,
    });
    expect(cohenKappa(col(0), col(1), 4, 'quadratic')).toBeCloseTo(ref.kappaQ as number, 12);
    expect(cohenKappa(col(0), col(1), 4)).toBeCloseTo(ref.kappa as number, 12);
    expect(cohenKappa(col(0), col(2), 4, 'quadratic')).toBeCloseTo(ref.kappaQ02 as number, 12);
    expect(cohenKappa(col(0), col(1), 4, 'linear')).toBeCloseTo(ref.kappaL as number, 12);
    expect(cohenKappa(col(0), col(2), 4, 'linear')).toBeCloseTo(ref.kappaL02 as number, 12);
    expect(krippendorffAlpha(UNITS, 4, 'ordinal')).toBeCloseTo(ref.alphaOrdinal as number, 12);
    expect(krippendorffAlpha(UNITS, 4, 'nominal')).toBeCloseTo(ref.alphaNominal as number, 12);
    expect(krippendorffAlpha(UNITS, 4, 'interval')).toBeCloseTo(ref.alphaInterval as number, 12);
  });

  it("matches Krippendorff's worked example (nominal alpha 0.743)", () => {
    // Krippendorff (2011), the 4 observers x 12 units example with missing values; values 1..5 -> 0..4.
    const rows = [
      [1, 2, 3, 3, 2, 1, 4, 1, 2, U, U, U],
      [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, U, 3],
      [U, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, U],
      [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, U],
    ];
    const units = rows[0]?.map((_, u) => rows.map((r) => (r[u] === U ? U : (r[u] as number) - 1))) ?? [];
    expect(krippendorffAlpha(units, 5, 'nominal')).toBeCloseTo(0.743, 3);
    expect(krippendorffAlpha(units, 5, 'interval')).toBeCloseTo(0.849, 3);
  });

  it('counts only items both raters labelled, and is unavailable, not 0, without variation', () => {
    expect(rawAgreement([0, 1, U, 2], [0, 2, 1, U])).toBe(0.5);
    expect(confusionMatrix([0, 1, U], [0, 0, 1], 2)).toEqual([
      [1, 0],
      [1, 0],
    ]);
    expect(cohenKappa([1, 1, 1], [1, 1, 1], 2)).toBeUndefined();
    expect(cohenKappa([U], [1], 2)).toBeUndefined();
    expect(
      krippendorffAlpha(
        [
          [1, U],
          [U, 1],
        ],
        2,
      ),
    ).toBeUndefined();
    expect(
      krippendorffAlpha(
        [
          [1, 1],
          [1, 1],
        ],
        2,
      ),
    ).toBeUndefined();
  });

  it('gives a percentile interval over items that contains the estimate', () => {
    const items = UNITS.map((u, i) => ({ u, i }));
    const r = overItems(
      items,
      (s) =>
        cohenKappa(
          s.map((x) => x.u[0]),
          s.map((x) => x.u[1]),
          4,
          'quadratic',
        ),
      {
        seed: 7,
        resamples: 500,
      },
    );
    expect(r.value).toBeCloseTo(cohenKappa(col(0), col(1), 4, 'quadratic') as number, 12);
    expect(r.low as number).toBeLessThanOrEqual(r.value as number);
    expect(r.high as number).toBeGreaterThanOrEqual(r.value as number);
    expect((r.high as number) - (r.low as number)).toBeGreaterThan(0.05);
  });

  it('says why a statistic is unavailable, and counts the resamples dropped as undefined', () => {
    const none = overItems([], () => 1, { seed: 1 });
    expect(none).toMatchObject({
      value: undefined,
      resamples: 0,
      unavailable: 'no item both raters labelled',
    });
    const flat = overItems([1, 1, 1], () => undefined, {
      seed: 1,
      resamples: 50,
      undefinedBecause: 'no variation',
    });
    expect(flat).toMatchObject({
      value: undefined,
      resamples: 50,
      undefinedResamples: 50,
      unavailable: 'no variation',
    });
    // Two items, one of each label: a resample drawing one item twice has no chance disagreement.
    // P(both draws alike) = 1/2, so about half of 2,000 resamples are undefined and dropped.
    const pairs = [
      [0, 0],
      [1, 1],
    ];
    const r = overItems(
      pairs,
      (s) =>
        cohenKappa(
          s.map((p) => p[0]),
          s.map((p) => p[1]),
          2,
        ),
      {
        seed: 3,
        resamples: 2000,
      },
    );
    expect(r.value).toBe(1);
    expect(r.undefinedResamples / 2000).toBeGreaterThan(0.45);
    expect(r.undefinedResamples / 2000).toBeLessThan(0.55);
  });
});
