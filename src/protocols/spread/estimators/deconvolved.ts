import { normalCdf } from '../../../stats/normal.js';
import { type DeconvolvedFit, fitDeconvolved, sigmoid, THETA_GRID } from './deconvolved-fit.js';
import type { RaschInput } from './rasch-model.js';

/**
 * `estimator: deconvolved` (decision E60): the per-template accuracies as Shen & Louis's (1998)
 * triple-goal estimates from the deconvolution model (`fitDeconvolved`). A template's accuracy on
 * the full grid given its effect theta is the mean over the items of Bernoulli(sigmoid(theta +
 * beta_i)): mean m(theta) and variance s^2(theta) = sum p(1-p) / I^2 (normal), each item's
 * sigmoid averaged over its mode's uncertainty (the probit approximation). The ensemble
 * distribution is G(a) = mean over templates of P(accuracy_t <= a | data); template t, ranked r_t
 * by its posterior mean effect, gets G^-1((r_t - 0.5) / T). So the ensemble spreads as the
 * fitted templates do (neither the raw estimates' added noise nor the posterior means' shrinkage),
 * and the ranks are the posterior's.
 */
export function deconvolvedPerTemplate(input: RaschInput): number[] {
  return tripleGoal(fitDeconvolved(input), input.nTemplates);
}

export function tripleGoal(fit: DeconvolvedFit, nTemplates: number): number[] {
  const { mean, sd } = accuracyGivenTheta(fit);
  const weights = new Float64Array(THETA_GRID);
  for (let k = 0; k < fit.posterior.length; k++)
    weights[k % THETA_GRID] = (weights[k % THETA_GRID] as number) + (fit.posterior[k] as number) / nTemplates;
  const cdf = (a: number): number => {
    let s = 0;
    for (let k = 0; k < THETA_GRID; k++)
      s += (weights[k] as number) * normalCdf((a - (mean[k] as number)) / (sd[k] as number));
    return s;
  };
  const postMean = Array.from({ length: nTemplates }, (_, t) => {
    let s = 0;
    for (let k = 0; k < THETA_GRID; k++)
      s += (fit.posterior[t * THETA_GRID + k] as number) * fit.tau * (fit.z[k] as number);
    return s;
  });
  const order = postMean
    .map((_, t) => t)
    .sort((a, b) => (postMean[a] as number) - (postMean[b] as number) || a - b);
  const out = new Array<number>(nTemplates);
  order.forEach((t, rank) => {
    out[t] = inverse(cdf, (rank + 0.5) / nTemplates);
  });
  return out;
}

/** m(theta) and s(theta) on the grid. */
function accuracyGivenTheta(fit: DeconvolvedFit): { mean: Float64Array; sd: Float64Array } {
  const nItems = fit.beta.length;
  const mean = new Float64Array(THETA_GRID);
  const sd = new Float64Array(THETA_GRID);
  for (let k = 0; k < THETA_GRID; k++) {
    const theta = fit.tau * (fit.z[k] as number);
    let m = 0;
    let v = 0;
    for (let i = 0; i < nItems; i++) {
      const p = sigmoid(
        (theta + (fit.beta[i] as number)) / Math.sqrt(1 + (Math.PI * (fit.betaVar[i] as number)) / 8),
      );
      m += p;
      v += p * (1 - p);
    }
    mean[k] = m / nItems;
    sd[k] = Math.max(1e-9, Math.sqrt(v) / nItems);
  }
  return { mean, sd };
}

/** G^-1(u) by bisection on [0, 1] to 1e-12. */
function inverse(cdf: (a: number) => number, u: number): number {
  let lo = 0;
  let hi = 1;
  while (hi - lo > 1e-12) {
    const mid = (lo + hi) / 2;
    if (cdf(mid) < u) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}
