import type { SuiteTest } from '../../run/types.js';
import type { Store } from '../../store/store.js';
import type { TranscriptCell } from '../report-data.js';
import type { HtmlKit } from './section.js';

/** What the transcript needs of a stored cell (no request or token log-probs: those are not shown). */
export interface LightCell {
  testId: string;
  model: string;
  modelIdentity: string;
  repeat: number;
  status: 'done' | 'failed';
  text?: string;
  /** The stored response's key (done cells). */
  responseKey?: string;
  error?: { kind: string; message: string; status?: number };
}

/**
 * A suite's cells in the store's order (model identity, test position, repeat), read with one
 * query that skips the stored requests and token log-probs: at 20,000 cells, parsing those
 * would cost the report more than everything else it reads.
 */
export function lightCells(store: Store, suiteHash: string): LightCell[] {
  const rows = store.db
    .prepare(
      `SELECT c.test_id, c.model, c.model_identity, c.repeat, c.status, c.response_key, c.error_kind, c.error_message,
              c.error_status, r.text
       FROM cells c LEFT JOIN responses r ON r.key = c.response_key
       WHERE c.suite_hash = ?`,
    )
    .raw()
    .all(suiteHash) as [
    string,
    string,
    string,
    number,
    'done' | 'failed',
    string | null,
    string | null,
    string | null,
    number | null,
    string | null,
  ][];
  // Sorted here, not by SQLite: sorting in SQL carries every response text through a temporary B-tree.
  const position = new Map(
    store.db.prepare('SELECT test_id, position FROM tests WHERE suite_hash = ?').raw().all(suiteHash) as [
      string,
      number,
    ][],
  );
  const at = (id: string) => position.get(id) ?? Number.MAX_SAFE_INTEGER;
  rows.sort(
    (a, b) =>
      (a[2] < b[2] ? -1 : a[2] > b[2] ? 1 : 0) ||
      at(a[0]) - at(b[0]) ||
      (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0) ||
      a[3] - b[3],
  );
  return rows.map(([testId, model, modelIdentity, repeat, status, key, kind, message, errStatus, text]) => {
    const cell: LightCell = { testId, model, modelIdentity, repeat, status };
    if (text !== null && status === 'done') cell.text = text;
    if (key !== null) cell.responseKey = key;
    if (status === 'failed')
      cell.error = {
        kind: kind ?? 'internal',
        message: message ?? '',
        ...(errStatus !== null && { status: errStatus }),
      };
    return cell;
  });
}

/** The protocol-independent part of a transcript cell: the test as asked and the answer or error. */
export function cellBase(
  protocol: string,
  suiteHash: string,
  cell: LightCell,
  test: SuiteTest | undefined,
): TranscriptCell {
  const out: TranscriptCell = {
    protocol,
    suite: suiteHash,
    model: cell.model,
    identity: cell.modelIdentity,
    test: cell.testId,
    repeat: cell.repeat,
    item: cell.testId,
    prompt: test?.prompt ?? '',
    status: cell.status,
  };
  if (test?.system !== undefined) out.system = test.system;
  if (cell.text !== undefined) out.response = cell.text;
  if (cell.error)
    out.error = `${cell.error.kind}${cell.error.status !== undefined ? ` (${cell.error.status})` : ''}: ${cell.error.message}`;
  return out;
}

/**
 * Shifts Markdown headings so the highest one becomes level `top` (the protocols' writers start at
 * `#`; inside a report their text sits under the section's own heading).
 */
export function demoteHeadings(markdown: string, top: number): string {
  const levels = [...markdown.matchAll(/^(#{1,6}) /gm)].map((m) => (m[1] as string).length);
  if (levels.length === 0) return markdown;
  const shift = top - Math.min(...levels);
  if (shift <= 0) return markdown;
  return markdown.replace(/^(#{1,6}) /gm, (_m, h: string) => `${'#'.repeat(Math.min(6, h.length + shift))} `);
}

export function fmt3(x: number | undefined | null): string {
  return x === undefined || x === null || Number.isNaN(x) ? '—' : x.toFixed(3);
}

/** The model colour key shared by charts drawn without a legend of their own. */
export function legendHtml(kit: HtmlKit): string {
  const items = kit.modelColors.domain.map(
    (label, i) =>
      `<span class="key"><span class="swatch" style="background:${kit.modelColors.range[i]}"></span>${kit.esc(label)}</span>`,
  );
  return `<p class="legend">${items.join(' ')}</p>`;
}
