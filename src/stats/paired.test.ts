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
    const r = pairedComparison(pairs, { seed: 1, resamples: 200 });
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

  it('resamples clusters exactly as Python random.Random(seed).choices would (percentile CI reproduced in python3)', () => {
    const r = pairedComparison(pairs, { seed: 42, resamples: 300, confidence: 0.9 });
    const clusters = [...new Set(pairs.map((p) => p.cluster))].map((id) => {
      const ps = pairs.filter((p) => p.cluster === id);
      return [
        ps.length,
        ps.filter((p) => p.base && !p.new).length,
        ps.filter((p) => !p.base && p.new).length,
      ];
    });
    const script = `
import json, random, sys
cl = json.loads(sys.argv[1])
rng = random.Random(42)
n = len(cl)
d = []
for _ in range(300):
    idx = rng.choices(range(n), k=n)
    tot = sum(cl[i][0] for i in idx); net = sum(cl[i][2] - cl[i][1] for i in idx)
    d.append(net / tot)
d.sort()
def q(p):
    h = (len(d) - 1) * p; lo = int(h); hi = min(lo + 1, len(d) - 1)
    return d[lo] + (d[hi] - d[lo]) * (h - lo)
print(json.dumps([q(0.05), q(0.95)]))`;
    const [low, high] = JSON.parse(
      execFileSync('python3', ['-c', script, JSON.stringify(clusters)], { encoding: 'utf8' }),
    ) as [number, number];
    expect(r.difference.low).toBeCloseTo(low, 12);
    expect(r.difference.high).toBeCloseTo(high, 12);
    expect(r.difference.resamples).toBe(300);
    expect(r.difference.low as number).toBeLessThan(r.difference.high as number);
  });

  it('with no pairs: McNemar p = 1, the difference unavailable, never 0', () => {
    const r = pairedComparison([], { seed: 0 });
    expect(r.mcnemar.p).toBe(1);
    expect(r.baseAccuracy).toBeUndefined();
    expect(r.difference.estimate).toBeUndefined();
    expect(r.difference.low).toBeUndefined();
  });
});
