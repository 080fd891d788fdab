import { describe, expect, it } from 'vitest';
import type { FillTest, SuiteFill } from '../../check/types.js';
import { plan as planWith } from '../../plan/designs.js';
import { python3Missing, runPython } from '../../test-support/python3.js';
import { LADDER_DESIGNS } from './plan-designs.js';

// Independent references in scipy, written from docs/plan.md#suite, sharing no code with waver:
// the Collapse Point's distribution enumerated count by count with a baseline of its own size and
// levels of uneven fill, McNemar's exact n scanned from 1, Kish's design effects, and the level
// check --compare adjusts to.
const REFERENCE = `
import json, sys, math
import numpy as np
from scipy.stats import norm, binom
case = json.load(sys.stdin)
tests, S = case['tests'], len({t['cluster'] for t in case['tests']})

def cp_dist(curve, cells, ratio):
    L = len(curve)
    out = np.zeros(L + 1)  # 0: unavailable, 1..L-1: the level, L: never
    n0 = cells[0]
    for k0 in range(n0 + 1):
        w = binom.pmf(k0, n0, curve[0])
        if k0 == 0:
            out[0] += w
            continue
        standing = w
        for i in range(1, L):
            if cells[i] == 0: continue
            ks = np.arange(cells[i] + 1)
            c = binom.pmf(ks, cells[i], curve[i])[ks / cells[i] < ratio * (k0 / n0) - 1e-12].sum()
            out[i] += standing * c
            standing *= 1 - c
        out[L] += standing
    return out

def cp_power(a, b, cells, ratio=0.8):
    da, db = cp_dist(a, cells, ratio), cp_dist(b, cells, ratio)
    return float(sum(da[j] * db[j + 1:].sum() for j in range(1, len(a))))

# Per level of the SV curve: tests per seed built, and their repeats (baseline: 3, the rest: 2).
def count(level, scope=None):
    return sum(1 for t in tests if t.get('level') == level and (scope is None or t['scope'] == scope))
a, b = case['curveA'], case['curveB']
per_seed = [count(0) / S] + [count(l, 'SV') / S for l in range(1, len(a))]
reps = [3] + [2] * (len(a) - 1)
cells = lambda n: [math.floor(n * s + 1e-9) * r for s, r in zip(per_seed, reps)]
powers = []
while not powers or powers[-1] < 0.8: powers.append(cp_power(a, b, cells(len(powers) + 1)))
collapse = {'n': len(powers), 'powers': powers}

crit = {}
def k_of(m, alpha):
    if (m, alpha) not in crit:
        ok = np.nonzero(2 * binom.cdf(np.arange(m + 1), m, 0.5) < alpha)[0]
        crit[(m, alpha)] = int(ok[-1]) if len(ok) else -1
    return crit[(m, alpha)]
def exact_power(n, p10, p01, alpha):
    hi, lo = max(p10, p01), min(p10, p01)
    psi = hi + lo
    ks = np.array([k_of(m, alpha) for m in range(n + 1)])
    ms = np.arange(n + 1)
    return float(np.sum(np.where(ks >= 0, binom.pmf(ms, n, psi) * binom.cdf(ks, ms, lo / psi), 0)))
def exact_n(p10, p01, alpha):
    for n in range(1, 20000):
        if exact_power(n, p10, p01, alpha) >= 0.8: return n

# ladder-level at SV L2 (independent errors' discordance), icc 0.3, 2 repeats.
p1, p2 = 0.8, 0.7
psi = p1 * (1 - p2) + p2 * (1 - p1)
n_ind = exact_n((psi + p1 - p2) / 2, (psi - p1 + p2) / 2, 0.05)
at = {t['cluster'] for t in tests if t['scope'] == 'SV' and t.get('level') == 2}
m = sum(2 for t in tests if t['scope'] == 'SV' and t.get('level') == 2) / len(at)
seeds_at = math.ceil(n_ind * (1 + (m - 1) * 0.3) / m - 1e-9)
level = {'nInd': n_ind, 'seedsAtLevel': seeds_at, 'n': math.ceil(seeds_at / (len(at) / S) - 1e-9)}

# ladder-family SV: every SV pair, alpha / k with k = 1 + the scopes check tests (baseline too).
scopes = {t['scope'] for t in tests}
k = 1 + len(scopes) if len(scopes) >= 2 else 1
n_fam = exact_n(0.15, 0.05, 0.05 / k)
sizes = {}
for t in tests:
    if t['scope'] == 'SV': sizes[t['cluster']] = sizes.get(t['cluster'], 0) + 2
ms = np.array(list(sizes.values()), float)
deff = 1 + ((ms ** 2).sum() / ms.sum() - 1) * 0.3
pairs = math.ceil(n_fam * deff - 1e-9)
family = {'k': k, 'nInd': n_fam, 'deff': deff, 'pairs': pairs,
          'n': math.ceil(pairs / (ms.sum() / S) - 1e-9)}
print(json.dumps({'collapse': collapse, 'level': level, 'family': family}))
`;

