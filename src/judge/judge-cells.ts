import type { SuiteTest } from '../run/types.js';
import type { Store, StoredCell } from '../store/store.js';
import type { JudgeVerdict } from './types.js';

/**
 * Every cell of the judge suites named `name`, oldest suite first (so a later verdict replaces an
 * earlier one), each with its test; a cell whose test the suite lacks is skipped.
 */
export function* judgeCells(store: Store, name: string): Generator<{ cell: StoredCell; test: SuiteTest }> {
  for (const hash of store.suites.withCellsNamed(name).reverse()) {
    const suite = store.suites.get(hash);
    if (!suite) continue;
    const tests = new Map(suite.tests.map((t) => [t.id, t]));
    for (const cell of store.cells.all({ suiteHash: hash })) {
      const test = tests.get(cell.testId);
      if (test) yield { cell, test };
    }
  }
}

/** The verdicts with `judge`'s replaced by this one (no label: the judge gave none that parses). */
export function withVerdict(
  verdicts: readonly JudgeVerdict[],
  judge: string,
  label: string | undefined,
): JudgeVerdict[] {
  return [...verdicts.filter((v) => v.judge !== judge), { judge, ...(label ? { label } : {}) }];
}
