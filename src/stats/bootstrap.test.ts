import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { PyRandom } from '../util/random.js';
import { clusterBootstrap, percentile, percentilesOf } from './bootstrap.js';

const mean = (xs: readonly number[]): number | undefined => {
  if (xs.length === 0) return undefined;
  let s = 0;
  for (const x of xs) s += x;
  return s / xs.length;
};

function python(args: string[], input?: string): string | undefined {
  try {
    return execFileSync('python3', args, { encoding: 'utf8', input, maxBuffer: 64 * 1024 * 1024 });
  } catch {
    return undefined;
  }
}
const havePython = python(['-c', 'import random, json']) !== undefined;
const haveNumpy = havePython && python(['-c', 'import numpy']) !== undefined;

describe('clusterBootstrap', () => {
  const data = Array.from({ length: 32 }, (_, i) => ((i * 37) % 11) / 10);

  it('is reproducible for a seed and changes with the seed', () => {
    const a = clusterBootstrap(data, mean, { seed: 7 });
    const b = clusterBootstrap(data, mean, { seed: 7 });
    const c = clusterBootstrap(data, mean, { seed: 8 });
    expect(a).toEqual(b);
    expect(a.distribution).toHaveLength(2000);
    expect(c.distribution).not.toEqual(a.distribution);
    expect(a.estimate).toBe(mean(data));
    expect(a.low).toBeLessThan(a.estimate as number);
    expect(a.high).toBeGreaterThan(a.estimate as number);
  });

  it('a constant statistic gives a zero-width CI', () => {
    const r = clusterBootstrap(data, () => 0.25, { seed: 1, resamples: 100 });
    expect(r).toMatchObject({ estimate: 0.25, low: 0.25, high: 0.25, resamples: 100, undefinedResamples: 0 });
  });

  it('two clusters: every resample is one of the 4 enumerable outcomes, in the right proportions', () => {
    // Ordered draws (0,0) -> 0, (0,1) and (1,0) -> 0.5, (1,1) -> 1: probabilities 1/4, 1/2, 1/4.
    const r = clusterBootstrap([0, 1], mean, { seed: 3, resamples: 4000 });
    const counts = new Map<number, number>();
    for (const v of r.distribution) counts.set(v, (counts.get(v) ?? 0) + 1);
    expect([...counts.keys()].sort()).toEqual([0, 0.5, 1]);
    // ±5 standard deviations of a binomial(4000, p).
    expect(Math.abs((counts.get(0) ?? 0) - 1000)).toBeLessThan(5 * Math.sqrt(4000 * 0.25 * 0.75));
    expect(Math.abs((counts.get(0.5) ?? 0) - 2000)).toBeLessThan(5 * Math.sqrt(4000 * 0.25));
    // 2.5% and 97.5% fall inside the 0 and 1 blocks.
    expect(r).toMatchObject({ estimate: 0.5, low: 0, high: 1 });
  });

  it('two clusters, 6 resamples: draws follow PyRandom choices, CI by hand', () => {
    const rng = new PyRandom(11);
    const expected: number[] = [];
    for (let b = 0; b < 6; b++) expected.push(mean(rng.choices([0, 1], 2)) as number);
    const r = clusterBootstrap([0, 1], mean, { seed: 11, resamples: 6, confidence: 0.5 });
    expect(r.distribution).toEqual(expected);
    const sorted = [...expected].sort((x, y) => x - y);
    // q = 0.25 over 6 values: h = 1.25, between sorted[1] and sorted[2]; q = 0.75: h = 3.75.
    expect(r.low).toBeCloseTo(
      (sorted[1] as number) + 0.25 * ((sorted[2] as number) - (sorted[1] as number)),
      15,
    );
    expect(r.high).toBeCloseTo(
      (sorted[3] as number) + 0.75 * ((sorted[4] as number) - (sorted[3] as number)),
      15,
    );
  });

  it('undefined statistics are counted and excluded; all undefined leaves the CI undefined', () => {
    // Undefined when only cluster 0 was drawn: probability 1/4 per resample.
    const onlyZeros = (s: readonly number[]) => (s.every((x) => x === 0) ? undefined : mean(s));
    const r = clusterBootstrap([0, 1], onlyZeros, { seed: 5, resamples: 2000 });
    expect(r.undefinedResamples + r.distribution.length).toBe(2000);
    expect(Math.abs(r.undefinedResamples - 500)).toBeLessThan(5 * Math.sqrt(2000 * 0.25 * 0.75));
    expect(r.distribution.every((v) => v === 0.5 || v === 1)).toBe(true);

    const none = clusterBootstrap([1, 2, 3], () => undefined, { seed: 5, resamples: 50 });
    expect(none).toEqual({
      estimate: undefined,
      low: undefined,
      high: undefined,
      resamples: 50,
      undefinedResamples: 50,
      distribution: [],
    });
    // NaN is "cannot be computed" too, never a number in the CI.
    expect(clusterBootstrap([1, 2], () => Number.NaN, { seed: 1, resamples: 5 }).undefinedResamples).toBe(5);
  });

  it('no clusters: nothing to resample, CI undefined', () => {
    expect(clusterBootstrap([], mean, { seed: 1 })).toEqual({
      estimate: undefined,
      low: undefined,
      high: undefined,
      resamples: 0,
      undefinedResamples: 0,
      distribution: [],
    });
  });

  it('statisticOnIndices gives the same result as statistic', () => {
    const slow = clusterBootstrap(data, mean, { seed: 99 });
    const fast = clusterBootstrap(data, mean, {
      seed: 99,
      statisticOnIndices: (idx) => {
        let s = 0;
        for (const i of idx) s += data[i] as number;
        return s / idx.length;
      },
    });
    expect(fast).toEqual(slow);
  });

  it('rejects bad options', () => {
    expect(() => clusterBootstrap(data, mean, { seed: 1, resamples: 0 })).toThrow(RangeError);
    expect(() => clusterBootstrap(data, mean, { seed: 1, confidence: 1 })).toThrow(RangeError);
  });

  it('2,000 resamples over 32 clusters for each of 30 models in well under a second', () => {
    // Each cluster (item) holds one 0/1 score per model; one bootstrap per model, as a report does.
    const items = Array.from({ length: 32 }, (_, i) =>
      Array.from({ length: 30 }, (_, m) => ((i * 7 + m * 3) % 5 === 0 ? 0 : 1)),
    );
    const start = performance.now();
    for (let m = 0; m < 30; m++) {
      clusterBootstrap(items, (s) => mean(s.map((row) => row[m] as number)), { seed: m });
    }
    const ms = performance.now() - start;
    console.log(`clusterBootstrap: 30 models x 2000 resamples x 32 clusters in ${ms.toFixed(0)} ms`);
    expect(ms).toBeLessThan(1000);
  });
});

