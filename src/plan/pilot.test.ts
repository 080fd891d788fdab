import { describe, expect, it } from 'vitest';
import type { PairedObservation } from '../stats/paired.js';
import { python3Missing, runPython } from '../test-support/python3.js';
import { PyRandom } from '../util/random.js';
import { clusterDesignEffect, pairedDesignEffect } from './pilot.js';

// The design effect of a clustered mean in numpy: the variance of the ratio estimator with
// clusters drawn with replacement over the simple-random-sampling variance of the pairs.
const REFERENCE = `
import json, sys
import numpy as np
def deff(d):
    allv = np.concatenate(d)
    N, K = len(allv), len(d)
    mean = allv.mean()
    srs = allv.var(ddof=1) / N
    D = np.array([x.sum() for x in d]); n = np.array([len(x) for x in d])
    clus = K / (K - 1) * np.sum((D - mean * n) ** 2) / N ** 2
    return clus / srs
out = []
for clusters in json.load(sys.stdin):
    paired = deff([np.array([b - a for a, b in c], float) for c in clusters])
    # One model's accuracy: its correctness (0 or 1) in place of the difference.
    arm = deff([np.array([b for a, b in c], float) for c in clusters])
    out.append([paired, arm])
print(json.dumps(out))
`;

/** Clusters whose pairs share a cluster effect (correlated) or not (independent). */
function pilot(rng: PyRandom, clusters: number, size: number, correlated: boolean): PairedObservation[][] {
  return Array.from({ length: clusters }, (_, k) => {
    const hard = rng.random() < 0.5;
    return Array.from({ length: size }, () => {
      // Correlated: the new model loses 0.4 on hard clusters and nothing on easy ones.
      const drop = correlated ? (hard ? 0.4 : 0) : 0.2;
      return { cluster: `c${k}`, base: rng.random() < 0.8, new: rng.random() < 0.8 - drop };
    });
  });
}

describe('a pilot’s design effect for paired designs', () => {
  const rng = new PyRandom(5);
  const cases = [pilot(rng, 40, 12, true), pilot(rng, 40, 12, false), pilot(rng, 7, 3, true)];

  it.skipIf(python3Missing)(
    `equals numpy's ratio-estimator variance over the SRS one ${python3Missing ?? ''}`,
    () => {
      const ref = runPython<[number, number][]>(
        REFERENCE,
        cases.map((c) => c.map((cl) => cl.map((p) => [Number(p.base), Number(p.new)]))),
      );
      cases.forEach((c, i) => {
        expect(pairedDesignEffect(c)).toBeCloseTo(ref[i]?.[0] as number, 12);
        expect(clusterDesignEffect(c, (p) => Number(p.new))).toBeCloseTo(ref[i]?.[1] as number, 12);
      });
      // Pairs that share a cluster's difficulty carry less information than as many independent ones.
      expect(pairedDesignEffect(cases[0] as PairedObservation[][]) as number).toBeGreaterThan(1.2);
    },
  );

  it('is undefined with one cluster or when every pair agrees', () => {
    expect(pairedDesignEffect([[{ cluster: 'a', base: true, new: false }]])).toBeUndefined();
    const same = [0, 1].map((k) => [{ cluster: `c${k}`, base: true, new: true }]);
    expect(pairedDesignEffect(same)).toBeUndefined();
  });
});
