import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sharedFile } from '../test-support/shared.js';
import { lnGamma, oneSampleTTest, studentTCdf, studentTSf, tInterval } from './student-t.js';

const fixturePath = sharedFile('fixtures/student-t-reference.json');

type GridRow = { t: number; df: number; cdf: number; sf: number; cdf_dec?: number; sf_dec?: number };
type TestRow = { x: number[]; t: number; df: number; p: number };

function relErr(got: number, want: number): number {
  if (got === want) return 0;
  return Math.abs(got - want) / Math.abs(want);
}

describe.skipIf(!fixturePath)(
  `Student t vs ../shared/fixtures/student-t-reference.json${fixturePath ? '' : ' (skipped: fixture missing)'}`,
  () => {
    const fixture = fixturePath
      ? (JSON.parse(readFileSync(fixturePath, 'utf8')) as { grid: GridRow[]; tests: TestRow[] })
      : { grid: [], tests: [] };

    // `*_dec` are high-precision values, given for t >= 0. scipy itself is off by ~3e-9 at
    // t = ±1e-8, df = 1 (true cdf = 0.5 + atan(t)/π), so the reference is the high-precision value
    // where one exists for t or (by symmetry, cdf(t) = sf(-t)) for -t, and scipy's otherwise.
    const dec = new Map<string, GridRow>();
    for (const row of fixture.grid) if (row.cdf_dec !== undefined) dec.set(`${row.t}|${row.df}`, row);
    const reference = (row: GridRow): { cdf: number; sf: number } => {
      const own = dec.get(`${row.t}|${row.df}`);
      if (own?.cdf_dec !== undefined && own.sf_dec !== undefined) return { cdf: own.cdf_dec, sf: own.sf_dec };
      const mirror = dec.get(`${-row.t}|${row.df}`);
      if (mirror?.cdf_dec !== undefined && mirror.sf_dec !== undefined)
        return { cdf: mirror.sf_dec, sf: mirror.cdf_dec };
      return { cdf: row.cdf, sf: row.sf };
    };

    it(`grid cdf and sf within 1e-9 relative (${fixture.grid.length} points)`, () => {
      const bad: string[] = [];
      let worst = 0;
      for (const row of fixture.grid) {
        const ref = reference(row);
        const e = Math.max(
          relErr(studentTCdf(row.t, row.df), ref.cdf),
          relErr(studentTSf(row.t, row.df), ref.sf),
        );
        worst = Math.max(worst, e);
        if (e > 1e-9) bad.push(`t=${row.t} df=${row.df} err=${e}`);
      }
      expect(bad).toEqual([]);
      // Tighter than required: catches a regression to `1 - cdf` or a cancelling lnBeta.
      expect(worst).toBeLessThan(1e-11);
    });

    it('matches scipy to 1e-9 everywhere except where scipy is itself off (t = ±1e-8, df = 1)', () => {
      const bad = fixture.grid.filter(
        (row) =>
          !(Math.abs(row.t) === 1e-8 && row.df === 1) &&
          Math.max(relErr(studentTCdf(row.t, row.df), row.cdf), relErr(studentTSf(row.t, row.df), row.sf)) >
            1e-9,
      );
      expect(bad).toEqual([]);
    });

    it(`one-sided tests: t and p as scipy ttest_1samp(x, 0, alternative="greater") (${fixture.tests.length} samples)`, () => {
      for (const row of fixture.tests) {
        const r = oneSampleTTest(row.x, 0, 'greater');
        expect(r).toBeDefined();
        if (!r) continue;
        expect(r.df).toBe(row.df);
        expect(r.n).toBe(row.x.length);
        expect(relErr(r.t, row.t)).toBeLessThan(1e-10);
        expect(relErr(r.p, row.p)).toBeLessThan(1e-9);
      }
    });
  },
);