/** 20 seeds: a baseline each; SV at L1 (all), L2 (15), L3 (6), one unbinned; IQ at L1 (10). */
function suiteTests(): FillTest[] {
  const tests: FillTest[] = [];
  for (let s = 0; s < 20; s++) {
    const cluster = `s${s}`;
    tests.push({ cluster, scope: 'baseline', level: 0, repeats: 3 });
    tests.push({ cluster, scope: 'SV', level: 1, repeats: 2 });
    if (s < 15) tests.push({ cluster, scope: 'SV', level: 2, repeats: 2 });
    if (s < 6) tests.push({ cluster, scope: 'SV', level: 3, repeats: 2 });
    if (s === 7) tests.push({ cluster, scope: 'SV', level: undefined, repeats: 2 });
    if (s % 2 === 0) tests.push({ cluster, scope: 'IQ', level: 1, repeats: 2 });
  }
  return tests;
}

const suite: SuiteFill = { cluster: 'seed', repeats: { reference: 3, perturbed: 2 }, tests: suiteTests() };
const CASE = { tests: suite.tests, curveA: [0.9, 0.85, 0.7, 0.6], curveB: [0.9, 0.88, 0.85, 0.8] };
const base = { alpha: 0.05, power: 0.8, sides: 2 as const };
const plan = (input: Parameters<typeof planWith>[0]) => planWith(input, LADDER_DESIGNS);

type Ref = {
  collapse: { n: number; powers: number[] };
  level: { nInd: number; seedsAtLevel: number; n: number };
  family: { k: number; nInd: number; deff: number; pairs: number; n: number };
};

describe.skipIf(python3Missing)(
  `the ladder designs on a suite's fill, against scipy ${python3Missing ?? ''}`,
  () => {
    const r = (python3Missing ? undefined : runPython<Ref>(REFERENCE, CASE)) as Ref;

    it("collapse-shift: the baseline's own repeats and each level's fill, exact power and smallest n", () => {
      const result = plan({
        ...base,
        design: 'collapse-shift',
        curveA: CASE.curveA,
        curveB: CASE.curveB,
        suite,
        family: 'SV',
      });
      expect(result.n).toBe(r.collapse.n);
      expect(result.details.exactPower as number).toBeCloseTo(
        r.collapse.powers[(result.n as number) - 1] as number,
        10,
      );
      expect(result.details.fill).toBe('L1 20/20, L2 15/20, L3 6/20');
      expect(result.details.baselineRepeats).toBe(3);
      // Read as if every seed had a test at every level and the baseline `repeats` cells, n is smaller.
      const full = plan({
        ...base,
        design: 'collapse-shift',
        curveA: CASE.curveA,
        curveB: CASE.curveB,
        repeats: 2,
        baselineRepeats: 2,
      });
      expect(full.n as number).toBeLessThan(result.n as number);
    });

    it('ladder-level: McNemar exact on the level’s pairs, Kish’s design effect, then the fill', () => {
      const result = plan({
        ...base,
        design: 'ladder-level',
        p: [0.8, 0.7],
        icc: 0.3,
        suite,
        family: 'SV',
        level: 2,
      });
      expect(result.details.exactN).toBe(r.level.nInd);
      expect(result.details.seedsAtLevel).toBe(r.level.seedsAtLevel);
      expect(result.n).toBe(r.level.n);
    });

    it('ladder-family: the test check --compare runs, at alpha / k, with unequal pairs per seed', () => {
      const result = plan({
        ...base,
        design: 'ladder-family',
        p: [0.8, 0.7],
        discordance: 0.2,
        icc: 0.3,
        suite,
        family: 'SV',
      });
      expect(result.details.checkTests).toBe(r.family.k);
      expect(r.family.k).toBe(4);
      expect(result.details.exactN).toBe(r.family.nInd);
      expect(result.details.designEffect as number).toBeCloseTo(r.family.deff, 12);
      expect(result.details.clusteredPairs).toBe(r.family.pairs);
      expect(result.n).toBe(r.family.n);
    });
  },
);

