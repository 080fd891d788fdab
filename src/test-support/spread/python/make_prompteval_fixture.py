"""Writes src/test-support/spread/prompteval.json: correctness matrices (deterministic), the cells
the authors' StratSample picks for each budget and seed, and their estimator's outputs.
Run: python3 make_prompteval_fixture.py > ../prompteval.json (needs numpy, scipy, scikit-learn)."""

import json
import sys

import numpy as np

from prompteval_port import run_case


def rasch_matrix(n_t, n_i, seed, template_sd=1.0, item_sd=1.5, mean=0.3):
    rng = np.random.RandomState(seed)
    theta = rng.normal(0, template_sd, n_t)
    beta = rng.normal(mean, item_sd, n_i)
    p = 1 / (1 + np.exp(-(theta[:, None] + beta[None, :])))
    return (rng.uniform(size=p.shape) < p).astype(int), rng


cases = []
Y, _ = rasch_matrix(20, 30, 7)
for cells in (60, 150, 300):
    for seed in (0, 1):
        cases.append({"name": f"20x30 rasch, {cells} cells, seed {seed}", "Y": Y.tolist(), "cells": cells, "seed": seed})
Y2, rng2 = rasch_matrix(12, 25, 11, template_sd=2.0)
cases.append({"name": "12x25 wide spread, 90 cells", "Y": Y2.tolist(), "cells": 90, "seed": 3})
tcov = rng2.normal(size=(12, 3)).round(6)
cases.append({"name": "12x25 template covariates, 90 cells", "Y": Y2.tolist(), "cells": 90, "seed": 3, "templateCovariates": tcov.tolist()})
icov = rng2.normal(size=(25, 2)).round(6)
cases.append({"name": "12x25 both covariates, 120 cells", "Y": Y2.tolist(), "cells": 120, "seed": 4, "templateCovariates": tcov.tolist(), "itemCovariates": icov.tolist()})
cases.append({"name": "8x10 all correct (one class), 20 cells", "Y": np.ones((8, 10), dtype=int).tolist(), "cells": 20, "seed": 5})

outputs = run_case_all = [run_case(c) for c in cases]
json.dump({"source": "felipemaiapolo/prompteval @ c238d64, prompteval/methods.py (ported in prompteval_port.py)",
           "cases": [dict(c, expected=o) for c, o in zip(cases, outputs)]}, sys.stdout)
