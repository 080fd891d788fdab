"""Writes src/test-support/spread/thompson.json: outcome matrices, injected draws or a seed, and the
port's run of FormatSpread's search. Run: python3 make_thompson_fixture.py > ../thompson.json"""

import json
import random
import subprocess
import sys

rng = random.Random(39)


def rewards(n_arms, n_items, accs):
    return [[1 if rng.random() < accs[a] else 0 for _ in range(n_items)] for a in range(n_arms)]


accs = [0.55, 0.2, 0.9, 0.5, 0.35, 0.7, 0.62, 0.1]
cases = [
    {"name": "8 arms x 60 items, batch 5, budget 80, injected draws", "rewards": rewards(8, 60, accs), "batchSize": 5, "budget": 80,
     "draws": [round(rng.random(), 6) for _ in range(400)]},
    {"name": "8 arms x 60 items, batch 5, budget 80, seeded betavariate", "rewards": rewards(8, 60, accs), "batchSize": 5, "budget": 80, "seed": 7},
    {"name": "4 arms x 10 items, batch 5, budget 60 (arms run out)", "rewards": rewards(4, 10, [0.6, 0.3, 0.8, 0.5]), "batchSize": 5, "budget": 60, "seed": 3},
    {"name": "20 arms x 40 items, batch 20, budget 400 (their default batch)", "rewards": rewards(20, 40, [0.3 + 0.03 * a for a in range(20)]), "batchSize": 20, "budget": 400, "seed": 11},
]
out = json.loads(subprocess.run([sys.executable, "thompson_port.py"], input=json.dumps(cases), capture_output=True, text=True, check=True).stdout)
json.dump({"source": "msclar/formatspread @ 5b48ba2, format_evaluation.py:233-460 (ported in thompson_port.py)",
           "cases": [dict(c, expected=o) for c, o in zip(cases, out)]}, sys.stdout)
