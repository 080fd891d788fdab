import { describe, expect, it } from 'vitest';
import { MCNEMAR_REFERENCE_PY } from '../test-support/mcnemar-reference.js';
import { python3Missing, runPython } from '../test-support/python3.js';
import { DESIGNS, plan } from './designs.js';
import type { PlanDesign } from './types.js';

// Independent references in scipy: Connor's n, the exact McNemar power by brute force and the
// smallest n scanned from 1 (no shared code with waver).
const REFERENCE = `
import json, sys, math, itertools
import numpy as np
from scipy.stats import norm, binom
cases = json.load(sys.stdin)
${MCNEMAR_REFERENCE_PY}out = {}
out['paired01'] = {'connor': connor(0.1, 0.0), 'exact': exact_n(0.1, 0.0)}
print(json.dumps(out))
`;

type Ref = { paired01: { connor: number; exact: number } };

const base = { alpha: 0.05, power: 0.8, sides: 2 as const };

describe.skipIf(python3Missing)(`waver plan against scipy ${python3Missing ?? ''}`, () => {
  const ref = python3Missing ? undefined : runPython<Ref>(REFERENCE, {});
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
});

describe('waver plan refuses what has no answer', () => {
  it('equal rates: no n exists (two-proportions, paired)', () => {
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
      pilotClustering: { designEffect: 1.55, armDesignEffect: 3, pairsPerCluster: 28, cluster: 'item' },
    });
    const n = r.n as number;
    expect(r.details.clusteredPairs).toBe(Math.ceil(n * 1.55));
    expect(r.details.clusters).toBe(Math.ceil(Math.ceil(n * 1.55) / 28));
    expect(r.check).toBe('waver check --compare BASE,NEW');
  });

  it("non-inferiority and two-proportions carry it too (the arm's for items per arm)", () => {
    const pilotClustering = { designEffect: 1.19, armDesignEffect: 2.5, pairsPerCluster: 8, cluster: 'item' };
    const ni = plan({
      ...base,
      design: 'non-inferiority',
      p: [0.8, 0.8],
      discordance: 0.1,
      margin: 0.02,
      pilotClustering,
      models: ['a', 'b c'],
    });
    expect(ni.n).toBe(1963);
    expect(ni.details).toMatchObject({ designEffect: 1.19, clusteredPairs: Math.ceil(1963 * 1.19) });
    expect(ni.check).toBe("waver check --compare 'a,b c' --margin 0.02");
    const two = plan({ ...base, design: 'two-proportions', p: [0.8, 0.7], pilotClustering });
    expect(two.n).toBe(294);
    expect(two.details).toMatchObject({ armDesignEffect: 2.5, clusteredCellsPerArm: 735, clusters: 92 });
  });
});

// mdd from a pilot of 480 pairs whose paired difference has a design effect of 1.19 and one
// model's accuracy 2.5 (issue 37.4: 0.0701 printed where 0.0767 holds): scipy's quantiles,
// brentq on the closed forms and the brute-force exact power, at n / deff.
const MDD = `
import json, sys, math
import numpy as np
from scipy.stats import norm, binom
from scipy.optimize import brentq
${MCNEMAR_REFERENCE_PY}
za, zb = norm.ppf(0.975), norm.ppf(0.8)
def two_n(p1, p2):
    pbar = (p1 + p2) / 2
    return (za * math.sqrt(2 * pbar * (1 - pbar)) + zb * math.sqrt(p1 * (1 - p1) + p2 * (1 - p2))) ** 2 / (p1 - p2) ** 2
def connor_n(psi, d):
    return (za * math.sqrt(psi) + zb * math.sqrt(psi - d * d)) ** 2 / d ** 2
def exact_mdd(n, psi):
    lo, hi = 0.0, psi
    for _ in range(50):
        mid = (lo + hi) / 2
        if exact_power(n, (psi + mid) / 2, (psi - mid) / 2, 0.05, 2) >= 0.8: hi = mid
        else: lo = mid
    return hi
n, p1, psi, deff, arm = 480, 0.75, 0.2, 1.19, 2.5
out = {}
for key, m in (('pilot', 1), ('ignored', 0)):
    na, npair = math.floor(n / (arm if m else 1)), n / (deff if m else 1)
    out[key] = {
        'unpaired': brentq(lambda d: two_n(p1, p1 - d) - na, 1e-6, p1 - 1e-9),
        'connor': brentq(lambda d: connor_n(psi, d) - math.floor(npair), 1e-6, psi - 1e-9),
        'exact': exact_mdd(math.floor(npair), psi),
    }
print(json.dumps(out))
`;

