"""Reference values for waver's variance components (src/stats/variance-components.ts) on a
balanced crossed design with a binary outcome: items x templates x option orders, each cell asked
`repeats` times; random effects for item, template, order and template x item; the other
interactions pooled into the cell-level residual; the repeats' within-cell variance as 'repeat'.

Computed by pandas group means and numpy, independently of waver's code: the random-effects ANOVA
(sums of squares of marginal means, expected mean squares of a balanced all-random design, solved
from the highest-order term down), untruncated. (statsmodels' MixedLM was tried as a second
reference: its REML fit of the crossed terms as variance components of one group did not reproduce
these on the fixture, and took minutes; see docs/spread.md#estimators.)
Writes src/test-support/spread/variance-components.json:
  python3 variance_components_ref.py > ../variance-components.json  (numpy, pandas)"""

import json
import sys
import warnings

import numpy as np
import pandas as pd

warnings.simplefilter("ignore")


def simulate(n_items, n_templates, n_orders, repeats, seed):
    rng = np.random.RandomState(seed)
    item = rng.normal(0, 1.2, n_items)
    template = rng.normal(0, 0.5, n_templates)
    order = rng.normal(0, 0.3, n_orders)
    ti = rng.normal(0, 0.6, (n_templates, n_items))
    rows = []
    for i in range(n_items):
        for t in range(n_templates):
            for o in range(n_orders):
                p = 1 / (1 + np.exp(-(0.4 + item[i] + template[t] + order[o] + ti[t, i])))
                for r in range(repeats):
                    rows.append({"item": f"i{i:02d}", "template": f"t{t}", "order": f"o{o}", "correct": int(rng.uniform() < p)})
    return pd.DataFrame(rows)


def anova(df, factors, interactions):
    y = df["correct"].to_numpy(float)
    n = len(y)
    grand = y.mean()
    levels = {f: df[f].nunique() for f in ["item"] + factors}
    terms = [("item",)] + [(f,) for f in factors] + [tuple(p) for p in interactions]
    ss, dfs = {}, {}
    for term in terms:
        if len(term) == 1:
            m = df.groupby(term[0])["correct"].mean()
            ss[term] = n / levels[term[0]] * ((m - grand) ** 2).sum()
            dfs[term] = levels[term[0]] - 1
        else:
            a, b = term
            mab = df.groupby([a, b])["correct"].mean()
            ma = df.groupby(a)["correct"].mean()
            mb = df.groupby(b)["correct"].mean()
            dev = [mab[(x, z)] - ma[x] - mb[z] + grand for x, z in mab.index]
            ss[term] = n / (levels[a] * levels[b]) * np.sum(np.square(dev))
            dfs[term] = (levels[a] - 1) * (levels[b] - 1)
    cell_cols = ["item"] + factors
    cell_mean = df.groupby(cell_cols)["correct"].transform("mean").to_numpy()
    cells = df.groupby(cell_cols).ngroups
    r = n // cells
    ss_rep = np.sum((y - cell_mean) ** 2)
    df_rep = cells * (r - 1)
    ss_res = np.sum((y - grand) ** 2) - ss_rep - sum(ss.values())
    df_res = cells - 1 - sum(dfs.values())
    ms = {t: ss[t] / dfs[t] for t in terms}
    var = {}
    var["repeat"] = ss_rep / df_rep if r > 1 else None
    base = var["repeat"] or 0.0
    ms_res = ss_res / df_res
    var["residual"] = (ms_res - base) / r if r > 1 else ms_res
    floor = ms_res  # E[MS_res] = s2_rep + r s2_res
    k = lambda term: n / np.prod([levels[f] for f in term])
    for term in terms[::-1]:
        higher = sum(k(u) * var[u] for u in terms if len(u) > len(term) and set(term) <= set(u))
        var[term] = (ms[term] - floor - higher) / k(term)
    out = {"item": var[("item",)]}
    for f in factors:
        out[f] = var[(f,)]
    for a, b in interactions:
        out[f"{a}×{b}"] = var[(a, b)]
    if r > 1:
        out["repeat"] = var["repeat"]
    out["residual"] = var["residual"]
    return out


cases = []
for name, (ni, nt, no, reps, seed) in {
    "24 items x 5 templates x 2 orders x 2 repeats": (24, 5, 2, 2, 1),
    "30 items x 4 templates x 3 orders x 1 repeat": (30, 4, 3, 1, 2),
}.items():
    df = simulate(ni, nt, no, reps, seed)
    factors, interactions = ["template", "order"], [["template", "item"]]
    cases.append({"name": name, "factors": factors, "interactions": interactions,
                  "cells": [{"item": r.item, "factors": {"template": r.template, "order": r.order}, "correct": int(r.correct)} for r in df.itertuples()],
                  "anova": anova(df, factors, interactions)})
json.dump({"cases": cases}, sys.stdout)
