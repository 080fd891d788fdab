import type { CellObservation } from './rasch-model.js';

/**
 * The observed cells of a template x item grid: each cell's mean over its observations (repeats
 * averaged) and whether it was observed at all.
 */
export interface ObservedGrid {
  nTemplates: number;
  nItems: number;
  /** Row-major nTemplates x nItems: mean correctness of the cell's observations (0 where unobserved). */
  mean: Float64Array;
  /** Row-major: observations of the cell. */
  count: Int32Array;
}

export function observedGrid(
  nTemplates: number,
  nItems: number,
  observations: readonly CellObservation[],
): ObservedGrid {
  const mean = new Float64Array(nTemplates * nItems);
  const count = new Int32Array(nTemplates * nItems);
  for (const o of observations) {
    const k = o.template * nItems + o.item;
    mean[k] = (mean[k] as number) + o.correct;
    count[k] = (count[k] as number) + 1;
  }
  for (let k = 0; k < mean.length; k++)
    if ((count[k] as number) > 0) mean[k] = (mean[k] as number) / (count[k] as number);
  return { nTemplates, nItems, mean, count };
}

export function distinctCells(grid: ObservedGrid): number {
  let n = 0;
  for (const c of grid.count) if (c > 0) n++;
  return n;
}

/** Refuses observations outside the grid or with a correctness outside [0, 1], naming the first. */
export function checkObservations(
  nTemplates: number,
  nItems: number,
  observations: readonly CellObservation[],
): void {
  for (const [name, v] of [
    ['nTemplates', nTemplates],
    ['nItems', nItems],
  ] as const) {
    if (!Number.isInteger(v) || v < 1)
      throw new RangeError(`estimateSpread: ${name} must be a whole number >= 1, got ${v}`);
  }
  if (observations.length === 0)
    throw new RangeError('estimateSpread: no observations; nothing to estimate from');
  observations.forEach((o, k) => {
    const bad =
      !Number.isInteger(o.template) || o.template < 0 || o.template >= nTemplates
        ? `template ${o.template} is not in [0, ${nTemplates})`
        : !Number.isInteger(o.item) || o.item < 0 || o.item >= nItems
          ? `item ${o.item} is not in [0, ${nItems})`
          : !(o.correct >= 0 && o.correct <= 1)
            ? `correct ${o.correct} is not in [0, 1]`
            : undefined;
    if (bad) throw new RangeError(`estimateSpread: observation ${k}: ${bad}`);
  });
}
