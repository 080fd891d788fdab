import type { RaschInput } from './rasch-model.js';

/**
 * The deconvolution model of `estimator: deconvolved` (decision E60, docs/spread.md#deconvolved):
 * a logistic mixed model P(template t answers item i) = sigmoid(theta_t + beta_i) with template
 * effects theta_t ~ N(0, tau^2) integrated out on a fixed quadrature grid (so tau is the spread of
 * the templates with the sampling noise of each template's few cells taken out), and item effects
 * beta_i ~ N(muB, varB) estimated as their modes (Laplace: varB counts each mode's variance 1/H_i).
 * Fitted by EM: the E-step is exact on the grid, the M-step sets tau^2 to the mean posterior
 * E[theta^2], moves each beta_i by Newton steps and sets muB, varB from the modes. The tau step
 * is parameter-expanded (PX-EM, Liu, Rubin & Wu 1998): plain EM crawls when the templates'
 * spread is small beside their noise, the expansion keeps the same fixed point.
 */
export const THETA_GRID = 41;
/** The grid spans +-5 tau: the prior mass beyond it is below 6e-7. */
const GRID_HALF_WIDTH = 5;
const MAX_ITERATIONS = 500;
/** Template sd beyond 10 logits is separation (templates always or never right): tau is held there. */
const MAX_TAU = 10;
const MIN_ITEM_VARIANCE = 0.01;
/** Stop when no parameter moves by more than this, or the marginal log-likelihood gains less than LOGLIK_TOLERANCE (tau near 0, where EM crawls on a flat likelihood). */
const TOLERANCE = 1e-8;
const LOGLIK_TOLERANCE = 1e-7;

export interface DeconvolvedFit {
  tau: number;
  beta: Float64Array;
  /** 1/H_i: the variance of each item effect's mode. */
  betaVar: Float64Array;
  muB: number;
  varB: number;
  /** The standard-normal grid theta = tau z and its prior weights. */
  z: Float64Array;
  /** Posterior weights over the grid, row-major nTemplates x THETA_GRID. */
  posterior: Float64Array;
  iterations: number;
  /** The marginal log-likelihood of the cells (templates integrated out) at the fit. */
  loglik: number;
}

interface Cells {
  byTemplate: Array<Array<{ item: number; y: number }>>;
  byItem: Array<Array<{ template: number; y: number }>>;
}

export function fitDeconvolved(input: RaschInput, start?: DeconvolvedFit): DeconvolvedFit {
  const cells = groupCells(input);
  const z = Float64Array.from(
    { length: THETA_GRID },
    (_, k) => -GRID_HALF_WIDTH + (2 * GRID_HALF_WIDTH * k) / (THETA_GRID - 1),
  );
  const logPrior = priorLogWeights(z);
  const beta = start ? Float64Array.from(start.beta) : initialBeta(cells, input.nItems);
  let tau = start?.tau ?? 0.5;
  let { mu: muB, v: varB } = start ? { mu: start.muB, v: start.varB } : meanVar(beta, undefined);
  const betaVar = new Float64Array(input.nItems);
  const posterior = new Float64Array(input.nTemplates * THETA_GRID);
  let iterations = 0;
  let loglik = Number.NEGATIVE_INFINITY;
  for (; iterations < MAX_ITERATIONS; iterations++) {
    const next = eStep(cells, beta, tau, z, logPrior, posterior);
    if (Math.abs(next - loglik) < LOGLIK_TOLERANCE) break;
    loglik = next;
    const tauNext = Math.min(
      MAX_TAU,
      expansion(cells, beta, tau, z, posterior) * Math.sqrt(meanSquare(posterior, z, tau, input.nTemplates)),
    );
    const change = mStepItems(cells, beta, betaVar, tau, z, posterior, muB, varB);
    ({ mu: muB, v: varB } = meanVar(beta, betaVar));
    const moved = Math.max(change, Math.abs(tauNext - tau));
    tau = tauNext;
    // tau at 0 (no spread beyond the noise): the templates' part is settled, and the item prior
    // would only crawl on towards its floor.
    if (moved < TOLERANCE || tau < 1e-6) break;
  }
  loglik = eStep(cells, beta, tau, z, logPrior, posterior);
  return { tau, beta, betaVar, muB, varB, z, posterior, iterations, loglik };
}

function groupCells(input: RaschInput): Cells {
  const byTemplate: Cells['byTemplate'] = Array.from({ length: input.nTemplates }, () => []);
  const byItem: Cells['byItem'] = Array.from({ length: input.nItems }, () => []);
  for (const o of input.observations) {
    byTemplate[o.template]?.push({ item: o.item, y: o.correct });
    byItem[o.item]?.push({ template: o.template, y: o.correct });
  }
  return { byTemplate, byItem };
}

export function priorLogWeights(z: Float64Array): Float64Array {
  const raw = Array.from(z, (v) => Math.exp(-0.5 * v * v));
  const total = raw.reduce((a, b) => a + b, 0);
  return Float64Array.from(raw, (w) => Math.log(w / total));
}

/** Each item's start: the logit of its observed mean, pulled in from 0 and 1 (add-one smoothing). */
function initialBeta(cells: Cells, nItems: number): Float64Array {
  return Float64Array.from({ length: nItems }, (_, i) => {
    const rows = cells.byItem[i] ?? [];
    const p = (rows.reduce((s, r) => s + r.y, 0) + 0.5) / (rows.length + 1);
    return Math.log(p / (1 - p));
  });
}

