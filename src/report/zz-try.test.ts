import { writeFileSync } from 'node:fs';
import { it } from 'vitest';
import { renderReport } from './formats.js';
import { buildReport } from './report-data.js';
import { buildReportStore } from './test-support/report-store.js';
it('try', () => {
  const store = buildReportStore();
  const data = buildReport(store, { now: '2025-01-01T00:00:00.000Z' });
  for (const f of ['html', 'md', 'json', 'csv'] as const) writeFileSync(`/tmp/rep/report.${f}`, renderReport(data, f));
});
