import { isCorrectNumber, readNumericAnswer } from '../answers/number.js';
import type { Suite, SuiteTest } from '../run/types.js';
import { wilsonInterval } from '../stats/wilson.js';
import type { Store } from '../store/store.js';

/** What a demo test holds: the word problem, the wording it is asked in, and its numeric answer. */
export interface DemoTestMeta {
  item: string;
  phrasing: string;
  gold: number;
}

interface DemoRow {
  item: string;
  phrasing: string;
  gold: number;
  status: 'done' | 'failed';
  answer?: number;
  correct: boolean;
  reply: string;
}

interface DemoModelReport {
  model: string;
  /** Cells scored: item x phrasing. */
  n: number;
  accuracy: number;
  parsed: number;
  /** Items whose parsed answer is the same in every phrasing (failed cells count as different). */
  itemsStable: number;
  items: number;
  rows: DemoRow[];
}

/** The demo's verdict, read from the store alone: per model, per item, did the answer waver across phrasings? */
export function formatDemoReport(
  store: Store,
  suite: Suite<SuiteTest<DemoTestMeta>>,
  format: 'md' | 'json',
): string {
  const byModel = new Map<string, DemoRow[]>();
  for (const cell of store.cells.all({ suiteHash: suite.hash })) {
    const test = suite.tests.find((t) => t.id === cell.testId);
    const meta: Partial<DemoTestMeta> = test?.meta ?? {};
    const reply = cell.response?.text ?? '';
    const parsed = cell.status === 'done' ? readNumericAnswer(reply).value : undefined;
    const rows = byModel.get(cell.model) ?? [];
    rows.push({
      item: meta.item ?? cell.testId,
      phrasing: meta.phrasing ?? '',
      gold: meta.gold ?? Number.NaN,
      status: cell.status,
      answer: parsed,
      correct: isCorrectNumber(parsed, meta.gold ?? Number.NaN),
      reply: cell.status === 'done' ? reply : `ERROR ${cell.error?.kind}: ${cell.error?.message}`,
    });
    byModel.set(cell.model, rows);
  }
  const reports: DemoModelReport[] = [...byModel].map(([model, rows]) => {
    const items = new Map<string, DemoRow[]>();
    for (const r of rows) items.set(r.item, [...(items.get(r.item) ?? []), r]);
    const itemsStable = [...items.values()].filter(
      (rs) => rs.every((r) => r.answer !== undefined) && new Set(rs.map((r) => r.answer)).size === 1,
    ).length;
    return {
      model,
      n: rows.length,
      accuracy: rows.length ? rows.filter((r) => r.correct).length / rows.length : Number.NaN,
      parsed: rows.filter((r) => r.answer !== undefined).length,
      itemsStable,
      items: items.size,
      rows,
    };
  });
  if (format === 'json') return `${JSON.stringify({ suite: suite.hash, models: reports }, null, 2)}\n`;
  const out: string[] = ['', '## demo: the same question asked three ways', ''];
  for (const r of reports) {
    const ci = wilsonInterval(Math.round(r.accuracy * r.n), r.n);
    const ciText = ci
      ? ` [95% Wilson CI ${(ci.low * 100).toFixed(1)}–${(ci.high * 100).toFixed(1)}%, cells treated as independent]`
      : '';
    out.push(
      `### ${r.model}`,
      '',
      `accuracy ${(r.accuracy * 100).toFixed(1)}%${ciText} over n=${r.n} cells (${r.items} items x 3 phrasings) · answers parsed ${r.parsed}/${r.n} · same answer in every phrasing: ${r.itemsStable}/${r.items} items`,
      '',
      '| item | phrasing | gold | answer | correct | reply (first 60 chars) |',
      '|---|---|---:|---:|---|---|',
    );
    for (const row of r.rows) {
      const reply = row.reply.replace(/\s+/g, ' ').slice(0, 60).replace(/\|/g, '\\|');
      out.push(
        `| ${row.item} | ${row.phrasing} | ${row.gold} | ${row.answer ?? '—'} | ${row.correct ? 'yes' : 'no'} | ${reply} |`,
      );
    }
    out.push('');
  }
  out.push(
    'Only 4 items: a smoke test of the pipeline, not a measurement. The protocols (ladder, sago, paraphrase) give the numbers with their uncertainty.',
  );
  return `${out.join('\n')}\n`;
}