describe("the ladder designs from a pilot carry the pilot's design effect (issue 37.4)", () => {
  const pilotClustering = { designEffect: 1.19, armDesignEffect: 2, pairsPerCluster: 6, cluster: 'seed' };
  const family = (icc?: number) =>
    plan({
      ...base,
      design: 'ladder-family',
      p: [0.8, 0.7],
      discordance: 0.2,
      suite,
      family: 'SV',
      pilotClustering,
      ...(icc !== undefined && { icc }),
    }).details;

  it("without --icc the pilot's measured 1.19, with --icc Kish's", () => {
    const pilot = family();
    expect(pilot.designEffect).toBe(1.19);
    expect(pilot.designEffectFrom).toBe("the pilot's pairs (no --icc)");
    expect(pilot.clusteredPairs).toBe(Math.ceil((pilot.exactN as number) * 1.19 - 1e-9));
    expect(family(0.3).designEffectFrom).toBe('Kish, from --icc');
    expect(family(0.3).designEffect).not.toBe(1.19);
    const level = plan({
      ...base,
      design: 'ladder-level',
      p: [0.8, 0.7],
      discordance: 0.2,
      suite,
      family: 'SV',
      level: 2,
      pilotClustering,
    }).details;
    expect(level.designEffect).toBe(1.19);
  });
});

describe('the ladder designs refuse what they cannot size', () => {
  it('a suite with several families needs one named; a curve must reach the suite’s top level', () => {
    const curves = { curveA: [0.9, 0.5, 0.4, 0.3], curveB: [0.9, 0.88, 0.85, 0.8] };
    expect(() => plan({ ...base, design: 'collapse-shift', ...curves, suite })).toThrow(
      /choose one with --family/,
    );
    expect(() =>
      plan({
        ...base,
        design: 'collapse-shift',
        curveA: [0.9, 0.5],
        curveB: [0.9, 0.88],
        suite,
        family: 'SV',
      }),
    ).toThrow('the suite has SV tests up to L3: give both curves from L0 to L3');
    expect(() => plan({ ...base, design: 'collapse-shift', ...curves, suite, family: 'KB' })).toThrow(
      /no KB tests/,
    );
  });

  it('without a suite, collapse-shift needs the baseline’s repeats; ladder-family needs a suite', () => {
    const curves = { curveA: [0.7, 0.5, 0.4], curveB: [0.7, 0.65, 0.6] };
    expect(() => plan({ ...base, design: 'collapse-shift', ...curves, repeats: 3 })).toThrow(
      /baseline-repeats/,
    );
    expect(() => plan({ ...base, design: 'ladder-family', p: [0.8, 0.7] })).toThrow(/--suite/);
    expect(() =>
      plan({ ...base, design: 'ladder-level', p: [0.8, 0.7], suite, family: 'SV', level: 5 }),
    ).toThrow(/no SV test at L5/);
  });

  it('collapse-shift: a curve that ties the threshold does not collapse there, as the metrics count it', () => {
    // acc(L1) = 0.72 is 0.8 x 0.9: a tie, no collapse (docs/ladder.md#collapse-point), though 0.8 * 0.9
    // is 0.7200000000000001 in floats. The metrics' rule and its slack, as the power already reads it.
    const asked = { repeats: 3, baselineRepeats: 3 };
    const tie = plan({
      ...base,
      design: 'collapse-shift',
      curveA: [0.9, 0.72, 0.5],
      curveB: [0.9, 0.85, 0.8],
      ...asked,
    });
    expect(tie.details.collapseA).toBe('L2');
    // Two curves that only tie: neither collapses, so no shift is there to see.
    expect(() =>
      plan({ ...base, design: 'collapse-shift', curveA: [0.9, 0.72], curveB: [0.9, 0.9], ...asked }),
    ).toThrow(/collapse earlier/);
  });
});

// The Collapse Point shift's power enumerated over every count of every level, each level asked
// of every seed (no suite), in scipy (no shared code with waver).
const SHIFT = `
import json, sys
import numpy as np
from scipy.stats import binom
cases = json.load(sys.stdin)
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
a, b = cases['curveA'], cases['curveB']
powers = [cp_power(a, b, n, 3, 0.8) for n in range(1, 40)]
print(json.dumps({'n': next(n for n, p in zip(range(1, 40), powers) if p >= 0.8), 'powers': powers}))
`;

describe.skipIf(python3Missing)(
  `collapse-shift without a suite, against scipy ${python3Missing ?? ''}`,
  () => {
    const CASES = { curveA: [0.7, 0.5, 0.4], curveB: [0.7, 0.65, 0.6] };
    const r = {
      collapse: (python3Missing ? undefined : runPython<{ n: number; powers: number[] }>(SHIFT, CASES)) as {
        n: number;
        powers: number[];
      },
    };

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
  },
);