describe('Student t closed forms and edge cases', () => {
  it('df = 1 is Cauchy (tails atan(1/|t|)/π) and df = 2 has a closed form', () => {
    for (const t of [-1e6, -30, -2.5, -1, -0.3, -1e-9]) {
      expect(relErr(studentTCdf(t, 1), Math.atan(-1 / t) / Math.PI)).toBeLessThan(1e-13);
      expect(relErr(studentTSf(-t, 1), Math.atan(-1 / t) / Math.PI)).toBeLessThan(1e-13);
      // df = 2: lower tail 1/2 - |t|/(2 sqrt(2 + t²)) = 1 / (sqrt(2 + t²) (sqrt(2 + t²) + |t|)), no cancellation.
      const r = Math.sqrt(2 + t * t);
      expect(relErr(studentTCdf(t, 2), 1 / (r * (r - t)))).toBeLessThan(1e-13);
    }
  });

  it('symmetry, limits, and a p-value far below 1e-16 that `1 - cdf` would return as 0', () => {
    expect(studentTCdf(0, 5)).toBe(0.5);
    expect(studentTCdf(Number.POSITIVE_INFINITY, 3)).toBe(1);
    expect(studentTSf(Number.POSITIVE_INFINITY, 3)).toBe(0);
    expect(Number.isNaN(studentTCdf(1, 0))).toBe(true);
    expect(Number.isNaN(studentTCdf(Number.NaN, 3))).toBe(true);
    for (const [t, df] of [
      [1.3, 4],
      [3, 7.3],
      [0.01, 100000],
    ] as const) {
      expect(relErr(studentTSf(t, df), studentTCdf(-t, df))).toBe(0);
      expect(studentTCdf(t, df) + studentTSf(t, df)).toBeCloseTo(1, 14);
    }
    // df = 1, t = 1e20: sf = atan(1/t)/π ≈ 1/(π t).
    expect(relErr(studentTSf(1e20, 1), 1 / (Math.PI * 1e20))).toBeLessThan(1e-12);
  });

  it('lnGamma matches factorials and Γ(1/2) = √π', () => {
    expect(relErr(lnGamma(0.5), 0.5 * Math.log(Math.PI))).toBeLessThan(1e-14);
    expect(Math.abs(lnGamma(1))).toBeLessThan(1e-14);
    expect(relErr(lnGamma(21), Math.log(2432902008176640000))).toBeLessThan(1e-14);
  });
});

describe('oneSampleTTest edge cases', () => {
  it('undefined for n < 2 or non-finite input', () => {
    expect(oneSampleTTest([], 0, 'greater')).toBeUndefined();
    expect(oneSampleTTest([3], 0, 'greater')).toBeUndefined();
    expect(oneSampleTTest([1, Number.NaN], 0, 'greater')).toBeUndefined();
  });

  it('zero variance: t = ±inf with the limiting p, undefined when the mean equals mu0', () => {
    expect(oneSampleTTest([0.1, 0.1, 0.1], 0, 'greater')).toEqual({
      t: Number.POSITIVE_INFINITY,
      df: 2,
      p: 0,
      n: 3,
      mean: 0.1,
    });
    expect(oneSampleTTest([0.1, 0.1, 0.1], 0, 'less')?.p).toBe(1);
    expect(oneSampleTTest([-2, -2], 0, 'greater')?.p).toBe(1);
    expect(oneSampleTTest([-2, -2], 0, 'less')?.p).toBe(0);
    expect(oneSampleTTest([-2, -2], 0, 'two-sided')?.p).toBe(0);
    expect(oneSampleTTest([5, 5, 5], 5, 'greater')).toBeUndefined();
  });

  it('alternatives relate as they should; hand-computed t', () => {
    // x = [1,2,3,4]: mean 2.5, sd = sqrt(5/3), t = (2.5 - 1) / (sd / 2)
    const r = oneSampleTTest([1, 2, 3, 4], 1, 'greater');
    const t = 1.5 / (Math.sqrt(5 / 3) / 2);
    expect(r?.t).toBeCloseTo(t, 14);
    expect(r?.mean).toBe(2.5);
    const less = oneSampleTTest([1, 2, 3, 4], 1, 'less');
    const two = oneSampleTTest([1, 2, 3, 4], 1, 'two-sided');
    expect((r?.p ?? 0) + (less?.p ?? 0)).toBeCloseTo(1, 14);
    expect(two?.p).toBeCloseTo(2 * (r?.p ?? 0), 15);
  });
});

describe('tInterval (SAGO SGS over prompts, issue 37.5)', () => {
  it("equals scipy's t.interval(conf, n - 1, mean, sd / sqrt(n))", () => {
    const cases: [number, number, number, number][] = [
      [0.137, 0.003, 2, 0.95],
      [0.124, 0.06, 40, 0.95],
      [1.5, 0.8, 7, 0.9],
    ];
    const script = `
import json, sys, math
from scipy.stats import t
print(json.dumps([list(t.interval(c, n - 1, loc=m, scale=s / math.sqrt(n))) for m, s, n, c in json.loads(sys.argv[1])]))`;
    const ref = JSON.parse(
      execFileSync('python3', ['-c', script, JSON.stringify(cases)], { encoding: 'utf8' }),
    ) as [number, number][];
    cases.forEach(([mean, sd, n, confidence], i) => {
      const ci = tInterval(mean, sd, n, confidence);
      expect(ci?.low).toBeCloseTo((ref[i] as [number, number])[0], 9);
      expect(ci?.high).toBeCloseTo((ref[i] as [number, number])[1], 9);
    });
    // Two prompts (the "0.137 (sd 0.003) over 2 prompts"): t(1) makes it wide, as it should be.
    expect((tInterval(0.137, 0.003, 2)?.high as number) - 0.137).toBeGreaterThan(0.02);
    expect(tInterval(0.137, undefined, 1)).toBeUndefined();
  });
});
