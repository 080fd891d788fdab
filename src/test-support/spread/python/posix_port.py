"""POSIX (Chatterjee et al. 2024, arXiv 2410.02185) on log-likelihood matrices, two ways:
- `paper`: Definition 3 as the authors' README states it,
  psi = 1/(N(N-1)) sum_i sum_j |log P(y_j|x_i) - log P(y_j|x_j)| / L_{y_j};
- `reference`: the authors' code (kowndinya-renduchintala/POSIX @ 8e73401,
  src/prompt_sensitivity_index/posix.py:78-83), line for line: psi += |lp[j][i] - lp[j][j]| / max_new_tokens.
lp[i][k] = log P(y_k | x_i), as their `logprob_matrix[i] = compute_log_probabilties([x_i] * N, responses)`.
Writes src/test-support/spread/posix.json: python3 posix_port.py > ../posix.json (numpy, scipy)."""

import json
import sys

import numpy as np
from scipy import stats


def psi_paper(lp, lengths):
    n = len(lp)
    return sum(abs(lp[i][j] - lp[j][j]) / lengths[j] for i in range(n) for j in range(n)) / (n * (n - 1))


def psi_reference(lp, max_new_tokens):
    n = len(lp)
    psi = 0.0
    for i in range(n):
        for j in range(n):
            psi += (abs(lp[j][i] - lp[j][j])) / max_new_tokens
    return psi / (n * (n - 1))


rng = np.random.RandomState(2410)
items = []
for n in (2, 3, 5, 8, 4, 6):
    lengths = rng.randint(1, 9, size=n).tolist()
    own = -rng.gamma(2.0, 1.5, size=n) * np.array(lengths) / 3
    lp = (own[None, :] - np.abs(rng.normal(0, 2.0, size=(n, n))) * (1 - np.eye(n))).round(9)
    lp[np.arange(n), np.arange(n)] = own.round(9)
    lp = lp.tolist()
    items.append({"logprob": lp, "responseTokens": lengths,
                  "paper": psi_paper(lp, lengths), "reference": psi_reference(lp, 5)})
per_item = [it["paper"] for it in items]
mean = float(np.mean(per_item))
half = stats.t.ppf(0.975, len(per_item) - 1) * np.std(per_item, ddof=1) / np.sqrt(len(per_item))
json.dump({"tInterval95": [mean - half, mean + half], "source": "README Definition 3 and src/prompt_sensitivity_index/posix.py @ 8e73401 (ported in posix_port.py)",
           "maxNewTokens": 5, "items": items, "posix": mean}, sys.stdout)
