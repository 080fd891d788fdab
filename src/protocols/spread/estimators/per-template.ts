import type { ObservedGrid } from './grid.js';
import { type FittedRasch, sigmoid } from './rasch-model.js';

/**
 * PromptEval's per-template accuracy (`get_Y_hat().mean(-1)`): an observed cell counts its own
 * outcome (its repeats' mean), an unobserved one the model's probability, averaged over all items.
 */
export function raschPerTemplate(grid: ObservedGrid, model: FittedRasch): number[] {
  const out: number[] = [];
  for (let t = 0; t < grid.nTemplates; t++) {
    let sum = 0;
    for (let i = 0; i < grid.nItems; i++) {
      const k = t * grid.nItems + i;
      sum += (grid.count[k] as number) > 0 ? (grid.mean[k] as number) : sigmoid(model.logit(t, i));
    }
    out.push(sum / grid.nItems);
  }
  return out;
}

/**
 * The plain estimate (the authors' `Baseline`, without its 1e-10 smoothing): each template's mean
 * over its observed cells. Undefined when a template has no observed cell (it cannot be computed).
 */
export function observedPerTemplate(grid: ObservedGrid): number[] | undefined {
  const out: number[] = [];
  for (let t = 0; t < grid.nTemplates; t++) {
    let sum = 0;
    let n = 0;
    for (let i = 0; i < grid.nItems; i++) {
      const k = t * grid.nItems + i;
      if ((grid.count[k] as number) > 0) {
        sum += grid.mean[k] as number;
        n++;
      }
    }
    if (n === 0) return undefined;
    out.push(sum / n);
  }
  return out;
}
