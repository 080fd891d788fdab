import { PyRandom } from '../../../util/random.js';

/**
 * PromptEval's sampling design (`StratSample` in prompteval/methods.py, docs/fidelity.md#spread):
 * cell by cell, the template is drawn among those with the fewest cells so far, then the item among
 * that template's unasked items with the fewest cells so far, each by numpy's legacy
 * `RandomState(seed).choice`, so the same seed picks the same cells as the authors' code. Balanced
 * over templates and items: per-template and per-item counts differ by at most one.
 * Stops at `cells` or when the chosen template has no item left (as theirs does).
 */
export function planCells(
  nTemplates: number,
  nItems: number,
  cells: number,
  seed: number,
): Array<{ template: number; item: number }> {
  for (const [name, v] of [
    ['nTemplates', nTemplates],
    ['nItems', nItems],
    ['cells', cells],
  ] as const) {
    if (!Number.isInteger(v) || v < 0)
      throw new RangeError(`planCells: ${name} must be a whole number >= 0, got ${v}`);
  }
  const rng = PyRandom.numpyLegacy(seed);
  const seen = new Uint8Array(nTemplates * nItems);
  const rowSums = new Int32Array(nTemplates);
  const colSums = new Int32Array(nItems);
  const out: Array<{ template: number; item: number }> = [];
  while (out.length < cells && nTemplates > 0) {
    const template = drawAmongFewest(
      rng,
      nTemplates,
      (t) => rowSums[t] as number,
      () => true,
    );
    const base = template * nItems;
    const item = drawAmongFewest(
      rng,
      nItems,
      (i) => colSums[i] as number,
      (i) => seen[base + i] === 0,
    );
    if (item < 0) break;
    seen[base + item] = 1;
    rowSums[template] = (rowSums[template] as number) + 1;
    colSums[item] = (colSums[item] as number) + 1;
    out.push({ template, item });
  }
  return out;
}

/** `rng.choice([i for i in available if count(i) == min count])`, or -1 when none is available. */
function drawAmongFewest(
  rng: PyRandom,
  n: number,
  count: (i: number) => number,
  available: (i: number) => boolean,
): number {
  let min = Number.POSITIVE_INFINITY;
  const ties: number[] = [];
  for (let i = 0; i < n; i++) {
    if (!available(i)) continue;
    const c = count(i);
    if (c < min) {
      min = c;
      ties.length = 0;
    }
    if (c === min) ties.push(i);
  }
  if (ties.length === 0) return -1;
  return ties[rng.numpyRandbelow(ties.length)] as number;
}
