import { percentile } from '../../../stats/bootstrap.js';
import { PyRandom } from '../../../util/random.js';
import type { RaschInput } from './rasch-model.js';
import { summarise } from './summary.js';

/**
 * Intervals for the spread estimates (PromptEval gives point estimates only): a percentile
 * bootstrap over items. Each resample draws nItems items with replacement (the indices of
 * Python's `random.Random(seed).choices(range(nItems), k=nItems)`, as `clusterBootstrap`), carries
 * every observation of a drawn item with it (a drawn-twice item is two items), re-runs the whole
 * estimator (so the model is refitted and the unobserved cells predicted again) and recomputes each
 * statistic. The interval covers both which items the dataset holds and which cells were asked.
 * docs/spread.md#estimators.
 */
export const SPREAD_BOOTSTRAP_RESAMPLES = 200;

export interface SpreadIntervals {
  quantiles: Array<[number, number]>;
  best: [number, number];
  worst: [number, number];
  spread: [number, number];
}

export function itemBootstrap(
  input: RaschInput,
  perTemplate: (resampled: RaschInput) => number[] | undefined,
  opts: { seed: number; level: number; resamples?: number },
): SpreadIntervals | undefined {
  const resamples = opts.resamples ?? SPREAD_BOOTSTRAP_RESAMPLES;
  const byItem: Array<Array<{ template: number; correct: number }>> = Array.from(
    { length: input.nItems },
    () => [],
  );
  for (const o of input.observations) byItem[o.item]?.push({ template: o.template, correct: o.correct });
  const rng = new PyRandom(opts.seed);
  const draws: number[][] = Array.from({ length: 8 }, () => []); // 5 quantiles, best, worst, spread
  for (let b = 0; b < resamples; b++) {
    const picked = Array.from({ length: input.nItems }, () => Math.floor(rng.random() * input.nItems));
    const resampled: RaschInput = {
      nTemplates: input.nTemplates,
      nItems: input.nItems,
      observations: picked.flatMap((orig, item) => (byItem[orig] ?? []).map((o) => ({ ...o, item }))),
      ...(input.templateCovariates ? { templateCovariates: input.templateCovariates } : {}),
      ...(input.itemCovariates
        ? { itemCovariates: picked.map((orig) => input.itemCovariates?.[orig] ?? []) }
        : {}),
    };
    // A resample can leave a template (full-grid) or the whole grid without data: it has no value.
    const values = resampled.observations.length > 0 ? perTemplate(resampled) : undefined;
    if (!values) continue;
    const s = summarise(values);
    for (const [k, v] of [...s.quantiles, s.best.value, s.worst.value, s.spread].entries()) draws[k]?.push(v);
  }
  if (draws[0]?.length === 0) return undefined;
  const alpha = (1 - opts.level) / 2;
  const interval = (k: number): [number, number] => {
    const sorted = Float64Array.from(draws[k] as number[]).sort();
    return [percentile(sorted, alpha), percentile(sorted, 1 - alpha)];
  };
  return {
    quantiles: [0, 1, 2, 3, 4].map(interval),
    best: interval(5),
    worst: interval(6),
    spread: interval(7),
  };
}
