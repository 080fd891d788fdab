import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { mcnemarExact, type PairedObservation, pairedComparison } from './paired.js';

/** Exact McNemar p and mid-p from Python's integers (math.comb, Fraction): no floating point until the end. */
function pythonMcNemar(cases: [number, number][]): [number, number][] {
  const script = `
import json, sys
from fractions import Fraction
from math import comb
out = []
for b, c in json.loads(sys.argv[1]):
    m = b + c
    if m == 0:
        out.append([1.0, 1.0]); continue
    k = min(b, c)
    cdf = Fraction(sum(comb(m, i) for i in range(k + 1)), 2 ** m)
    pmf = Fraction(comb(m, k), 2 ** m)
    out.append([float(min(1, 2 * cdf)), float(min(1, 2 * cdf - pmf))])
print(json.dumps(out))`;
  return JSON.parse(execFileSync('python3', ['-c', script, JSON.stringify(cases)], { encoding: 'utf8' }));
}

describe('mcnemarExact', () => {
  it('matches a hand-computed table: b=1, c=7 (8 discordant pairs)', () => {
    // P(X <= 1) = (C(8,0) + C(8,1)) / 2^8 = 9/256; exact p = 18/256; P(X = 1) = 8/256; mid-p = 10/256.
    const r = mcnemarExact(1, 7);
    expect(r.p).toBe(18 / 256);
    expect(r.midP).toBe(10 / 256);
    // The same table read the other way round gives the same two-sided p.
    expect(mcnemarExact(7, 1).p).toBe(18 / 256);
  });

  it('matches hand values at the edges: no discordant pairs, ties, all one way', () => {
    expect(mcnemarExact(0, 0)).toEqual({ b: 0, c: 0, p: 1, midP: 1 });
    expect(mcnemarExact(5, 5).p).toBe(1);
    expect(mcnemarExact(5, 5).midP).toBeCloseTo(1, 14);
    // b=0, c=6: P(X <= 0) = 1/64, p = 2/64, mid-p = 1/64.
    expect(mcnemarExact(0, 6).p).toBe(2 / 64);
    expect(mcnemarExact(0, 6).midP).toBe(1 / 64);
  });

  it('agrees with exact integer arithmetic in python3 (math.comb) from tiny to thousands of pairs', () => {
    const cases: [number, number][] = [
      [0, 1],
      [2, 9],
      [10, 3],
      [25, 25],
      [40, 61],
      [130, 170],
      [900, 1010],
      [1500, 1320],
      [0, 1200],
      [3, 2000],
    ];
    const expected = pythonMcNemar(cases);
    cases.forEach(([b, c], i) => {
      const [p, midP] = expected[i] as [number, number];
      const r = mcnemarExact(b, c);
      // Relative agreement (p spans 1 down to 1e-600-ish, which underflows to 0 in both).
      if (p === 0) expect(r.p).toBeLessThan(1e-300);
      else expect(Math.abs(r.p - p) / p, `p of b=${b}, c=${c}`).toBeLessThan(1e-10);
      if (midP === 0) expect(r.midP).toBeLessThan(1e-300);
      else expect(Math.abs(r.midP - midP) / midP, `mid-p of b=${b}, c=${c}`).toBeLessThan(1e-10);
    });
  });

  it('refuses counts that are not non-negative integers', () => {
    expect(() => mcnemarExact(-1, 2)).toThrow(RangeError);
    expect(() => mcnemarExact(1.5, 2)).toThrow(RangeError);
  });
});

