"""Reference for waver's deconvolved spread estimator (decision E60, docs/spread.md#deconvolved).

An independent fit of the same model: template effects theta ~ N(0, tau^2) integrated out on the
same 41-point grid over +-5 tau, item effects with a N(muB, varB) prior. For a given (muB, varB),
(beta, log tau) maximise the marginal log-likelihood plus the item prior directly (scipy L-BFGS,
analytic gradient) instead of waver's EM; then muB, varB are updated from the modes and their
curvatures (Laplace), to a fixed point. Then the triple-goal estimates (Shen & Louis 1998) with
scipy's normal CDF and brentq. Writes one line of JSON (the fixture deconvolved.json).

    python3 deconvolved_ref.py > ../deconvolved.json   (numpy, scipy)
"""
import json

import numpy as np
from scipy.optimize import brentq, minimize
from scipy.special import expit, log_expit, logsumexp
from scipy.stats import norm

K = 41
Z = np.linspace(-5, 5, K)
LOG_PRIOR = -0.5 * Z**2 - logsumexp(-0.5 * Z**2)


def marginal(params, tmpl, item, y, n_t, mu_b, var_b):
    beta, tau = params[:-1], np.exp(params[-1])
    x = tau * Z[None, :] + beta[item][:, None]  # obs x K
    ll = y[:, None] * log_expit(x) + (1 - y[:, None]) * log_expit(-x)
    per_t = np.zeros((n_t, K))
    np.add.at(per_t, tmpl, ll)
    per_t += LOG_PRIOR
    lse = logsumexp(per_t, axis=1)
    w = np.exp(per_t - lse[:, None])  # posterior weights
    resid = w[tmpl] * (y[:, None] - expit(x))
    g_beta = np.zeros_like(beta)
    np.add.at(g_beta, item, resid.sum(1))
    g_beta -= (beta - mu_b) / var_b
    g_logtau = (resid * (tau * Z[None, :])).sum()
    obj = lse.sum() - ((beta - mu_b) ** 2).sum() / (2 * var_b)
    return -obj, -np.append(g_beta, g_logtau), w


def fit(n_t, n_i, obs):
    tmpl, item, y = (np.array([o[k] for o in obs]) for k in range(3))
    y = y.astype(float)
    counts = np.bincount(item, minlength=n_i)
    sums = np.bincount(item, weights=y, minlength=n_i)
    p = (sums + 0.5) / (counts + 1)
    params = np.append(np.log(p / (1 - p)), np.log(0.5))
    mu_b, var_b = params[:-1].mean(), max(0.01, params[:-1].var())
    for _ in range(2000):
        res = minimize(
            lambda v: marginal(v, tmpl, item, y, n_t, mu_b, var_b)[:2],
            params, jac=True, method="L-BFGS-B", options={"gtol": 1e-11, "ftol": 1e-15, "maxiter": 5000},
        )
        params = res.x
        beta, tau = params[:-1], np.exp(params[-1])
        w = marginal(params, tmpl, item, y, n_t, mu_b, var_b)[2]
        pr = expit(tau * Z[None, :] + beta[item][:, None])
        h = np.zeros(n_i)
        np.add.at(h, item, (w[tmpl] * pr * (1 - pr)).sum(1))
        h += 1 / var_b
        new_mu, new_var = beta.mean(), max(0.01, ((beta - beta.mean()) ** 2 + 1 / h).mean())
        done = abs(new_mu - mu_b) < 1e-12 and abs(new_var - var_b) < 1e-12
        mu_b, var_b = new_mu, new_var
        if done:
            break
    return beta, 1 / h, tau, mu_b, var_b, w


def triple_goal(beta, beta_var, tau, w):
    n_t, n_i = w.shape[0], len(beta)
    theta = tau * Z
    pr = expit((theta[:, None] + beta[None, :]) / np.sqrt(1 + np.pi * beta_var[None, :] / 8))
    mean, sd = pr.mean(1), np.maximum(1e-9, np.sqrt((pr * (1 - pr)).sum(1)) / n_i)
    wbar = w.mean(0)
    cdf = lambda a: (wbar * norm.cdf((a - mean) / sd)).sum()
    order = np.argsort(w @ theta, kind="stable")
    out = np.zeros(n_t)
    for rank, t in enumerate(order):
        u = (rank + 0.5) / n_t
        out[t] = brentq(lambda a: cdf(a) - u, 0, 1, xtol=1e-14)
    return out


def case(name, seed, n_t, n_i, n_obs, sd_t):
    rng = np.random.default_rng(seed)
    theta = sd_t * rng.standard_normal(n_t)
    b = 0.3 + 1.2 * rng.standard_normal(n_i)
    cells = rng.choice(n_t * n_i, size=n_obs, replace=False)
    obs = []
    for c in sorted(cells):
        t, i = divmod(int(c), n_i)
        obs.append([t, i, int(rng.random() < expit(theta[t] + b[i]))])
    beta, beta_var, tau, mu_b, var_b, w = fit(n_t, n_i, obs)
    per = triple_goal(beta, beta_var, tau, w)
    return {
        "name": name, "nTemplates": n_t, "nItems": n_i, "observations": obs,
        "expected": {"tau": tau, "muB": mu_b, "varB": var_b, "beta": beta.tolist(), "perTemplate": per.tolist()},
    }


print(json.dumps({"cases": [
    case("15x30, 120 cells, template sd 0.8", 1, 15, 30, 120, 0.8),
    case("20x25, 150 cells, template sd 0.5", 2, 20, 25, 150, 0.5),
    case("12x40, 200 cells, template sd 1.2", 3, 12, 40, 200, 1.2),
]}))
