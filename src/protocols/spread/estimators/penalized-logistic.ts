/**
 * The fit under PromptEval's item-response model: L2-penalised logistic regression without
 * intercept, minimising 0.5 |w|^2 + C sum_k [log(1 + e^{z_k}) - y_k z_k], z_k = x_k . w, which is
 * the objective scikit-learn's liblinear solver minimises for `LogisticRegression(C)` (the
 * authors' `reg=1e2`, i.e. a N(0, 100 I) prior). The objective is strictly convex, so its optimum
 * is unique; waver reaches it by Newton's method with a backtracking line search to a gradient
 * below 1e-9 (liblinear stops earlier: the tolerance in docs/spread.md#estimators).
 * y_k may be fractional (a cell's repeats averaged, docs/fidelity.md#spread).
 */

/** One observation's features, sparse: column indices and their values. */
export interface SparseRow {
  cols: readonly number[];
  vals: readonly number[];
}

const GRADIENT_TOLERANCE = 1e-9;
const MAX_NEWTON_STEPS = 200;

/**
 * Columns from `diagonalFrom` on must have at most one non-zero per row (one-hot items): their
 * block of the Hessian is diagonal, and the Newton step is solved through the Schur complement of
 * that block, so a fit costs O(dense^3 + dense^2 x items) instead of O(dim^3).
 */
export function fitPenalizedLogistic(
  rows: readonly SparseRow[],
  y: ArrayLike<number>,
  layout: { dim: number; diagonalFrom: number },
  C: number,
  start?: Float64Array,
): Float64Array {
  const { dim } = layout;
  const w = start ? Float64Array.from(start) : new Float64Array(dim);
  let f = objective(rows, y, w, C);
  const trial = new Float64Array(dim);
  for (let step = 0; step < MAX_NEWTON_STEPS; step++) {
    const d = derivatives(rows, y, w, C, layout);
    if (maxAbs(d.gradient) <= GRADIENT_TOLERANCE) return w;
    const direction = newtonDirection(d, layout);
    // Backtracking (Armijo): the full Newton step overshoots when C is large and w far from w*.
    // Near w* the decrease falls below the rounding of f (~1e5 here), so a step that changes f by
    // less than that rounding is taken: Newton converges quadratically there.
    const slope = -dot(d.gradient, direction);
    const rounding = 1e-12 * Math.abs(f);
    for (let t = 1; ; t /= 2) {
      for (let j = 0; j < dim; j++) trial[j] = (w[j] as number) - t * (direction[j] as number);
      const ft = objective(rows, y, trial, C);
      if (ft <= f + 1e-4 * t * slope || ft - f <= rounding || t < 1e-12) {
        w.set(trial);
        f = ft;
        break;
      }
    }
  }
  return w;
}

function linear(row: SparseRow, w: ArrayLike<number>): number {
  let z = 0;
  for (let k = 0; k < row.cols.length; k++)
    z += (row.vals[k] as number) * (w[row.cols[k] as number] as number);
  return z;
}

/** log(1 + e^z) without overflow. */
function softplus(z: number): number {
  return z > 0 ? z + Math.log1p(Math.exp(-z)) : Math.log1p(Math.exp(z));
}

function objective(
  rows: readonly SparseRow[],
  y: ArrayLike<number>,
  w: ArrayLike<number>,
  C: number,
): number {
  let loss = 0;
  for (let k = 0; k < rows.length; k++) {
    const z = linear(rows[k] as SparseRow, w);
    loss += softplus(z) - (y[k] as number) * z;
  }
  return 0.5 * dot(w, w) + C * loss;
}

interface Derivatives {
  gradient: Float64Array;
  /** Hessian block of the dense columns, n x n row-major (n = diagonalFrom). */
  dense: Float64Array;
  /** Dense-by-diagonal block, n x m row-major (m = dim - diagonalFrom). */
  cross: Float64Array;
  /** Diagonal of the diagonal block, m. */
  diagonal: Float64Array;
}