describe.skipIf(!havePython)(
  `clusterBootstrap and percentile vs python3${havePython ? '' : ' (skipped: python3 not found)'}`,
  () => {
    it('the same resamples and CI as the documented Python recipe (rng.choices, linear percentile)', () => {
      const data = Array.from({ length: 17 }, (_, i) => Math.sin(i * 1.7) + i / 10);
      const script = `
import json, math, random, sys
data = json.load(sys.stdin)
rng = random.Random(2024)
n = len(data)
dist = []
for _ in range(500):
    s = [data[i] for i in rng.choices(range(n), k=n)]
    total = 0.0
    for x in s: total += x
    dist.append(total / n)
def lin(sorted_xs, q):
    h = (len(sorted_xs) - 1) * q
    lo = math.floor(h); hi = min(lo + 1, len(sorted_xs) - 1); g = h - lo
    a, b = sorted_xs[lo], sorted_xs[hi]
    return b - (b - a) * (1 - g) if g >= 0.5 else a + (b - a) * g
srt = sorted(dist)
print(json.dumps({"dist": dist, "low": lin(srt, 0.05), "high": lin(srt, 0.95)}))
`;
      const ref = JSON.parse(python(['-c', script], JSON.stringify(data)) as string) as {
        dist: number[];
        low: number;
        high: number;
      };
      const r = clusterBootstrap(data, mean, { seed: 2024, resamples: 500, confidence: 0.9 });
      expect(r.distribution).toEqual(ref.dist);
      expect(r.low).toBe(ref.low);
      expect(r.high).toBe(ref.high);
    });

    it('percentile equals linear interpolation computed by hand in Python (and numpy when present)', () => {
      const rng = new PyRandom(77);
      const arrays = [
        [3.5],
        [1, 2],
        ...[3, 10, 33, 2000].map((n) => Array.from({ length: n }, () => rng.random() * 100 - 50)),
      ].map((xs) => [...xs].sort((a, b) => a - b));
      const qs = [0, 0.025, 0.1, 0.25, 0.5, 0.7, 0.9, 0.975, 1];
      const script = `
import json, math, sys
cases = json.load(sys.stdin)
def lin(xs, q):
    h = (len(xs) - 1) * q
    lo = math.floor(h); hi = min(lo + 1, len(xs) - 1); g = h - lo
    return xs[lo] + (xs[hi] - xs[lo]) * g
out = {"hand": [[lin(xs, q) for q in cases["qs"]] for xs in cases["arrays"]]}
try:
    import numpy as np
    out["numpy"] = [[float(np.percentile(np.array(xs), q * 100)) for q in cases["qs"]] for xs in cases["arrays"]]
except ImportError:
    pass
print(json.dumps(out))
`;
      const ref = JSON.parse(python(['-c', script], JSON.stringify({ arrays, qs })) as string) as {
        hand: number[][];
        numpy?: number[][];
      };
      arrays.forEach((xs, i) => {
        qs.forEach((q, j) => {
          const got = percentile(xs, q);
          const hand = ref.hand[i]?.[j] as number;
          expect(Math.abs(got - hand)).toBeLessThanOrEqual(1e-12 * Math.max(1, Math.abs(hand)));
          // numpy's _lerp is what we port, so with numpy the match is exact.
          if (ref.numpy) expect(got).toBe(ref.numpy[i]?.[j]);
        });
      });
      if (!haveNumpy)
        console.log('percentile: numpy not installed, compared with the hand-written interpolation only');
    });
  },
);

