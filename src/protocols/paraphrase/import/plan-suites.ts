import { suiteOf } from '../../../run/suite.js';
import { ITEMS_SUITE } from '../suite-names.js';
import { type ImportedTest, type ImportSource, importedTestId } from './recorded.js';
import type { ImportedModelPlan, ImportedSuitePlan } from './write.js';

/** One (item, variant) as a harness asked it, whichever model answered. */
export interface PlannedItem {
  item: string;
  variant: string;
  category: string;
  dataset: string;
  prompt: string;
  key: string;
  repeats: number;
}

/**
 * The imported tests grouped into suites: variants that asked a shared item are variants of one
 * item set (one suite); variants with no item in common (two datasets in one run) are apart. Tests
 * are ordered by variant, then item, so the same runs give the same suite whether their models are
 * imported together or one at a time (two imports then share the suite, and their models pair up).
 */
export function groupVariants(
  items: readonly PlannedItem[],
  models: readonly ImportedModelPlan[],
  source: ImportSource,
): ImportedSuitePlan[] {
  const tests = new Map<string, PlannedItem>();
  for (const p of items)
    if (!tests.has(importedTestId(p.item, p.variant))) tests.set(importedTestId(p.item, p.variant), p);
  const root = unionVariants([...tests.values()]);
  const groups = new Map<string, PlannedItem[]>();
  for (const p of tests.values()) {
    const g = root(p.variant);
    groups.set(g, [...(groups.get(g) ?? []), p]);
  }
  const byName = (a: string, b: string) => a.localeCompare(b, 'en', { numeric: true });
  return [...groups.values()].map((group) => {
    const sorted = group.sort((a, b) => byName(a.variant, b.variant) || byName(a.item, b.item));
    const suite = suiteOf<ImportedTest>(
      ITEMS_SUITE,
      sorted.map((p) => ({
        id: importedTestId(p.item, p.variant),
        prompt: p.prompt,
        repeats: p.repeats,
        meta: {
          protocol: 'paraphrase',
          imported: source,
          item: p.item,
          variant: p.variant,
          category: p.category,
          key: p.key,
          dataset: p.dataset,
        },
      })),
    );
    const ids = new Set(suite.tests.map((t) => t.id));
    return {
      suite,
      models: models
        .map((m) => ({ ...m, cells: m.cells.filter((c) => ids.has(c.testId)) }))
        .filter((m) => m.cells.length > 0),
    };
  });
}

/** Union-find over variants: two variants that asked one item are joined. */
function unionVariants(tests: readonly PlannedItem[]): (variant: string) => string {
  const parent = new Map<string, string>();
  const find = (v: string): string => {
    const p = parent.get(v) ?? v;
    if (p === v) return v;
    const r = find(p);
    parent.set(v, r);
    return r;
  };
  const firstVariantOf = new Map<string, string>();
  for (const t of tests) {
    if (!parent.has(t.variant)) parent.set(t.variant, t.variant);
    const other = firstVariantOf.get(t.item);
    if (other === undefined) firstVariantOf.set(t.item, t.variant);
    else parent.set(find(t.variant), find(other));
  }
  return find;
}

/**
 * `--answers verdict`: the answer compared across repeats and variants is the verdict (right,
 * wrong), not the output. Free text rarely repeats word for word at temperature > 0, so on outputs
 * run instability says little more than that sampling is on (docs/import.md#answers).
 */
export function comparingVerdicts(plans: readonly ImportedSuitePlan[]): ImportedSuitePlan[] {
  return plans.map((p) => ({
    ...p,
    models: p.models.map((m) => ({
      ...m,
      cells: m.cells.map((c) => ({ ...c, answer: c.correct ? 'right' : 'wrong' })),
    })),
  }));
}
