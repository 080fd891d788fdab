import { z } from 'zod';
import { auxGet } from '../../../run/aux-cache.js';
import type { Suite } from '../../../run/types.js';
import type { Store } from '../../../store/store.js';
import { type TypedTest, typedTests } from '../../test-meta.js';
import type { ScoredCell } from '../scored-cell.js';

/**
 * Runs made by another harness (`waver import lm-eval`, `waver import promptfoo`; docs/import.md),
 * stored as paraphrase items suites whose tests say where they came from: an item is a document
 * (or a test case), a variant the task or prompt that asked it, a repeat its index. The harness
 * scored each answer; that verdict is kept per (suite, model) as one `measure` row, and the
 * paraphrase figures (SAA, instabilities, flips, paired tests, the gate) are computed from it
 * instead of re-parsing a letter (docs/decisions.md E50; docs/fidelity.md P12).
 */

export const IMPORT_SOURCES = ['lm-eval', 'promptfoo'] as const;
export type ImportSource = (typeof IMPORT_SOURCES)[number];

/** What a test of an imported suite holds. The same for every model, so two models' imports share a suite. */
export const ImportedTestMetaSchema = z.object({
  protocol: z.literal('paraphrase'),
  imported: z.enum(IMPORT_SOURCES),
  /** The item's identity: document id and the document's content hash (lm-eval), the test case's vars' hash (promptfoo). */
  item: z.string(),
  /** The prompt variant: lm-eval's task, promptfoo's prompt label. */
  variant: z.string(),
  /** lm-eval's dataset, promptfoo's eval description. */
  category: z.string(),
  /** The reference as the harness showed it (lm-eval's target, promptfoo's assertions). */
  key: z.string(),
  dataset: z.string(),
});
export type ImportedTestMeta = z.infer<typeof ImportedTestMetaSchema>;
export type ImportedTest = TypedTest<ImportedTestMeta>;

export const IMPORT_RECORD_MEASURE = 'paraphrase-import-record';

/** One model's verdicts on one imported suite, as the harness recorded them. */
export interface ImportRecord {
  imported: true;
  source: ImportSource;
  /** The per-sample metric the verdicts are (lm-eval's `acc`, promptfoo's `success`). */
  metric: string;
  /** `testId\u0000repeat` -> the verdict, the answer compared across repeats and variants, where it was read. */
  cells: Record<string, { correct: boolean; answer: string; file: string; line: number }>;
}

export function importRecordRequest(suiteHash: string, identity: string) {
  return { measure: IMPORT_RECORD_MEASURE, model: identity, suite: suiteHash };
}

export function importSlot(testId: string, repeat: number): string {
  return `${testId}\u0000${repeat}`;
}

export function importedTestId(item: string, variant: string): string {
  return `${item}/${variant}`;
}

/** Whether a stored items suite came from another harness (its tests' meta says `imported`). */
export function isImportedSuite(suite: Suite): boolean {
  const meta = suite.tests[0]?.meta as { imported?: unknown } | undefined;
  return meta?.imported !== undefined;
}

export function importedTests(suite: Suite): ImportedTest[] {
  return typedTests(suite, ImportedTestMetaSchema);
}

/** The suite as the paraphrase report describes it: variants in place of phrasings. */
export function importedSuiteSummary(hash: string, name: string, tests: readonly ImportedTest[]) {
  const itemIds = [...new Set(tests.map((t) => t.meta.item))];
  const categories: Record<string, number> = {};
  const seen = new Set<string>();
  for (const t of tests) {
    if (seen.has(t.meta.item)) continue;
    seen.add(t.meta.item);
    categories[t.meta.category] = (categories[t.meta.category] ?? 0) + 1;
  }
  return {
    hash,
    name,
    dataset: tests[0]?.meta.dataset ?? 'unknown',
    importedFrom: tests[0]?.meta.imported ?? 'unknown',
    items: itemIds.length,
    itemIds,
    categories,
    phrasings: [...new Set(tests.map((t) => t.meta.variant))],
    repeats: Math.max(...tests.map((t) => t.repeats ?? 1)),
    keysVerified: 0,
    reworded: { alternate: 0, generator: 0, generators: [] as string[] },
  };
}

/**
 * Each model's cells of an imported suite with the verdicts its import recorded. A done cell the
 * record has no verdict for is counted failed, with the reason, never dropped nor counted right.
 */
export function importedScoredCells(
  store: Store,
  suiteHash: string,
  tests: ReadonlyMap<string, ImportedTest>,
  models: readonly string[] | undefined,
): Map<string, { label: string; cells: ScoredCell[] }> {
  const wanted = models ? new Set(models) : undefined;
  const byModel = new Map<string, { label: string; cells: ScoredCell[] }>();
  const records = new Map<string, ImportRecord | undefined>();
  for (const cell of store.cells.all({ suiteHash })) {
    if (wanted && !wanted.has(cell.modelIdentity)) continue;
    const test = tests.get(cell.testId);
    if (!test || cell.repeat >= (test.repeats ?? 1)) continue;
    if (!records.has(cell.modelIdentity))
      records.set(
        cell.modelIdentity,
        auxGet<ImportRecord>(
          store,
          'measure',
          cell.modelIdentity,
          importRecordRequest(suiteHash, cell.modelIdentity),
        ),
      );
    const record = records.get(cell.modelIdentity);
    const verdict = record?.cells[importSlot(cell.testId, cell.repeat)];
    const base = {
      item: test.meta.item,
      phrasing: test.meta.variant,
      repeat: cell.repeat,
      key: test.meta.key,
    };
    const entry = byModel.get(cell.modelIdentity) ?? { label: cell.model, cells: [] };
    if (cell.status !== 'done' || !verdict || !record)
      entry.cells.push({
        ...base,
        status: 'failed',
        correct: false,
        via: 'error',
        error: cell.error ?? { kind: 'internal', message: 'no verdict recorded for this imported cell' },
      });
    else
      entry.cells.push({
        ...base,
        status: 'done',
        given: verdict.answer,
        answer: verdict.answer,
        correct: verdict.correct,
        via: `recorded ${record.metric}`,
        reply: cell.response?.text ?? verdict.answer,
      });
    byModel.set(cell.modelIdentity, entry);
  }
  for (const id of models ?? []) if (!byModel.has(id)) byModel.set(id, { label: id, cells: [] });
  return byModel;
}
