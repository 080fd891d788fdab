import { describe, expect, it } from 'vitest';
import { plan } from '../../plan/designs.js';
import { MCNEMAR_REFERENCE_PY } from '../../test-support/mcnemar-reference.js';
import { python3Missing, runPython } from '../../test-support/python3.js';
import { PARAPHRASE_DESIGNS } from './plan-designs.js';

// Independent references in scipy: SAA's per-item rate from scipy's beta-binomial, Connor's n and
// the exact McNemar power by brute force, the smallest n scanned from 1 (no shared code with waver).
const REFERENCE = `
import json, sys, math
import numpy as np
from scipy.stats import norm, binom, betabinom
${MCNEMAR_REFERENCE_PY}def saa_rate(p, m, icc):
    t = (1 - icc) / icc
    return float(betabinom.pmf(m, m, p * t, (1 - p) * t))
sa, sb = saa_rate(0.9, 10, 0.5), saa_rate(0.85, 10, 0.5)
p10, p01 = sa * (1 - sb), sb * (1 - sa)
print(json.dumps({'saa': {'saaA': sa, 'saaB': sb, 'connor': connor(p10, p01), 'exact': exact_n(p10, p01),
              'connor1': connor(p10, p01, sides=1), 'exact1': exact_n(p10, p01, sides=1)}}))
`;

type Ref = {
  saa: { saaA: number; saaB: number; connor: number; exact: number; connor1: number; exact1: number };
};

const base = { alpha: 0.05, power: 0.8, sides: 2 as const };
const saaPlan = (input: Parameters<typeof plan>[0]) => plan(input, PARAPHRASE_DESIGNS);

describe.skipIf(python3Missing)(
  `paraphrase's design of waver plan against scipy ${python3Missing ?? ''}`,
  () => {
    const r = (python3Missing ? undefined : runPython<Ref>(REFERENCE, {})) as Ref;

    it('saa from stated rates: the beta-binomial SAA rates, then McNemar on items, exact and Connor, 1 and 2 sides', () => {
      const input = { ...base, design: 'saa' as const, p: [0.9, 0.85], cells: 10, icc: 0.5 };
      const two = saaPlan(input);
      expect(two.details.saaA as number).toBeCloseTo(r.saa.saaA, 12);
      expect(two.details.saaB as number).toBeCloseTo(r.saa.saaB, 12);
      expect(two.details.asymptoticN).toBe(r.saa.connor);
      expect(two.n).toBe(r.saa.exact);
      const one = saaPlan({ ...input, sides: 1 });
      expect(one.details.asymptoticN).toBe(r.saa.connor1);
      expect(one.n).toBe(r.saa.exact1);
      expect(one.n as number).toBeLessThan(two.n as number);
      // The same input always gives the same n: nothing is simulated.
      expect(saaPlan(input).n).toBe(two.n);
    });
  },
);

describe("paraphrase's design refuses what has no answer", () => {
  it('equal rates: no n exists', () => {
    expect(() => saaPlan({ ...base, design: 'saa', p: [0.9, 0.9], cells: 10 })).toThrow(/equal/);
  });
});