describe('pairedComparison', () => {
  // 30 clusters of 4 pairs; the new model loses a few answers the base model had.
  const pairs: PairedObservation[] = [];
  for (let s = 0; s < 30; s++)
    for (let t = 0; t < 4; t++) {
      const base = (s * 7 + t) % 5 !== 0;
      const flip = (s * 3 + t) % 7 === 0;
      pairs.push({ cluster: `seed-${s}`, base, new: flip ? !base : base });
    }

  it('counts the 2x2 table and the accuracies over the pairs', () => {
    const r = pairedComparison(pairs);
    const { a, b, c, d } = r.table;
    expect(a + b + c + d).toBe(120);
    expect(r.n).toBe(120);
    expect(r.clusters).toBe(30);
    expect(a).toBe(pairs.filter((p) => p.base && p.new).length);
    expect(b).toBe(pairs.filter((p) => p.base && !p.new).length);
    expect(c).toBe(pairs.filter((p) => !p.base && p.new).length);
    expect(r.baseAccuracy).toBeCloseTo((a + b) / 120, 15);
    expect(r.newAccuracy).toBeCloseTo((a + c) / 120, 15);
    expect(r.difference.estimate).toBeCloseTo((c - b) / 120, 15);
    expect(r.mcnemar).toEqual(mcnemarExact(b, c));
  });

  it("Newcombe's interval with the design effect, as an independent python3 (scipy) computes them", () => {
    // Whole seeds flip together (every sixth), so the clusters' design effect is above 1.
    const clustered = pairs.map((p, i) => {
      const s = Math.floor(i / 4);
      return s % 6 === 0 ? { ...p, new: !p.base } : p;
    });
    const r = pairedComparison(clustered, { confidence: 0.9 });
    const clusters = [...new Set(clustered.map((p) => p.cluster))].map((id) => {
      const ps = clustered.filter((p) => p.cluster === id);
      return [
        ps.length,
        ps.filter((p) => p.base && !p.new).length,
        ps.filter((p) => !p.base && p.new).length,
      ];
    });
    const [low, high, deff] = JSON.parse(
      execFileSync('python3', ['-c', NEWCOMBE_PY, JSON.stringify(clusters), JSON.stringify(r.table), '0.9'], {
        encoding: 'utf8',
      }),
    ) as [number, number, number];
    expect(r.difference.designEffect).toBeCloseTo(deff, 12);
    expect(r.difference.designEffect).toBeGreaterThan(1);
    expect(r.difference.low).toBeCloseTo(low, 7);
    expect(r.difference.high).toBeCloseTo(high, 7);
    expect(r.difference.low as number).toBeLessThan(r.difference.estimate as number);
    expect(r.difference.high as number).toBeGreaterThan(r.difference.estimate as number);
  });

  it("matches the published Newcombe square-and-add interval (Fagerland et al. 2017, Cavo 2012's table)", () => {
    // Their table [[59, 6], [16, 80]] reads the first margin as 65/161 and the second as 75/161:
    // as new and base here, estimate -0.0621 (95% CI -0.1186 to -0.0046), one pair per cluster.
    const table: PairedObservation[] = [];
    const add = (count: number, base: boolean, next: boolean) => {
      for (let i = 0; i < count; i++) table.push({ cluster: `c${table.length}`, base, new: next });
    };
    add(59, true, true);
    add(16, true, false);
    add(6, false, true);
    add(80, false, false);
    const d = pairedComparison(table).difference;
    expect(d.designEffect).toBe(1);
    expect(d.estimate).toBeCloseTo(-0.0621, 4);
    expect(d.low).toBeCloseTo(-0.1186, 4);
    expect(d.high).toBeCloseTo(-0.0046, 4);
  });

  it('clusters of one pair have design effect 1; identical clusters of 4 inflate it', () => {
    const single = pairs.map((p, i) => ({ ...p, cluster: `p${i}` }));
    expect(pairedComparison(single).difference.designEffect).toBe(1);
    // Every discordant pair of a cluster moves together: 10 clusters all b, 20 all concordant.
    const lumpy: PairedObservation[] = [];
    for (let s = 0; s < 30; s++)
      for (let t = 0; t < 4; t++) lumpy.push({ cluster: `s${s}`, base: true, new: s >= 10 });
    const r = pairedComparison(lumpy);
    expect(r.difference.designEffect).toBeGreaterThan(3);
    const indep = pairedComparison(lumpy.map((p, i) => ({ ...p, cluster: `p${i}` })));
    expect((r.difference.high as number) - (r.difference.low as number)).toBeGreaterThan(
      (indep.difference.high as number) - (indep.difference.low as number),
    );
  });

  it('with no pairs: McNemar p = 1, the difference unavailable, never 0', () => {
    const r = pairedComparison([]);
    expect(r.mcnemar.p).toBe(1);
    expect(r.baseAccuracy).toBeUndefined();
    expect(r.difference.estimate).toBeUndefined();
    expect(r.difference.low).toBeUndefined();
  });
});

/** Newcombe 1998 method 10 with Fagerland et al.'s corrected correlation, on the table / design effect. */
const NEWCOMBE_PY = `
import json, math, sys
from scipy.stats import norm
cl = json.loads(sys.argv[1]); t = json.loads(sys.argv[2]); conf = float(sys.argv[3])
n = sum(c[0] for c in cl); k = len(cl); d = sum(c[2] - c[1] for c in cl) / n
vc = k / (k - 1) * sum((c[2] - c[1] - d * c[0]) ** 2 for c in cl) / n ** 2
disc = [1] * (t['b'] + t['c']) + [0] * (t['a'] + t['d'])
vi = sum(((1 if i < t['c'] else -1 if i < t['b'] + t['c'] else 0) - d) ** 2 for i in range(n)) / (n * (n - 1))
deff = max(1.0, vc / vi)
a, b, c, dd = (t[x] / deff for x in 'abcd')
m = a + b + c + dd; z = norm.ppf(1 - (1 - conf) / 2)
def wilson(x):
    p = x / m; cen = (p + z * z / (2 * m)) / (1 + z * z / m)
    h = z * math.sqrt(p * (1 - p) / m + z * z / (4 * m * m)) / (1 + z * z / m)
    return max(0, cen - h), min(1, cen + h)
p1 = (a + b) / m; p2 = (a + c) / m; l1, u1 = wilson(a + b); l2, u2 = wilson(a + c)
A = a * dd - b * c; den = (a + b) * (c + dd) * (a + c) * (b + dd)
psi = 0 if den == 0 else ((A - m / 2) if A > m / 2 else 0 if A >= 0 else A) / math.sqrt(den)
th = p2 - p1
lo = th - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2 - 2 * psi * (p2 - l2) * (u1 - p1))
hi = th + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2 - 2 * psi * (u2 - p2) * (p1 - l1))
print(json.dumps([lo, hi, deff]))`;
