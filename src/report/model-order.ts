import type { EvalComparison } from '../check/eval-comparison.js';

/**
 * The one order of an eval's models (docs/report.md#model-order, docs/decisions.md E61):
 * every per-model table, chart, legend and list of an eval shows its models so. Decided once, by
 * the report shell (and by a run's output, which ends on the same comparison), and handed to the
 * protocol's section, which knows no other order.
 */

/** A model as an eval names it: its label, and its identity where the caller has it. */
export interface ModelKey {
  label: string;
  identity?: string;
}

export interface ModelOrder {
  /** `comparison`: the comparison's ranking; `label`: no comparison (one model, or no correctness). */
  by: 'comparison' | 'label';
  /** The order in words, for the notes under an eval's heading. */
  says: string;
  /** `items` in this order (a new array); a model the comparison does not rank goes last, by label. */
  sort<T>(items: readonly T[], key: (item: T) => ModelKey): T[];
}

/** Labels in a locale-independent order, then identities: the same on every machine. */
function byLabel(a: ModelKey, b: ModelKey): number {
  return a.label.localeCompare(b.label, 'en') || (a.identity ?? '').localeCompare(b.identity ?? '', 'en');
}

/**
 * The comparison's ranking when the eval has one (two or more models with right/wrong answers),
 * else the models by label: the stated fallback for one model and for SAGO, whose SGS has no
 * correctness to rank by.
 */
export function modelOrder(comparison?: EvalComparison): ModelOrder {
  if (!comparison)
    return {
      by: 'label',
      says: 'by label (no comparison ranks them)',
      sort: (items, key) => [...items].sort((a, b) => byLabel(key(a), key(b))),
    };
  const ranking = comparison.ranking;
  const place = (m: ModelKey): number => {
    const i = ranking.findIndex((r) =>
      m.identity !== undefined ? r.identity === m.identity : r.label === m.label,
    );
    return i < 0 ? ranking.length : i;
  };
  return {
    by: 'comparison',
    says: "ranked as the comparison ranks them (accuracy over each model's scored answers)",
    sort: (items, key) =>
      [...items].sort((a, b) => {
        const ka = key(a);
        const kb = key(b);
        return place(ka) - place(kb) || byLabel(ka, kb);
      }),
  };
}
