import { describe, expect, it } from 'vitest';
import { python3Missing, runPython } from '../test-support/python3.js';
import { adjustPValues, familyConfidence } from './multiplicity.js';

// statsmodels' multipletests('holm') and ('bonferroni'), ported to numpy (statsmodels need not be
// installed): sort, multiply by (k - rank), running maximum, clip at 1, unsort.
const REFERENCE = `
import json, sys
import numpy as np
out = []
for ps in json.load(sys.stdin):
    p = np.asarray(ps, float)
    k = len(p)
    order = np.argsort(p)
    holm = np.minimum(1, np.maximum.accumulate((k - np.arange(k)) * p[order]))
    back = np.empty(k); back[order] = holm
    out.append({'holm': back.tolist(), 'bonferroni': np.minimum(1, k * p).tolist()})
print(json.dumps(out))
`;

const FAMILIES = [
  [0.01, 0.04, 0.03, 0.005, 0.2, 0.5, 0.0001],
  [0.03125, 1, 0.03125],
  [0.9],
  [0.04, 0.04, 0.04],
];

describe('multiplicity adjustments', () => {
  it.skipIf(python3Missing)(
    `Holm and Bonferroni equal the numpy port of statsmodels ${python3Missing ?? ''}`,
    () => {
      const ref = runPython<{ holm: number[]; bonferroni: number[] }[]>(REFERENCE, FAMILIES);
      FAMILIES.forEach((ps, i) => {
        const holm = adjustPValues(ps, 'holm');
        const bonf = adjustPValues(ps, 'bonferroni');
        holm.forEach((v, j) => {
          expect(v).toBeCloseTo(ref[i]?.holm[j] as number, 14);
        });
        bonf.forEach((v, j) => {
          expect(v).toBeCloseTo(ref[i]?.bonferroni[j] as number, 14);
        });
        expect(adjustPValues(ps, 'none')).toEqual(ps);
      });
    },
  );

  it('intervals that go with k tests are at 1 - alpha / k', () => {
    expect(familyConfidence(0.05, 4, 'holm')).toBeCloseTo(0.9875, 15);
    expect(familyConfidence(0.05, 4, 'none')).toBeCloseTo(0.95, 15);
  });
});
