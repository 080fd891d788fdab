import { percentile } from '../../../stats/bootstrap.js';

/** The quantiles PromptEval reports (`quantiles=[5, 25, 50, 75, 95]`), as fractions. */
export const SPREAD_QUANTILES = [0.05, 0.25, 0.5, 0.75, 0.95] as const;

export interface SpreadPoint {
  quantiles: number[];
  best: { template: number; value: number };
  worst: { template: number; value: number };
  spread: number;
}

/**
 * Quantiles by numpy's `np.percentile` (linear), as theirs; best and worst the first template at
 * the maximum and minimum (numpy's argmax/argmin); spread = best - worst (FormatSpread's spread).
 */
export function summarise(perTemplate: readonly number[]): SpreadPoint {
  const sorted = Float64Array.from(perTemplate).sort();
  let best = 0;
  let worst = 0;
  perTemplate.forEach((v, t) => {
    if (v > (perTemplate[best] as number)) best = t;
    if (v < (perTemplate[worst] as number)) worst = t;
  });
  const bestValue = perTemplate[best] as number;
  const worstValue = perTemplate[worst] as number;
  return {
    quantiles: SPREAD_QUANTILES.map((q) => percentile(sorted, q)),
    best: { template: best, value: bestValue },
    worst: { template: worst, value: worstValue },
    spread: bestValue - worstValue,
  };
}
