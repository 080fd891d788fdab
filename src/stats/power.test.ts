import { describe, expect, it } from 'vitest';
import { python3Missing, runPython } from '../test-support/python3.js';
import { normalQuantile } from './normal.js';
import {
  designEffect,
  discordantShares,
  minimumDetectableDifference,
  nonInferiorityPairsN,
  nonInferiorityPower,
  pairedMinimumDetectableDifference,
  pairedProportionsN,
  twoProportionsN,
  unequalClusterDesignEffect,
} from './power.js';
import { roganGladen } from './rogan-gladen.js';

const REFERENCE = `
import json, sys, math
from scipy.stats import norm
cases = json.load(sys.stdin)
out = {'two': [], 'paired': [], 'ppf': [], 'rg': []}
for p1, p2, power, alpha in cases['two']:
    za, zb = norm.ppf(1 - alpha / 2), norm.ppf(power)
    pbar = (p1 + p2) / 2
    n = (za * math.sqrt(2 * pbar * (1 - pbar)) + zb * math.sqrt(p1 * (1 - p1) + p2 * (1 - p2))) ** 2 / (p1 - p2) ** 2
    out['two'].append(math.ceil(n - 1e-9))
for p10, p01, power, alpha in cases['paired']:
    za, zb = norm.ppf(1 - alpha / 2), norm.ppf(power)
    psi, d = p10 + p01, p10 - p01
    out['paired'].append(math.ceil((za * math.sqrt(psi) + zb * math.sqrt(psi - d * d)) ** 2 / d ** 2 - 1e-9))
out['ppf'] = [float(norm.ppf(p)) for p in cases['ppf']]
z = norm.ppf(0.975)
def wilson(r, n):
    # statsmodels' proportion_confint(method='wilson'), ported.
    centre_den = 1 + z * z / n
    half = z * math.sqrt(r * (1 - r) / n + z * z / (4 * n * n)) / centre_den
    centre = (r + z * z / (2 * n)) / centre_den
    return max(0, centre - half), min(1, centre + half)
for p, n, se, npos, sp, nneg in cases['rg']:
    # MOVER (Zou & Donner 2008): each input's own Wilson distance on the side that moves pi.
    j = se + sp - 1
    pi = min(1, max(0, (p + sp - 1) / j))
    (lp, up), (lse, use), (lsp, usp) = wilson(p, n), wilson(se, npos), wilson(sp, nneg)
    down = math.sqrt((p - lp) ** 2 + (pi * (use - se)) ** 2 + ((1 - pi) * (sp - lsp)) ** 2) / j
    up_ = math.sqrt((up - p) ** 2 + (pi * (se - lse)) ** 2 + ((1 - pi) * (usp - sp)) ** 2) / j
    out['rg'].append([pi, max(0, pi - down), min(1, pi + up_)])
print(json.dumps(out))
`;

const CASES = {
  two: [
    [0.8, 0.7, 0.8, 0.05],
    [0.5, 0.6, 0.9, 0.05],
    [0.95, 0.9, 0.8, 0.01],
    [0.3, 0.1, 0.8, 0.05],
  ],
  paired: [
    [0.15, 0.05, 0.8, 0.05],
    [0.2, 0.12, 0.9, 0.05],
  ],
  ppf: [0.001, 0.02, 0.2, 0.5, 0.8, 0.975, 0.999],
  rg: [
    // No judge error on 30 + 20 labelled items: the interval must stay wider than p's alone.
    [0.6, 400, 1, 30, 1, 20],
    [0.6, 400, 0.9, 60, 0.85, 40],
    [0.3, 200, 0.8, 30, 0.95, 70],
  ],
};

