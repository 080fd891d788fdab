import { describe, expect, it } from 'vitest';
import { python3Missing, runPython } from '../test-support/python3.js';
import { plan } from './designs.js';

// Independent references in scipy: Connor's n, the exact McNemar power by brute force and the
// smallest n scanned from 1, SAA's per-item rate from scipy's beta-binomial, and the Collapse
// Point shift's power enumerated over every count of every level (no shared code with waver).
const REFERENCE = `
import json, sys, math, itertools
import numpy as np
from scipy.stats import norm, binom, betabinom
cases = json.load(sys.stdin)
def connor(p10, p01, alpha=0.05, power=0.8, sides=2):
    za, zb = norm.ppf(1 - alpha / sides), norm.ppf(power)
    psi, d = p10 + p01, p10 - p01
    return math.ceil((za * math.sqrt(psi) + zb * math.sqrt(psi - d * d)) ** 2 / d ** 2 - 1e-9)
crit = {}
def k_of(m, alpha, sides):
    if (m, alpha, sides) not in crit:
        ok = np.nonzero((2 if sides == 2 else 1) * binom.cdf(np.arange(m + 1), m, 0.5) < alpha)[0]
        crit[(m, alpha, sides)] = int(ok[-1]) if len(ok) else -1
    return crit[(m, alpha, sides)]
def exact_power(n, p10, p01, alpha, sides):
    hi, lo = max(p10, p01), min(p10, p01)
    psi = hi + lo
    ks = np.array([k_of(m, alpha, sides) for m in range(n + 1)])
    ms = np.arange(n + 1)
    return float(np.sum(np.where(ks >= 0, binom.pmf(ms, n, psi) * binom.cdf(ks, ms, lo / psi), 0)))
def exact_n(p10, p01, alpha=0.05, power=0.8, sides=2):
    for n in range(1, 5000):
        if exact_power(n, p10, p01, alpha, sides) >= power: return n
def saa_rate(p, m, icc):
    t = (1 - icc) / icc
    return float(betabinom.pmf(m, m, p * t, (1 - p) * t))
def cp_dist(curve, cells, ratio):
    L = len(curve)
    out = np.zeros(L + 1)
    for k0 in range(1, cells + 1):  # k0 = 0: acc(L0) = 0, the Collapse Point is unavailable
        w = binom.pmf(k0, cells, curve[0])
        standing = w
        for i in range(1, L):
            # k_i / cells < ratio * k0 / cells less the metrics' slack, counted one k at a time
            c = sum(binom.pmf(k, cells, curve[i]) for k in range(cells + 1) if k / cells < ratio * (k0 / cells) - 1e-12)
            out[i] += standing * c
            standing *= 1 - c
        out[L] += standing
    return out
def cp_power(a, b, n, repeats, ratio):
    da, db = cp_dist(a, n * repeats, ratio), cp_dist(b, n * repeats, ratio)
    return float(sum(da[j] * db[j + 1:].sum() for j in range(1, len(da))))
out = {}
out['paired01'] = {'connor': connor(0.1, 0.0), 'exact': exact_n(0.1, 0.0)}
sa, sb = saa_rate(0.9, 10, 0.5), saa_rate(0.85, 10, 0.5)
p10, p01 = sa * (1 - sb), sb * (1 - sa)
out['saa'] = {'saaA': sa, 'saaB': sb, 'connor': connor(p10, p01), 'exact': exact_n(p10, p01),
              'connor1': connor(p10, p01, sides=1), 'exact1': exact_n(p10, p01, sides=1)}
a, b = cases['curveA'], cases['curveB']
powers = [cp_power(a, b, n, 3, 0.8) for n in range(1, 40)]
out['collapse'] = {'n': next(n for n, p in zip(range(1, 40), powers) if p >= 0.8), 'powers': powers}
print(json.dumps(out))
`;

const CASES = { curveA: [0.7, 0.5, 0.4], curveB: [0.7, 0.65, 0.6] };

type Ref = {
  paired01: { connor: number; exact: number };
  saa: { saaA: number; saaB: number; connor: number; exact: number; connor1: number; exact1: number };
  collapse: { n: number; powers: number[] };
};

const base = { alpha: 0.05, power: 0.8, sides: 2 as const };

describe.skipIf(python3Missing)(`waver plan against scipy ${python3Missing ?? ''}`, () => {
  const ref = python3Missing ? undefined : runPython<Ref>(REFERENCE, CASES);
  const r = ref as Ref;

  it('paired-proportions with the discordance at |d| (p01 = 0): Connor 77, and the exact test’s n', () => {
    const exact = plan({ ...base, design: 'paired-proportions', p: [0.8, 0.7], discordance: 0.1 });
    expect(exact.details.asymptoticN).toBe(r.paired01.connor);
    expect(r.paired01.connor).toBe(77);
    expect(exact.n).toBe(r.paired01.exact);
    const asym = plan({
      ...base,
      design: 'paired-proportions',
      p: [0.8, 0.7],
      discordance: 0.1,
      test: 'asymptotic',
    });
    expect(asym.n).toBe(77);
  });

  it('saa from stated rates: the beta-binomial SAA rates, then McNemar on items, exact and Connor, 1 and 2 sides', () => {
    const input = { ...base, design: 'saa' as const, p: [0.9, 0.85], cells: 10, icc: 0.5 };
    const two = plan(input);
    expect(two.details.saaA as number).toBeCloseTo(r.saa.saaA, 12);
    expect(two.details.saaB as number).toBeCloseTo(r.saa.saaB, 12);
    expect(two.details.asymptoticN).toBe(r.saa.connor);
    expect(two.n).toBe(r.saa.exact);
    const one = plan({ ...input, sides: 1 });
    expect(one.details.asymptoticN).toBe(r.saa.connor1);
    expect(one.n).toBe(r.saa.exact1);
    expect(one.n as number).toBeLessThan(two.n as number);
    // The same input always gives the same n: nothing is simulated.
    expect(plan(input).n).toBe(two.n);
  });

  it('collapse-shift: the exact power equals the enumeration, and n is the smallest that reaches 0.8', () => {
    const result = plan({
      ...base,
      design: 'collapse-shift',
      curveA: CASES.curveA,
      curveB: CASES.curveB,
      repeats: 3,
      baselineRepeats: 3,
    });
    expect(result.n).toBe(r.collapse.n);
    expect(result.details.exactPower as number).toBeCloseTo(
      r.collapse.powers[(result.n as number) - 1] as number,
      10,
    );
  });
});