/** log sigmoid(x) and log(1 - sigmoid(x)) without overflow. */
const logSigmoid = (x: number): number => (x >= 0 ? -Math.log1p(Math.exp(-x)) : x - Math.log1p(Math.exp(x)));
export const sigmoid = (x: number): number => 1 / (1 + Math.exp(-x));

/** log sigmoid(tau z_k + beta_i) and log(1 - ...), row-major items x grid: a cell's likelihood depends on its item only. */
function logTables(
  beta: Float64Array,
  tau: number,
  z: Float64Array,
): { yes: Float64Array; no: Float64Array } {
  const yes = new Float64Array(beta.length * THETA_GRID);
  const no = new Float64Array(beta.length * THETA_GRID);
  for (let i = 0; i < beta.length; i++) {
    for (let k = 0; k < THETA_GRID; k++) {
      const x = tau * (z[k] as number) + (beta[i] as number);
      yes[i * THETA_GRID + k] = logSigmoid(x);
      no[i * THETA_GRID + k] = logSigmoid(-x);
    }
  }
  return { yes, no };
}

function eStep(
  cells: Cells,
  beta: Float64Array,
  tau: number,
  z: Float64Array,
  logPrior: Float64Array,
  posterior: Float64Array,
): number {
  const { yes, no } = logTables(beta, tau, z);
  const logw = new Float64Array(THETA_GRID);
  let loglik = 0;
  cells.byTemplate.forEach((rows, t) => {
    logw.set(logPrior);
    for (const r of rows) {
      const at = r.item * THETA_GRID;
      for (let k = 0; k < THETA_GRID; k++)
        logw[k] = (logw[k] as number) + r.y * (yes[at + k] as number) + (1 - r.y) * (no[at + k] as number);
    }
    let top = Number.NEGATIVE_INFINITY;
    for (const v of logw) top = Math.max(top, v);
    let total = 0;
    for (let k = 0; k < THETA_GRID; k++) total += Math.exp((logw[k] as number) - top);
    for (let k = 0; k < THETA_GRID; k++)
      posterior[t * THETA_GRID + k] = Math.exp((logw[k] as number) - top) / total;
    loglik += top + Math.log(total);
  });
  return loglik;
}

function meanSquare(posterior: Float64Array, z: Float64Array, tau: number, nTemplates: number): number {
  let s = 0;
  for (let k = 0; k < posterior.length; k++) {
    const theta = tau * (z[k % THETA_GRID] as number);
    s += (posterior[k] as number) * theta * theta;
  }
  return s / nTemplates;
}

/**
 * PX-EM's scale alpha of theta = alpha tau z: one Newton step from alpha = 1 on the expected
 * complete-data log-likelihood (kept within [0.5, 2] so a step never overshoots far).
 */
function expansion(
  cells: Cells,
  beta: Float64Array,
  tau: number,
  z: Float64Array,
  posterior: Float64Array,
): number {
  let g = 0;
  let h = 0;
  cells.byTemplate.forEach((rows, t) => {
    for (let k = 0; k < THETA_GRID; k++) {
      const w = posterior[t * THETA_GRID + k] as number;
      if (w < 1e-12) continue;
      const theta = tau * (z[k] as number);
      for (const r of rows) {
        const p = sigmoid(theta + (beta[r.item] as number));
        g += w * theta * (r.y - p);
        h += w * theta * theta * p * (1 - p);
      }
    }
  });
  return h > 0 ? Math.min(2, Math.max(0.5, 1 + g / h)) : 1;
}

/**
 * Two Newton steps per item on its expected complete-data log-likelihood plus its normal prior
 * (the cells' posterior weights summed per grid point first); returns the largest move.
 */
function mStepItems(
  cells: Cells,
  beta: Float64Array,
  betaVar: Float64Array,
  tau: number,
  z: Float64Array,
  posterior: Float64Array,
  muB: number,
  varB: number,
): number {
  let moved = 0;
  const weight = new Float64Array(THETA_GRID);
  const weightY = new Float64Array(THETA_GRID);
  cells.byItem.forEach((rows, i) => {
    weight.fill(0);
    weightY.fill(0);
    for (const r of rows) {
      for (let k = 0; k < THETA_GRID; k++) {
        const w = posterior[r.template * THETA_GRID + k] as number;
        weight[k] = (weight[k] as number) + w;
        weightY[k] = (weightY[k] as number) + w * r.y;
      }
    }
    let b = beta[i] as number;
    let h = 1 / varB;
    for (let step = 0; step < 2; step++) {
      let g = -(b - muB) / varB;
      h = 1 / varB;
      for (let k = 0; k < THETA_GRID; k++) {
        const p = sigmoid(tau * (z[k] as number) + b);
        g += (weightY[k] as number) - (weight[k] as number) * p;
        h += (weight[k] as number) * p * (1 - p);
      }
      b += g / h;
    }
    moved = Math.max(moved, Math.abs(b - (beta[i] as number)));
    beta[i] = b;
    betaVar[i] = 1 / h;
  });
  return moved;
}

/**
 * The item prior's mean and variance: the modes' spread plus each mode's own variance (Laplace
 * EM). The variance is kept at or above 0.01 (an item sd of 0.1 logit, below any real dataset's):
 * at 0 the fit would crawl to the boundary for thousands of iterations and change nothing.
 */
function meanVar(beta: Float64Array, betaVar: Float64Array | undefined): { mu: number; v: number } {
  const n = beta.length;
  const mu = beta.reduce((a, b) => a + b, 0) / n;
  let v = 0;
  for (let i = 0; i < n; i++) v += ((beta[i] as number) - mu) ** 2 + (betaVar ? (betaVar[i] as number) : 0);
  return { mu, v: Math.max(MIN_ITEM_VARIANCE, v / n) };
}
