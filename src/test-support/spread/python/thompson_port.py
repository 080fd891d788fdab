"""A port of FormatSpread's Thompson sampling (Sclar et al., ICLR 2024; msclar/formatspread @ 5b48ba2,
format_evaluation.py: ThompsonSamplingAlgorithmAmongPrompts.main and _evaluate_nodes_thompson_sampling,
_choose_final_node), with the model replaced by a fixed outcome matrix `rewards[arm][item]` and the
posterior draw `np.random.beta(a, b)` replaced by a function (so a test can inject draws, or use
`random.Random(seed).betavariate`, which waver's default draw reproduces; the second search is
seeded seed + 1, as waver's runner seeds it).

As theirs: arm 0 is the original format, evaluated on every item before the search, and its
accuracy sets the prior Beta(max(p / (1 - p) * 5, 1.1), 5); a pull evaluates the arm's next
`batch_size` items; the budget of model calls gives budget // batch_size steps, half searching the
highest accuracy, then half the lowest from the first half's counts; a fully evaluated arm is never
drawn; the answer is the evaluated arm of highest (lowest) observed accuracy."""

import copy
import json
import random
import sys


def choose_final(successes, totals, objective, nodes):
    acc = [(successes[n] / totals[n], n) for n in nodes if totals[n] > 0]
    return sorted(acc, reverse=(objective == "highest"))[0][-1]


def search(rewards, nodes, successes, totals, steps, batch_size, objective, prior, draw, log):
    n_items = totals[nodes[0]]
    final = []
    for step in range(steps):
        samples = []
        for node in nodes:
            if totals[node] == n_items:
                samples.append(1e9 if objective == "lowest" else -1e9)
            else:
                a = prior[0] + successes[node]
                b = prior[1] + totals[node] - successes[node]
                x = draw(a, b)
                log.append({"arm": nodes.index(node), "a": a, "b": b, "draw": x})
                samples.append(x)
        if objective == "lowest" and min(samples) == 1e9:
            break
        if objective == "highest" and max(samples) == -1e9:
            break
        chosen = nodes[samples.index(min(samples)) if objective == "lowest" else samples.index(max(samples))]
        arm = nodes.index(chosen)
        start = totals[chosen]
        batch = rewards[arm][start:start + batch_size]
        successes[chosen] += sum(batch)
        totals[chosen] += len(batch)
        log.append({"pull": arm, "objective": objective})
        final.append(choose_final(successes, totals, objective, nodes))
    return final


def run(case, draw_for):
    """draw_for(phase) gives the draw of phase 0 (highest) and 1 (lowest)."""
    rewards = case["rewards"]
    nodes = [f"arm-{k:03d}" for k in range(len(rewards))]
    n_items = len(rewards[0])
    steps = case["budget"] // case["batchSize"]
    assert case["budget"] % case["batchSize"] == 0 and steps % 2 == 0
    successes = {n: 0 for n in nodes}
    totals = {n: 0 for n in nodes}
    successes[nodes[0]], totals[nodes[0]] = sum(rewards[0]), n_items
    p = successes[nodes[0]] / totals[nodes[0]]
    prior = (max(p / (1 - p) * 5, 1.1), 5)
    log = []
    best_final = search(rewards, nodes, successes, totals, steps // 2, case["batchSize"], "highest", prior, draw_for(0), log)
    s1, t1 = copy.copy(successes), copy.copy(totals)
    before = choose_final(s1, t1, "lowest", nodes)
    worst_final = search(rewards, nodes, successes, totals, steps // 2, case["batchSize"], "lowest", prior, draw_for(1), log)
    worst = worst_final[-1] if worst_final else before
    return {"prior": list(prior), "log": log, "best": nodes.index(best_final[-1]), "worst": nodes.index(worst),
            "successes": [successes[n] for n in nodes], "trials": [totals[n] for n in nodes]}


if __name__ == "__main__":
    cases = json.load(sys.stdin)
    out = []
    for case in cases:
        if "draws" in case:
            it = iter(case["draws"])
            out.append(run(case, lambda phase: lambda a, b: next(it)))
        else:
            # theirs draws from numpy's global, unseeded stream; waver seeds each search: seed, seed + 1
            out.append(run(case, lambda phase: random.Random(case["seed"] + phase).betavariate))
    json.dump(out, sys.stdout)