describe.skipIf(python3Missing)(`mdd from a pilot carries its design effects ${python3Missing ?? ''}`, () => {
  type Figures = { unpaired: number; connor: number; exact: number };
  const ref = python3Missing ? undefined : runPython<{ pilot: Figures; ignored: Figures }>(MDD, {});
  const pilotClustering = { designEffect: 1.19, armDesignEffect: 2.5, pairsPerCluster: 8, cluster: 'item' };
  const mdd = (test: 'exact' | 'asymptotic', clustering?: typeof pilotClustering) =>
    plan({
      ...base,
      design: 'mdd',
      n: 480,
      p: [0.75],
      discordance: 0.2,
      test,
      ...(clustering && { pilotClustering: clustering }),
    }).details;

  it('the paired figure at n / 1.19, the unpaired at n / 2.5, as scipy computes them', () => {
    const r = ref as { pilot: Figures; ignored: Figures };
    const exact = mdd('exact', pilotClustering);
    expect(exact.paired as number).toBeCloseTo(r.pilot.exact, 6);
    expect(exact.unpaired as number).toBeCloseTo(r.pilot.unpaired, 6);
    expect(mdd('asymptotic', pilotClustering).paired as number).toBeCloseTo(r.pilot.connor, 6);
    expect(exact).toMatchObject({ n: 480, designEffect: 1.19, armDesignEffect: 2.5 });
    expect(exact.effectivePairs as number).toBeCloseTo(480 / 1.19, 9);
    // Without the pilot's clusters: the pairs as independent, a smaller (wrong) difference.
    const flat = mdd('exact');
    expect(flat.paired as number).toBeCloseTo(r.ignored.exact, 6);
    expect(flat.paired as number).toBeLessThan(exact.paired as number);
  });
});

// SAA's CI width and a paired t test, each from scipy's quantiles.
const MORE = `
import json, sys, math
from scipy.stats import norm, t
za, zb = norm.ppf(0.975), norm.ppf(0.8)
saa = 0.9 ** 5
width_saa = math.ceil(za ** 2 * saa * (1 - saa) / 0.05 ** 2 - 1e-9)
def t_n(d, sd, alpha=0.05, power=0.8):
    n = 2
    while n < ((t.ppf(1 - alpha / 2, n - 1) + t.ppf(power, n - 1)) * sd / d) ** 2: n += 1
    return n
print(json.dumps({'widthSaa': width_saa, 't': [t_n(0.05, 0.2), t_n(0.3, 0.5), t_n(1.0, 0.6)]}))
`;

describe.skipIf(python3Missing)(
  `the CI-width and t-test designs against scipy ${python3Missing ?? ''}`,
  () => {
    it("ci-width (SAA's interval, the one check --min-saa prints) and mean-difference", () => {
      const ref = runPython<{ widthSaa: number; t: number[] }>(MORE, {});
      const width = plan({ ...base, design: 'ci-width', p: [0.9], width: 0.05, cells: 5 });
      expect(width.n).toBe(ref.widthSaa);
      expect(width.check).toBe('waver check --min-saa X');
      // A plain proportion's interval is printed by no gate: SAA's cells are needed.
      expect(() => plan({ ...base, design: 'ci-width', p: [0.8], width: 0.05 })).toThrow(/--cells/);
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

describe('the designs of no protocol, and those a protocol hands in', () => {
  it("plan's own designs name no protocol; a protocol's design is planned when it is handed in", () => {
    expect(DESIGNS).toEqual([
      'two-proportions',
      'ci-width',
      'mean-difference',
      'paired-proportions',
      'non-inferiority',
      'mdd',
    ]);
    const toy: PlanDesign = {
      name: 'toy-design',
      plan: (_input, { head }) => ({ ...head, method: 'the design of a test', n: 3, details: {} }),
    };
    expect(plan({ ...base, design: 'toy-design' }, [toy])).toMatchObject({ design: 'toy-design', n: 3 });
    expect(() => plan({ ...base, design: 'toy-design' })).toThrow(/unknown design 'toy-design'/);
  });
});
