import { cellBase } from '../../report/html/section-kit.js';
import type { SectionModule, TranscriptCell } from '../../report/report-data.js';

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
  cells(store, suiteHash) {
    const stored = store.getSuite(suiteHash);
    const tests = new Map((stored?.tests ?? []).map((t) => [t.id, t]));
    const out: TranscriptCell[] = [];
    for (const cell of store.lightCells(suiteHash)) {
      const test = tests.get(cell.testId);
      const meta = (test?.meta ?? {}) as Record<string, unknown>;
      const str = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : undefined);
      const item = str(meta.item);
      const family = str(meta.family) ?? str(meta.phrasing);
      const gold = str(meta.gold);
      out.push({
        ...cellBase('run', suiteHash, cell, test),
        ...(item !== undefined && { item }),
        ...(family !== undefined && { family }),
        ...(gold !== undefined && { gold }),
      });
    }
    return out;
  },
  html: () => '',
  markdown: () => '',
  json: () => null,
};