describe('sample sizes', () => {
  it('two proportions 0.8 vs 0.7, power 0.8, alpha 0.05: the textbook 294 per arm', () => {
    expect(twoProportionsN(0.8, 0.7, { power: 0.8, alpha: 0.05 })).toBe(294);
  });

  it.skipIf(python3Missing)(
    `equal scipy's normal quantiles in the same formulas ${python3Missing ?? ''}`,
    () => {
      const ref = runPython<{ two: number[]; paired: number[]; ppf: number[]; rg: number[][] }>(
        REFERENCE,
        CASES,
      );
      expect(
        CASES.two.map(([a, b, power, alpha]) => twoProportionsN(a as number, b as number, { power, alpha })),
      ).toEqual(ref.two);
      expect(
        CASES.paired.map(([a, b, power, alpha]) =>
          pairedProportionsN(a as number, b as number, { power, alpha }),
        ),
      ).toEqual(ref.paired);
      CASES.ppf.forEach((p, i) => {
        expect(normalQuantile(p)).toBeCloseTo(ref.ppf[i] as number, 8);
      });
      CASES.rg.forEach(([observed, n, sensitivity, nPositive, specificity, nNegative], i) => {
        const r = roganGladen({
          observed: observed as number,
          n: n as number,
          sensitivity: sensitivity as number,
          nPositive: nPositive as number,
          specificity: specificity as number,
          nNegative: nNegative as number,
        });
        expect([r?.value, r?.low, r?.high].map((v) => Number(v?.toFixed(7)))).toEqual(
          (ref.rg[i] as number[]).map((v) => Number(v.toFixed(7))),
        );
      });
      // At 0 judge errors the corrected interval is wider than the binomial one of the share alone.
      const perfectInput = {
        observed: 0.6,
        n: 400,
        sensitivity: 1,
        nPositive: 30,
        specificity: 1,
        nNegative: 20,
      };
      const perfect = roganGladen(perfectInput);
      const binomialHalf = normalQuantile(0.975) * Math.sqrt((0.6 * 0.4) / 400);
      expect(((perfect?.high as number) - (perfect?.low as number)) / 2).toBeGreaterThan(1.2 * binomialHalf);
      // Se and Sp come with their Wilson intervals and counts: 20 of 20 right is [0.839, 1], and
      // the interval of pi uses that whole distance (issue 37.5: a symmetric shortcut read it as 0.919).
      const twenty = roganGladen({ ...perfectInput, nNegative: 20 });
      expect(twenty?.specificity).toMatchObject({ value: 1, n: 20 });
      expect(twenty?.specificity.high).toBeCloseTo(1, 12);
      expect(twenty?.specificity.low).toBeCloseTo(0.8389, 4);
      expect(twenty?.sensitivity).toMatchObject({ value: 1, n: 30 });
      expect(twenty?.sensitivity.low).toBeCloseTo(0.8865, 4);
      expect(twenty?.observed).toMatchObject({ value: 0.6, n: 400 });
    },
  );

  it('McNemar from discordance; clusters by design effect; the inverse is the minimum detectable difference', () => {
    const shares = discordantShares(0.8, 0.7, 0.2);
    expect(shares.p10).toBeCloseTo(0.15, 12);
    expect(shares.p01).toBeCloseTo(0.05, 12);
    expect(() => discordantShares(0.8, 0.7, 0.05)).toThrow(/impossible/);
    expect(designEffect(3, 0.5)).toBe(2);
    // Unequal clusters: 1 + (sum m^2 / sum m - 1) icc; sizes 1, 2, 3 give 14/6.
    expect(unequalClusterDesignEffect([1, 2, 3, 0], 0.5)).toBeCloseTo(1 + (14 / 6 - 1) * 0.5, 12);
    expect(unequalClusterDesignEffect([3, 3], 0.5)).toBe(designEffect(3, 0.5));
    const mdd = minimumDetectableDifference(294, 0.8) as number;
    expect(mdd).toBeGreaterThan(0.099);
    expect(mdd).toBeLessThanOrEqual(0.1 + 1e-9);
    expect(twoProportionsN(0.8, 0.8 - mdd)).toBeLessThanOrEqual(294);
    const pm = pairedMinimumDetectableDifference(200, 0.2) as number;
    expect(pairedProportionsN((0.2 + pm) / 2, (0.2 - pm) / 2)).toBeLessThanOrEqual(200);
    expect(minimumDetectableDifference(3, 0.5)).toBeUndefined();
  });

  it.skipIf(python3Missing)(
    `non-inferiority pairs: scipy's quantiles in the Wald formula, and the margin rule's power at n by simulation ${python3Missing ?? ''}`,
    () => {
      // (base, new, discordance, margin, alpha, power)
      const cases = [
        [0.8, 0.8, 0.1, 0.02, 0.05, 0.8],
        [0.8, 0.82, 0.15, 0.03, 0.05, 0.9],
        [0.7, 0.69, 0.2, 0.05, 0.01, 0.8],
        [0.9, 0.9, 0.05, 0.01, 0.1, 0.8],
      ];
      const ref = runPython<{ n: number[]; simulated: number[] }>(
        `
import json, sys, math
import numpy as np
from scipy.stats import norm
cases = json.load(sys.stdin)
rng = np.random.default_rng(7)
ns, sims = [], []
for base, new, psi, m, alpha, power in cases:
    d = new - base
    n = math.ceil((norm.ppf(1 - alpha / 2) + norm.ppf(power)) ** 2 * (psi - d * d) / (d + m) ** 2 - 1e-9)
    ns.append(n)
    # The rule check runs, on simulated pairs: pass when d_hat - z * se > -m.
    p10, p01 = (psi - d) / 2, (psi + d) / 2  # base right / new wrong, and the other way
    draws = rng.multinomial(n, [p10, p01, 1 - psi], size=40000)
    dh = (draws[:, 1] - draws[:, 0]) / n
    psih = (draws[:, 0] + draws[:, 1]) / n
    se = np.sqrt(np.maximum(psih - dh * dh, 0) / n)
    sims.append(float(np.mean(dh - norm.ppf(1 - alpha / 2) * se > -m)))
print(json.dumps({'n': ns, 'simulated': sims}))
`,
        cases,
      );
      cases.forEach(([base, next, psi, m, alpha, power], i) => {
        const n = nonInferiorityPairsN(base as number, next as number, psi as number, m as number, {
          alpha,
          power,
        });
        expect(n).toBe(ref.n[i]);
        const at = nonInferiorityPower(n, base as number, next as number, psi as number, m as number, alpha);
        expect(at).toBeGreaterThanOrEqual(power as number);
        // The simulated rule reaches the power the formula promises, within Monte Carlo error (SE ~0.002).
        expect(Math.abs((ref.simulated[i] as number) - (power as number))).toBeLessThan(0.015);
      });
      expect(() => nonInferiorityPairsN(0.8, 0.77, 0.1, 0.02)).toThrow(/at or past the margin/);
    },
  );
});
