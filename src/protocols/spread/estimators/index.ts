/**
 * The estimators of `waver spread` (issue 39): PromptEval's budgeted estimate of the per-template
 * accuracy distribution, its sampling design, FormatSpread's Thompson sampling and POSIX. Each is
 * checked against a Python port of the authors' code on committed fixtures
 * (src/test-support/spread/); where waver departs, docs/fidelity.md#spread says so.
 */
import { deconvolvedPerTemplate } from './deconvolved.js';
import { checkObservations, distinctCells, observedGrid } from './grid.js';
import { itemBootstrap } from './item-bootstrap.js';
import type { SpreadEstimator } from './names.js';
import { observedPerTemplate, raschPerTemplate } from './per-template.js';
import { type CellObservation, fitRasch, type RaschInput } from './rasch-model.js';
import { SPREAD_QUANTILES, summarise } from './summary.js';

export { planCells } from './plan-cells.js';
export { posixIndex, posixSummary } from './posix.js';
export { createThompsonSearch, formatSpreadPrior } from './thompson.js';
export type { CellObservation };

export interface SpreadEstimateInput {
  nTemplates: number;
  nItems: number;
  observations: readonly CellObservation[];
  templateCovariates?: readonly (readonly number[])[];
  itemCovariates?: readonly (readonly number[])[];
  seed: number;
}

/** `lo` and `hi` are NaN when no bootstrap resample could be computed (unavailable, never 0). */
export interface Interval {
  value: number;
  lo: number;
  hi: number;
}

export interface SpreadEstimate {
  method: string;
  perTemplate: number[];
  quantiles: Array<{ q: number } & Interval>;
  best: { template: number } & Interval;
  worst: { template: number } & Interval;
  spread: Interval;
  observedCells: number;
}

export interface SpreadEstimateOptions {
  /**
   * 'deconvolved' (default): the logistic mixed model's triple-goal estimates (decision E60);
   * 'prompteval': PromptEval's item-response model; 'full-grid': each template's observed mean.
   */
  method?: SpreadEstimator;
  /** Two-sided level of the bootstrap intervals; 0.95 by default. */
  level?: number;
  /** Bootstrap resamples; SPREAD_BOOTSTRAP_RESAMPLES by default. */
  resamples?: number;
}

export function estimateSpread(
  input: SpreadEstimateInput,
  options: SpreadEstimateOptions = {},
): SpreadEstimate {
  const method = options.method ?? 'deconvolved';
  const level = options.level ?? 0.95;
  if (!(level > 0 && level < 1))
    throw new RangeError(`estimateSpread: level must be in (0, 1), got ${level}`);
  checkObservations(input.nTemplates, input.nItems, input.observations);
  checkCovariates(input);
  if (method !== 'prompteval' && (input.templateCovariates || input.itemCovariates))
    throw new RangeError(`estimateSpread: covariates are PromptEval's; the ${method} estimator takes none`);
  const perTemplateOf = PER_TEMPLATE[method];
  const grid = observedGrid(input.nTemplates, input.nItems, input.observations);
  const perTemplate = perTemplateOf(input);
  if (!perTemplate) {
    throw new RangeError('estimateSpread: full-grid needs at least one observed cell for every template');
  }
  const point = summarise(perTemplate);
  const ci = itemBootstrap(input, perTemplateOf, {
    seed: input.seed,
    level,
    ...(options.resamples !== undefined ? { resamples: options.resamples } : {}),
  });
  const interval = (value: number, bounds: [number, number] | undefined): Interval => ({
    value,
    lo: bounds ? bounds[0] : Number.NaN,
    hi: bounds ? bounds[1] : Number.NaN,
  });
  return {
    method: method === 'prompteval' ? 'prompteval-irt' : method,
    perTemplate,
    quantiles: SPREAD_QUANTILES.map((q, k) => ({
      q,
      ...interval(point.quantiles[k] as number, ci?.quantiles[k]),
    })),
    best: { template: point.best.template, ...interval(point.best.value, ci?.best) },
    worst: { template: point.worst.template, ...interval(point.worst.value, ci?.worst) },
    spread: interval(point.spread, ci?.spread),
    observedCells: distinctCells(grid),
  };
}

/**
 * Every cell observed: no model is fitted (the full grid is the answer), as for PromptEval. Every
 * observation right (or every one wrong): the data hold no spread to deconvolve, and each
 * template is given that accuracy (docs/spread.md#deconvolved).
 */
function deconvolvedOrGrid(input: RaschInput): number[] {
  const grid = observedGrid(input.nTemplates, input.nItems, input.observations);
  if (distinctCells(grid) === input.nTemplates * input.nItems) return observedPerTemplate(grid) as number[];
  const first = input.observations[0]?.correct;
  if ((first === 0 || first === 1) && input.observations.every((o) => o.correct === first))
    return new Array<number>(input.nTemplates).fill(first);
  return deconvolvedPerTemplate(input);
}

function promptEvalPerTemplate(input: RaschInput): number[] {
  const grid = observedGrid(input.nTemplates, input.nItems, input.observations);
  // Every cell observed: theirs predicts no cell (Y_hat = Y), so the fit is skipped.
  if (distinctCells(grid) === input.nTemplates * input.nItems) return observedPerTemplate(grid) as number[];
  return raschPerTemplate(grid, fitRasch(input));
}

function fullGridPerTemplate(input: RaschInput): number[] | undefined {
  return observedPerTemplate(observedGrid(input.nTemplates, input.nItems, input.observations));
}

const PER_TEMPLATE: Record<SpreadEstimator, (input: RaschInput) => number[] | undefined> = {
  deconvolved: deconvolvedOrGrid,
  prompteval: promptEvalPerTemplate,
  'full-grid': fullGridPerTemplate,
};

function checkCovariates(input: SpreadEstimateInput): void {
  for (const [name, rows, n] of [
    ['templateCovariates', input.templateCovariates, input.nTemplates],
    ['itemCovariates', input.itemCovariates, input.nItems],
  ] as const) {
    if (!rows) continue;
    const width = rows[0]?.length ?? 0;
    if (
      rows.length !== n ||
      width === 0 ||
      rows.some((r) => r.length !== width || r.some((v) => !Number.isFinite(v)))
    ) {
      throw new RangeError(
        `estimateSpread: ${name} must be ${n} rows of the same number (>= 1) of finite numbers`,
      );
    }
  }
}
