import { cellBase } from '../../report/html/section-kit.js';
import type { SectionModule, TranscriptCell } from '../../report/report-data.js';
import type { SuiteTest } from '../../run/types.js';
import type { LightCell } from '../../store/store.js';

/**
 * Suites of no protocol (`waver run` on a plain suite, the demo): their cells go to the transcript
 * browser with whatever the test's meta names (item, phrasing, family); no section of their own.
 * Role suites (judges, generators) are left out of the browser: their answers appear as the reasons
 * of the cells they judged, and their counts in "What was run" and the coverage table.
 */
export const plainSection: SectionModule<undefined> = {
  sectioned: false,
  claims: (suite) => suite.protocol === undefined && suite.role === 'system under test',
  load: () => undefined,
  // Streamed from the store a page of tests at a time (a plain suite may hold a million cells),
  // each response's text read only when asked for: the report keeps a sample of the cells.
  *cells(store, suiteHash) {
    const identities = [...new Set(store.suites.models(suiteHash).map((m) => m.modelIdentity))];
    for (const { cell, test } of store.cells.withTests(suiteHash, identities)) {
      const out = plainCell(suiteHash, cell, test);
      const key = cell.responseKey;
      if (cell.status === 'done' && key !== undefined)
        Object.defineProperty(out, 'response', {
          get: () => store.responses.text(key),
          enumerable: true,
          configurable: true,
        });
      yield out;
    }
  },
  // Nothing is scored across cells: the viewer pages a plain suite along the store's index.
  cellOf: plainCell,
  // No section, no list of models to order.
  inModelOrder: () => undefined,
  html: () => '',
  markdown: () => '',
  json: () => null,
};

function plainCell(suiteHash: string, cell: LightCell, test: SuiteTest | undefined): TranscriptCell {
  const out = cellBase('run', suiteHash, cell, test);
  // A plain suite's meta is the user's own object: only these fields, when they are labels, become columns.
  const meta = test?.meta;
  if (typeof meta === 'object' && meta !== null) {
    const fields = meta as Record<string, unknown>;
    const str = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : undefined);
    const item = str(fields.item);
    const family = str(fields.family) ?? str(fields.phrasing);
    const gold = str(fields.gold);
    if (item !== undefined) out.item = item;
    if (family !== undefined) out.family = family;
    if (gold !== undefined) out.gold = gold;
  }
  return out;
}
