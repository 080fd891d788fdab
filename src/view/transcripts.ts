import { existsSync } from 'node:fs';
import type { CellStatus } from '../run/types.js';
import { openStore, type Store } from '../store/store.js';

/**
 * The viewer's transcript browser: every cell of a store a page at a time, filtered by suite,
 * model and status and searched by text, each page one indexed query (store.cells.page), so a
 * million cells browse as fast as a hundred and nothing is held but the page. Runs in the
 * viewer's worker thread (query-worker.ts): a search that reads far stays off its event loop.
 */

export interface TranscriptQuery {
  /** The store file. */
  path: string;
  suite?: string;
  /** A model identity. */
  model?: string;
  status?: CellStatus;
  q?: string;
  /** The cursor of the page before (TranscriptPage.next). */
  after?: string;
}

export interface TranscriptRow {
  model: string;
  identity: string;
  test: string;
  repeat: number;
  status: CellStatus;
  system?: string;
  prompt?: string;
  response?: string;
  error?: string;
}

export interface TranscriptPage {
  /** Suites with cells, newest first. */
  suites: { hash: string; name: string; cells: number }[];
  suite?: { hash: string; name: string };
  models: { label: string; identity: string }[];
  /** Cells of the suite (of the model when one is chosen): done and failed. */
  counts: { done: number; failed: number };
  rows: TranscriptRow[];
  /** Cells the store looked at (a search looks at a bounded number a page). */
  scanned: number;
  /** The cursor of the next page, when there may be one. */
  next?: string;
  /** Milliseconds the store took. */
  ms: number;
}

export const PAGE_SIZE = 50;
/** Characters of one text a page shows (the rest: waver export). */
export const TEXT_CAP = 4000;

const stores = new Map<string, Store>();

function storeAt(path: string): Store | undefined {
  const open = stores.get(path);
  if (open) return open;
  if (!existsSync(path)) return undefined;
  const store = openStore(path, { readonly: true });
  stores.set(path, store);
  return store;
}

export function closeTranscriptStores(): void {
  for (const s of stores.values()) s.close();
  stores.clear();
}

export function transcriptPage(query: TranscriptQuery): TranscriptPage {
  const started = performance.now();
  const empty: TranscriptPage = {
    suites: [],
    models: [],
    counts: { done: 0, failed: 0 },
    rows: [],
    scanned: 0,
    ms: 0,
  };
  const store = storeAt(query.path);
  if (!store?.hasSchema()) return empty;
  const totals = store.coverage.cellTotals();
  const cellsOf = new Map<string, number>();
  for (const t of totals) cellsOf.set(t.suiteHash, (cellsOf.get(t.suiteHash) ?? 0) + t.count);
  const suites: TranscriptPage['suites'] = [];
  for (const r of store.runs.latest(1000)) {
    const cells = r.suiteHash === undefined ? 0 : (cellsOf.get(r.suiteHash) ?? 0);
    if (r.suiteHash === undefined || cells === 0 || suites.some((s) => s.hash === r.suiteHash)) continue;
    suites.push({ hash: r.suiteHash, name: r.suiteName ?? '', cells });
  }
  const suite = suites.find((s) => s.hash === query.suite) ?? suites[0];
  if (!suite) return { ...empty, suites, ms: performance.now() - started };
  const models = store.suites.models(suite.hash).map((m) => ({ label: m.model, identity: m.modelIdentity }));
  const model = models.some((m) => m.identity === query.model) ? query.model : undefined;
  const counts = { done: 0, failed: 0 };
  for (const t of totals)
    if (t.suiteHash === suite.hash && (model === undefined || t.modelIdentity === model))
      counts[t.status] += t.count;
  const after = decodeCursor(query.after);
  const {
    rows: found,
    next,
    scanned,
  } = store.cells.page({
    suiteHash: suite.hash,
    ...(model !== undefined && { modelIdentity: model }),
    ...(query.status !== undefined && { status: query.status }),
    ...(query.q && { search: query.q }),
    ...(after && { after }),
    limit: PAGE_SIZE,
  });
  const rows = found.map(({ cell, test }): TranscriptRow => {
    const row: TranscriptRow = {
      model: cell.model,
      identity: cell.modelIdentity,
      test: cell.testId,
      repeat: cell.repeat,
      status: cell.status,
    };
    if (test?.system !== undefined) row.system = capped(test.system);
    if (test?.prompt !== undefined) row.prompt = capped(test.prompt);
    if (cell.text !== undefined) row.response = capped(cell.text);
    if (cell.error)
      row.error = `${cell.error.kind}${cell.error.status !== undefined ? ` (${cell.error.status})` : ''}: ${capped(cell.error.message)}`;
    return row;
  });
  return {
    suites,
    suite: { hash: suite.hash, name: suite.name },
    models,
    counts,
    rows,
    scanned,
    ...(next && { next: encodeCursor(next) }),
    ms: performance.now() - started,
  };
}

function capped(text: string): string {
  return text.length > TEXT_CAP
    ? `${text.slice(0, TEXT_CAP)}… [${text.length - TEXT_CAP} more characters: waver export]`
    : text;
}

type Cursor = { modelIdentity: string; testId: string; repeat: number };

function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify([c.modelIdentity, c.testId, c.repeat])).toString('base64url');
}

function decodeCursor(text: string | undefined): Cursor | undefined {
  if (!text) return undefined;
  try {
    const [modelIdentity, testId, repeat] = JSON.parse(
      Buffer.from(text, 'base64url').toString('utf8'),
    ) as unknown[];
    if (typeof modelIdentity === 'string' && typeof testId === 'string' && Number.isInteger(repeat))
      return { modelIdentity, testId, repeat: repeat as number };
  } catch {
    // a cursor that is not one: the first page
  }
  return undefined;
}
