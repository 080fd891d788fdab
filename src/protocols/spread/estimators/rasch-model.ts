import { fitPenalizedLogistic, type SparseRow } from './penalized-logistic.js';

/**
 * PromptEval's extended Rasch model (`ExtendedRaschModel` in prompteval/methods.py):
 * P(correct | template t, item i) = sigmoid(theta_t + beta_i), theta = X gamma and beta = Z psi,
 * where X and Z are the template and item covariates, one-hot when not given (their default).
 * The columns are theirs: one-hot on both sides drops the last item's column (beta of the last
 * item is 0, no intercept); covariates on one side only keep the other side's full one-hot; both
 * sides with covariates add an intercept. Fitted with the authors' penalty C = 100.
 */
const PROMPTEVAL_C = 100;

export interface CellObservation {
  template: number;
  item: number;
  correct: number;
}

export interface RaschInput {
  nTemplates: number;
  nItems: number;
  observations: readonly CellObservation[];
  templateCovariates?: readonly (readonly number[])[];
  itemCovariates?: readonly (readonly number[])[];
}

export interface FittedRasch {
  /** The model's logit for cell (template, item). */
  logit(template: number, item: number): number;
}

export function fitRasch(input: RaschInput): FittedRasch {
  const features = raschFeatures(input);
  const rows: SparseRow[] = [];
  const y = new Float64Array(input.observations.length);
  input.observations.forEach((o, k) => {
    rows.push(features.row(o.template, o.item));
    y[k] = o.correct;
  });
  const w = fitPenalizedLogistic(rows, y, features, PROMPTEVAL_C);
  return {
    logit(template, item) {
      const row = features.row(template, item);
      let z = 0;
      for (let k = 0; k < row.cols.length; k++)
        z += (row.vals[k] as number) * (w[row.cols[k] as number] as number);
      return z;
    },
  };
}

/** The feature row of any cell, so fitted and unseen cells use one definition. */
function raschFeatures(input: RaschInput): {
  dim: number;
  diagonalFrom: number;
  row(t: number, i: number): SparseRow;
} {
  const X = input.templateCovariates;
  const Z = input.itemCovariates;
  const dx = X ? (X[0]?.length ?? 0) : input.nTemplates;
  const dzFull = Z ? (Z[0]?.length ?? 0) : input.nItems;
  const dropLastItem = !X && !Z;
  const intercept = Boolean(X && Z);
  const dz = dropLastItem ? dzFull - 1 : dzFull;
  const dim = dx + dz + (intercept ? 1 : 0);
  return {
    dim,
    // One-hot item columns (no item covariates) come after the template columns: the diagonal block.
    diagonalFrom: Z ? dim : dx,
    row(t, i) {
      const cols: number[] = [];
      const vals: number[] = [];
      if (X) for (const [j, v] of (X[t] as readonly number[]).entries()) push(cols, vals, j, v);
      else push(cols, vals, t, 1);
      if (Z) for (const [j, v] of (Z[i] as readonly number[]).entries()) push(cols, vals, dx + j, v);
      else if (!(dropLastItem && i === input.nItems - 1)) push(cols, vals, dx + i, 1);
      if (intercept) push(cols, vals, dim - 1, 1);
      return { cols, vals };
    },
  };
}

function push(cols: number[], vals: number[], col: number, val: number): void {
  if (val !== 0) {
    cols.push(col);
    vals.push(val);
  }
}

/** `sigmoid` as theirs: the logit clipped to [-30, 30] first. */
export function sigmoid(z: number): number {
  return 1 / (1 + Math.exp(-Math.min(30, Math.max(-30, z))));
}
