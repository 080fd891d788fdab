"""A port of PromptEval's estimator (Maia Polo et al., NeurIPS 2024), from the authors' code
(felipemaiapolo/prompteval @ c238d64, prompteval/methods.py), to make the reference values that
waver's TypeScript `estimateSpread` and `planCells` are checked against.

Ported as the authors run it by default (`PromptEval.fit` with logreg=False, X=None, Z=None):
- the sampling design `StratSample` (random_column=False): the next template is drawn among those
  with the fewest cells seen, the next item among that template's unseen items with the fewest
  cells seen, both with `np.random.RandomState(seed).choice`;
- the extended Rasch model `ExtendedRaschModel.fit` with one-hot templates and items (the last
  item's column dropped, no intercept): scikit-learn `LogisticRegression(C=100, solver="liblinear",
  fit_intercept=False, random_state=0)`, with their trick for a sample of one class (one label
  flipped at `RandomState(0).choice(len(y))`);
- `get_Y_hat`: seen cells keep their 0/1, unseen cells get the model's probability
  (logit clipped to [-30, 30]); per-template accuracy is the row mean; quantiles by `np.percentile`.

Besides the liblinear fit (whose stopping tolerance leaves the optimum a little unconverged), the
exact optimum of the same objective is computed with scipy (L-BFGS to gtol 1e-12) so the tests can
separate the solver's tolerance from a difference of model, and once more without the one-class
flip (waver's departure, docs/fidelity.md#spread).
"""

import copy
import json
import sys

import numpy as np
from scipy.optimize import minimize
from sklearn.linear_model import LogisticRegression

REG = 1e2  # methods.py LogisticRegression(reg=1e2): sklearn C


def strat_sample(seen, max_seen, seed):
    matrix = seen.copy()
    rows, columns = matrix.shape
    active = list(range(rows))
    rng = np.random.RandomState(seed)
    row_sums = matrix.sum(1)
    col_sums = matrix.sum(0)
    while True:
        if row_sums.sum() >= max_seen:
            return matrix
        min_row = row_sums[active].min()
        next_row = rng.choice([i for i in active if row_sums[i] == min_row])
        avail = [i for i in range(columns) if not matrix[next_row, i]]
        if not avail:
            return matrix
        min_col = col_sums[avail].min()
        next_col = rng.choice([i for i in avail if col_sums[i] == min_col])
        matrix[next_row, next_col] = True
        row_sums[next_row] += 1
        col_sums[next_col] += 1


def design(seen, x_cov=None, z_cov=None):
    """GenXY plus the column choice of ExtendedRaschModel.fit."""
    n_t, n_i = seen.shape
    X = np.eye(n_t) if x_cov is None else x_cov
    Z = np.eye(n_i) if z_cov is None else z_cov
    rows, cols = np.nonzero(seen)  # row-major order, as GenXY's double loop
    W = np.hstack((X[rows], Z[cols]))
    if x_cov is None and z_cov is None:
        W = W[:, :-1]
    elif x_cov is not None and z_cov is not None:
        W = np.hstack((W, np.ones((W.shape[0], 1))))
    return W, rows, cols, X, Z


def one_class_trick(y):
    y = copy.deepcopy(y)
    if np.var(y) == 0:
        ind = np.random.RandomState(0).choice(len(y))
        y[ind] = 1 - np.median(y)
    return y


def fit_liblinear(W, y):
    return LogisticRegression(C=REG, random_state=0, solver="liblinear", fit_intercept=False).fit(W, y).coef_.squeeze()


def fit_exact(W, y):
    def f(w):
        z = W @ w
        loss = np.sum(np.logaddexp(0, z) - y * z)
        return 0.5 * w @ w + REG * loss, w + REG * (W.T @ (1 / (1 + np.exp(-z)) - y))

    res = minimize(f, np.zeros(W.shape[1]), jac=True, method="L-BFGS-B", options={"gtol": 1e-12, "ftol": 0, "maxiter": 100000, "maxcor": 50})
    return res.x


def logits_from(mu, X, Z, x_cov, z_cov):
    gammas = mu[: X.shape[1]]
    psi = mu[X.shape[1]:]
    thetas = X @ gammas
    if x_cov is None and z_cov is None:
        betas = np.hstack((psi, [0.0]))
        return thetas[:, None] + betas[None, :]
    if x_cov is None or z_cov is None:
        return thetas[:, None] + (Z @ psi)[None, :]
    return thetas[:, None] + (Z @ psi[:-1])[None, :] + psi[-1]


def sigmoid(x):
    return 1 / (1 + np.exp(-np.clip(x, -30, 30)))


def estimate(Y, seen, mu, X, Z, x_cov, z_cov, quantiles):
    P = sigmoid(logits_from(mu, X, Z, x_cov, z_cov))
    Y_hat = np.where(seen, Y, P)
    accs = Y_hat.mean(-1)
    return {"perTemplate": accs.tolist(), "quantiles": np.percentile(accs, quantiles).tolist()}


def run_case(case):
    Y = np.array(case["Y"], dtype=float)
    seen = strat_sample(np.zeros(Y.shape, dtype=bool), case["cells"], case["seed"])
    x_cov = np.array(case["templateCovariates"], dtype=float) if case.get("templateCovariates") else None
    z_cov = np.array(case["itemCovariates"], dtype=float) if case.get("itemCovariates") else None
    W, rows, cols, X, Z = design(seen, x_cov, z_cov)
    y_seen = Y[rows, cols]
    y = one_class_trick(y_seen)
    q = [5, 25, 50, 75, 95]
    out = {"seen": [[int(r), int(c)] for r, c in zip(rows, cols)], "oneClassFlip": bool(np.any(y != y_seen))}
    out["liblinear"] = estimate(Y, seen, fit_liblinear(W, y), X, Z, x_cov, z_cov, q)
    out["exact"] = estimate(Y, seen, fit_exact(W, y), X, Z, x_cov, z_cov, q)
    # waver fits a sample of one class as it is (the penalty keeps the optimum finite): no flip
    out["exactNoFlip"] = estimate(Y, seen, fit_exact(W, y_seen), X, Z, x_cov, z_cov, q)
    return out


if __name__ == "__main__":
    cases = json.load(sys.stdin)
    json.dump([run_case(c) for c in cases], sys.stdout)