describe('percentile', () => {
  it('hand-computed values and errors', () => {
    expect(percentile([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(percentile([1, 2, 3, 4], 0)).toBe(1);
    expect(percentile([1, 2, 3, 4], 1)).toBe(4);
    expect(percentile([10, 20], 0.025)).toBeCloseTo(10.25, 12);
    expect(percentile([7], 0.3)).toBe(7);
    expect(() => percentile([], 0.5)).toThrow(RangeError);
    expect(() => percentile([1], 1.5)).toThrow(RangeError);
  });
});

describe('percentilesOf', () => {
  it('gives percentile of the sorted defined values, bit for bit, whatever the order, ties and NaNs', () => {
    const rng = new PyRandom(11);
    const qs = [0, 0.025, 0.5, 0.975, 1, 0.1234];
    const shapes: [string, (n: number) => number[]][] = [
      ['uniform', (n) => Array.from({ length: n }, () => rng.random())],
      ['few values', (n) => Array.from({ length: n }, () => rng.randrange(4) / 3)],
      ['constant', (n) => Array.from({ length: n }, () => 0.5)],
      ['ascending', (n) => Array.from({ length: n }, (_, i) => i / n)],
      ['descending', (n) => Array.from({ length: n }, (_, i) => -i)],
      ['with NaN', (n) => Array.from({ length: n }, () => (rng.random() < 0.3 ? Number.NaN : rng.random()))],
    ];
    let checked = 0;
    for (const [name, make] of shapes)
      for (const n of [1, 2, 3, 10, 101, 2000]) {
        const values = Float64Array.from(make(n));
        const before = Float64Array.from(values);
        const sorted = Float64Array.from(values).sort();
        const defined = sorted.filter((v) => !Number.isNaN(v));
        const got = percentilesOf(values, qs);
        expect(values, `${name} ${n}: input untouched`).toEqual(before);
        if (defined.length === 0) {
          expect(got).toBeUndefined();
          continue;
        }
        expect(got, `${name} ${n}`).toEqual(qs.map((q) => percentile(defined, q)));
        checked++;
      }
    expect(checked).toBeGreaterThan(30);
    expect(percentilesOf(Float64Array.of(Number.NaN, Number.NaN), [0.5])).toBeUndefined();
  });
});
