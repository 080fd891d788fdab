import { cellBase } from '../../report/html/section-kit.js';
import type { SectionModule } from '../../report/report-data.js';

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
    const identities = [...new Set(store.modelsOfSuite(suiteHash).map((m) => m.modelIdentity))];
    const str = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : undefined);
    for (const { cell, test } of store.cellsWithTests(suiteHash, identities)) {
      const out = cellBase('run', suiteHash, cell, test);
      // A plain suite's meta is the user's own object: only these fields, when they are labels, become columns.
      if (typeof test.meta === 'object' && test.meta !== null) {
        const meta: Record<string, unknown> = { ...test.meta };
        const item = str(meta.item);
        const family = str(meta.family) ?? str(meta.phrasing);
        const gold = str(meta.gold);
        if (item !== undefined) out.item = item;
        if (family !== undefined) out.family = family;
        if (gold !== undefined) out.gold = gold;
      }
      const key = cell.responseKey;
      if (cell.status === 'done' && key !== undefined)
        Object.defineProperty(out, 'response', {
          get: () => store.responseText(key),
          enumerable: true,
          configurable: true,
        });
      yield out;
    }
  },
  html: () => '',
  markdown: () => '',
  json: () => null,
};
