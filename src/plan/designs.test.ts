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

describe('the designs of no protocol, and those a protocol hands in', () => {
  it("plan's own designs name no protocol; a protocol's design is planned when it is handed in", () => {
    expect(DESIGNS).toEqual([
      'two-proportions',
      'one-proportion',
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
