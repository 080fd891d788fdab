import { PyRandom } from '../../../util/random.js';

/**
 * FormatSpread's Thompson sampling (Sclar et al., ICLR 2024; msclar/formatspread @ 5b48ba2,
 * `ThompsonSamplingAlgorithmAmongPrompts` in format_evaluation.py:338-405) for the best or the worst
 * template under a budget. Each arm (template) has a Beta(alpha + successes, beta + failures)
 * posterior; a step draws one value per arm and pulls the arm with the highest draw (target
 * 'best') or the lowest ('worst'), the first such arm on ties (numpy's argmax/argmin). A pull is a
 * batch of items (theirs: `--batch_size_format_spread`, 20 by default), asked in the dataset's order,
 * continuing where the arm stopped: the runner calls `next()` once per batch and `update()` once per
 * item. An arm whose every item is asked (`capacity`) is not drawn; `next()` is -1 once none is
 * left (their early stop). The budget is the runner's: theirs spends half the calls on 'best', then
 * half on 'worst', the second search starting from the first's counts (`initial`).
 */
export interface ThompsonOptions {
  nArms: number;
  seed: number;
  target: 'best' | 'worst';
  /** Beta prior of every arm; Beta(1, 1) by default, `formatSpreadPrior` for theirs. */
  prior?: { alpha: number; beta: number };
  /** Items per arm; an arm with this many outcomes is fully evaluated and no longer drawn. */
  capacity?: number;
  /** Counts carried over (their second phase starts from the first phase's counts). */
  initial?: { successes: readonly number[]; trials: readonly number[] };
  /** The posterior draw; CPython's `random.Random(seed).betavariate` by default (tests inject draws). */
  drawBeta?: (alpha: number, beta: number) => number;
}

export interface ThompsonSearch {
  next(): number;
  update(arm: number, reward: number): void;
  posteriorMean(arm: number): number;
  /** Their final answer (`_choose_final_node`): the evaluated arm with the highest (lowest) observed accuracy. */
  chosen(): number | undefined;
  successes(arm: number): number;
  trials(arm: number): number;
}

/**
 * Their prior: Beta(a, 5) whose mean is the accuracy of the original format (evaluated on every
 * item before the search), a = max(p / (1 - p) * 5, 1.1) "to avoid non-bell shape curves"
 * (format_evaluation.py:355-362). p = 1 has no such a; waver caps a at that of p = 0.999.
 */
export function formatSpreadPrior(originalAccuracy: number): { alpha: number; beta: number } {
  if (!(originalAccuracy >= 0 && originalAccuracy <= 1)) {
    throw new RangeError(`formatSpreadPrior: accuracy must be in [0, 1], got ${originalAccuracy}`);
  }
  const p = Math.min(originalAccuracy, 0.999);
  return { alpha: Math.max((p / (1 - p)) * 5, 1.1), beta: 5 };
}

export function createThompsonSearch(opts: ThompsonOptions): ThompsonSearch {
  const { nArms, target } = opts;
  if (!Number.isInteger(nArms) || nArms < 1)
    throw new RangeError(`createThompsonSearch: nArms must be >= 1, got ${nArms}`);
  const prior = opts.prior ?? { alpha: 1, beta: 1 };
  if (!(prior.alpha > 0 && prior.beta > 0))
    throw new RangeError('createThompsonSearch: prior alpha and beta must be > 0');
  const rng = new PyRandom(opts.seed);
  const draw = opts.drawBeta ?? ((a: number, b: number) => rng.betavariate(a, b));
  const successes = Float64Array.from(opts.initial?.successes ?? new Array(nArms).fill(0));
  const trials = Float64Array.from(opts.initial?.trials ?? new Array(nArms).fill(0));
  if (successes.length !== nArms || trials.length !== nArms) {
    throw new RangeError(`createThompsonSearch: initial counts must have ${nArms} entries`);
  }
  const sign = target === 'best' ? 1 : -1;
  const checkArm = (arm: number) => {
    if (!Number.isInteger(arm) || arm < 0 || arm >= nArms)
      throw new RangeError(`arm ${arm} is not in [0, ${nArms})`);
  };
  return {
    next() {
      let chosen = -1;
      let bestScore = Number.NEGATIVE_INFINITY;
      for (let arm = 0; arm < nArms; arm++) {
        if (opts.capacity !== undefined && (trials[arm] as number) >= opts.capacity) continue;
        const s = successes[arm] as number;
        const score = sign * draw(prior.alpha + s, prior.beta + (trials[arm] as number) - s);
        if (score > bestScore) {
          bestScore = score;
          chosen = arm;
        }
      }
      return chosen;
    },
    update(arm, reward) {
      checkArm(arm);
      if (!(reward >= 0 && reward <= 1)) throw new RangeError(`reward ${reward} is not in [0, 1]`);
      successes[arm] = (successes[arm] as number) + reward;
      trials[arm] = (trials[arm] as number) + 1;
    },
    posteriorMean(arm) {
      checkArm(arm);
      return (
        (prior.alpha + (successes[arm] as number)) / (prior.alpha + prior.beta + (trials[arm] as number))
      );
    },
    chosen() {
      let chosen: number | undefined;
      for (let arm = 0; arm < nArms; arm++) {
        if ((trials[arm] as number) === 0) continue;
        const acc = (successes[arm] as number) / (trials[arm] as number);
        const current =
          chosen === undefined ? undefined : (successes[chosen] as number) / (trials[chosen] as number);
        if (current === undefined || sign * acc > sign * current) chosen = arm;
      }
      return chosen;
    },
    successes: (arm) => successes[arm] as number,
    trials: (arm) => trials[arm] as number,
  };
}