describe('waver plan refuses what has no answer', () => {
  it('equal rates: no n exists (saa, two-proportions, paired)', () => {
    expect(() => plan({ ...base, design: 'saa', p: [0.9, 0.9], cells: 10 })).toThrow(/equal/);
    expect(() => plan({ ...base, design: 'two-proportions', p: [0.9, 0.9] })).toThrow(/equal/);
    expect(() => plan({ ...base, design: 'paired-proportions', p: [0.8, 0.8], discordance: 0.2 })).toThrow(
      /equal/,
    );
  });

  it('an impossible discordance prints its range as written: [0.1, 0.5]', () => {
    expect(() => plan({ ...base, design: 'paired-proportions', p: [0.8, 0.7], discordance: 0.05 })).toThrow(
      'it must lie in [0.1, 0.5]',
    );
  });

  it('mdd: a discordance above 2 min(p, 1 - p) is refused; both directions are given', () => {
    expect(() => plan({ ...base, design: 'mdd', n: 294, p: [0.8], discordance: 0.9 })).toThrow(/at most 0.4/);
    const r = plan({ ...base, design: 'mdd', n: 294, p: [0.8] });
    // 294 per arm detects 0.8 -> 0.7 (the textbook figure) and, upwards, a smaller step (less variance near 1).
    expect(r.details.unpaired as number).toBeCloseTo(0.1, 2);
    expect(r.details.unpairedUp as number).toBeLessThan(r.details.unpaired as number);
  });
});

describe('paired designs from a pilot', () => {
  it("inflate the independent pairs by the pilot's design effect, then count clusters", () => {
    const r = plan({
      ...base,
      design: 'paired-proportions',
      p: [0.8, 0.7],
      discordance: 0.2,
      pilotClustering: { designEffect: 1.55, pairsPerCluster: 28, cluster: 'item' },
    });
    const n = r.n as number;
    expect(r.details.clusteredPairs).toBe(Math.ceil(n * 1.55));
    expect(r.details.clusters).toBe(Math.ceil(Math.ceil(n * 1.55) / 28));
  });
});

// One proportion, a CI width and a paired t test, each from scipy's quantiles.
const MORE = `
import json, sys, math
from scipy.stats import norm, t
za, zb = norm.ppf(0.975), norm.ppf(0.8)
one = math.ceil((za * math.sqrt(0.7 * 0.3) + zb * math.sqrt(0.8 * 0.2)) ** 2 / 0.1 ** 2 - 1e-9)
width = math.ceil(za ** 2 * 0.8 * 0.2 / 0.05 ** 2 - 1e-9)
saa = 0.9 ** 5
width_saa = math.ceil(za ** 2 * saa * (1 - saa) / 0.05 ** 2 - 1e-9)
def t_n(d, sd, alpha=0.05, power=0.8):
    n = 2
    while n < ((t.ppf(1 - alpha / 2, n - 1) + t.ppf(power, n - 1)) * sd / d) ** 2: n += 1
    return n
print(json.dumps({'one': one, 'width': width, 'widthSaa': width_saa, 't': [t_n(0.05, 0.2), t_n(0.3, 0.5), t_n(1.0, 0.6)]}))
`;

describe.skipIf(python3Missing)(
  `the one-sample, CI-width and t-test designs against scipy ${python3Missing ?? ''}`,
  () => {
    it('one-proportion, ci-width (a rate and SAA) and mean-difference', () => {
      const ref = runPython<{ one: number; width: number; widthSaa: number; t: number[] }>(MORE, {});
      expect(ref.one).toBe(153);
      expect(plan({ ...base, design: 'one-proportion', p: [0.8, 0.7] }).n).toBe(ref.one);
      expect(plan({ ...base, design: 'ci-width', p: [0.8], width: 0.05 }).n).toBe(ref.width);
      expect(plan({ ...base, design: 'ci-width', p: [0.9], width: 0.05, cells: 5 }).n).toBe(ref.widthSaa);
      const cases: [number, number][] = [
        [0.05, 0.2],
        [0.3, 0.5],
        [1.0, 0.6],
      ];
      cases.forEach(([difference, sd], i) => {
        expect(plan({ ...base, design: 'mean-difference', difference, sd }).n).toBe(ref.t[i]);
      });
    });
  },
);
