import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../../test-support/shared.js';
import { tripleGoal } from './deconvolved.js';
import { fitDeconvolved } from './deconvolved-fit.js';

/**
 * The deconvolution fit against an independent scipy fit of the same model
 * (src/test-support/spread/python/deconvolved_ref.py: L-BFGS on the marginal likelihood, not EM;
 * committed as deconvolved.json): tau, the item prior, every item effect and every template's
 * triple-goal accuracy. Tolerances: the two optimisers stop at different points of a flat optimum.
 */
interface Case {
  name: string;
  nTemplates: number;
  nItems: number;
  observations: Array<[number, number, number]>;
  expected: { tau: number; muB: number; varB: number; beta: number[]; perTemplate: number[] };
}

const cases = (
  JSON.parse(readFileSync(resolve(repoRoot, 'src/test-support/spread/deconvolved.json'), 'utf8')) as {
    cases: Case[];
  }
).cases;

describe('the deconvolution fit equals an independent scipy fit', () => {
  for (const c of cases) {
    it(c.name, () => {
      const input = {
        nTemplates: c.nTemplates,
        nItems: c.nItems,
        observations: c.observations.map(([template, item, correct]) => ({ template, item, correct })),
      };
      const fit = fitDeconvolved(input);
      expect(Math.abs(fit.tau - c.expected.tau)).toBeLessThan(1e-4);
      expect(Math.abs(fit.muB - c.expected.muB)).toBeLessThan(1e-4);
      expect(Math.abs(fit.varB - c.expected.varB)).toBeLessThan(1e-4);
      for (const [i, b] of c.expected.beta.entries())
        expect(Math.abs((fit.beta[i] as number) - b)).toBeLessThan(1e-4);
      const perTemplate = tripleGoal(fit, c.nTemplates);
      for (const [t, a] of c.expected.perTemplate.entries())
        expect(Math.abs((perTemplate[t] as number) - a)).toBeLessThan(1e-5);
    });
  }
});