function derivatives(
  rows: readonly SparseRow[],
  y: ArrayLike<number>,
  w: ArrayLike<number>,
  C: number,
  layout: { dim: number; diagonalFrom: number },
): Derivatives {
  const n = layout.diagonalFrom;
  const m = layout.dim - n;
  const gradient = Float64Array.from(w);
  const dense = new Float64Array(n * n);
  const cross = new Float64Array(n * m);
  const diagonal = new Float64Array(m).fill(1);
  for (let j = 0; j < n; j++) dense[j * n + j] = 1;
  for (let k = 0; k < rows.length; k++) {
    const row = rows[k] as SparseRow;
    const p = 1 / (1 + Math.exp(-linear(row, w)));
    const r = C * (p - (y[k] as number));
    const s = C * p * (1 - p);
    let diagCol = -1;
    let diagVal = 0;
    for (let a = 0; a < row.cols.length; a++) {
      const ca = row.cols[a] as number;
      const va = row.vals[a] as number;
      gradient[ca] = (gradient[ca] as number) + r * va;
      if (ca >= n) {
        diagCol = ca - n;
        diagVal = va;
        diagonal[diagCol] = (diagonal[diagCol] as number) + s * va * va;
      }
    }
    for (let a = 0; a < row.cols.length; a++) {
      const ca = row.cols[a] as number;
      if (ca >= n) continue;
      const sv = s * (row.vals[a] as number);
      for (let b = 0; b < row.cols.length; b++) {
        const cb = row.cols[b] as number;
        if (cb < n) dense[ca * n + cb] = (dense[ca * n + cb] as number) + sv * (row.vals[b] as number);
      }
      if (diagCol >= 0) cross[ca * m + diagCol] = (cross[ca * m + diagCol] as number) + sv * diagVal;
    }
  }
  return { gradient, dense, cross, diagonal };
}

/** H^-1 g by the Schur complement of the diagonal block: S = A - B D^-1 B^T. */
function newtonDirection(d: Derivatives, layout: { dim: number; diagonalFrom: number }): Float64Array {
  const n = layout.diagonalFrom;
  const m = layout.dim - n;
  const { gradient, dense, cross, diagonal } = d;
  const schur = dense; // overwritten: A - B D^-1 B^T
  const rhs = gradient.slice(0, n);
  for (let a = 0; a < n; a++) {
    for (let j = 0; j < m; j++) {
      const baj = cross[a * m + j] as number;
      if (baj === 0) continue;
      const scaled = baj / (diagonal[j] as number);
      rhs[a] = (rhs[a] as number) - scaled * (gradient[n + j] as number);
      for (let b = 0; b <= a; b++)
        schur[a * n + b] = (schur[a * n + b] as number) - scaled * (cross[b * m + j] as number);
    }
  }
  for (let a = 0; a < n; a++) for (let b = a + 1; b < n; b++) schur[a * n + b] = schur[b * n + a] as number;
  const u = n > 0 ? choleskySolve(schur, rhs, n) : new Float64Array(0);
  const direction = new Float64Array(layout.dim);
  direction.set(u);
  for (let j = 0; j < m; j++) {
    let s = gradient[n + j] as number;
    for (let a = 0; a < n; a++) s -= (cross[a * m + j] as number) * (u[a] as number);
    direction[n + j] = s / (diagonal[j] as number);
  }
  return direction;
}

/** Solves H x = g for a symmetric positive-definite H (dim x dim, row-major), in place on a copy. */
function choleskySolve(hessian: Float64Array, g: Float64Array, dim: number): Float64Array {
  const L = hessian;
  for (let j = 0; j < dim; j++) {
    const rowJ = j * dim;
    let d = L[rowJ + j] as number;
    for (let k = 0; k < j; k++) d -= (L[rowJ + k] as number) ** 2;
    d = Math.sqrt(d);
    L[rowJ + j] = d;
    for (let i = j + 1; i < dim; i++) {
      const rowI = i * dim;
      let s = L[rowI + j] as number;
      for (let k = 0; k < j; k++) s -= (L[rowI + k] as number) * (L[rowJ + k] as number);
      L[rowI + j] = s / d;
    }
  }
  const x = Float64Array.from(g);
  for (let i = 0; i < dim; i++) {
    let s = x[i] as number;
    for (let k = 0; k < i; k++) s -= (L[i * dim + k] as number) * (x[k] as number);
    x[i] = s / (L[i * dim + i] as number);
  }
  for (let i = dim - 1; i >= 0; i--) {
    let s = x[i] as number;
    for (let k = i + 1; k < dim; k++) s -= (L[k * dim + i] as number) * (x[k] as number);
    x[i] = s / (L[i * dim + i] as number);
  }
  return x;
}

function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] as number) * (b[i] as number);
  return s;
}

function maxAbs(a: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] as number));
  return m;
}
