import type { CellStatus } from '../domain/cells.js';
import type { SuiteTest } from '../domain/suites.js';
import type {
  CellCursor,
  CellFilter,
  CellPage,
  CellPageFilter,
  CellPageRow,
  CellText,
  FailureGroup,
  LightCell,
  StoppedAttempt,
  StoredAttempt,
  StoredCell,
  StoredResponse,
} from './records.js';
import { type AttemptRow, type CellRow, type ResponseRow, toAttempt, toCell, toResponse } from './rows.js';
import type { Statements } from './statements.js';

/** Reading cells, their responses and attempts: whole, in bulk without the heavy parts, or grouped. */

const CELL_SELECT = `
  SELECT c.id, c.suite_hash, c.test_id, c.model, c.model_identity, c.repeat, c.status, c.response_key,
         c.request_json AS cell_request_json, c.error_kind, c.error_message, c.error_status, c.attempts,
         c.latency_ms AS cell_latency_ms, c.updated_at, c.run_id,
         r.identity AS r_identity, r.model AS r_model, r.request_json AS r_request_json, r.text, r.tokens_json,
         r.finish_reason, r.input_tokens, r.output_tokens, r.latency_ms AS r_latency_ms, r.response_model,
         r.created_at AS r_created_at
  FROM cells c LEFT JOIN responses r ON r.key = c.response_key`;

const CELLS_BY_IDS = `${CELL_SELECT} WHERE c.id IN (SELECT value FROM json_each(?))`;

const PAGE = 500;

export function getResponse(st: Statements, key: string): StoredResponse | undefined {
  const row = st.prepared('SELECT * FROM responses WHERE key = ?').get(key) as ResponseRow | undefined;
  return row && toResponse(row);
}

export function* cells(st: Statements, filter: CellFilter): Generator<StoredCell> {
  const { where, params } = cellWhere(filter);
  const ids = st
    .prepared(
      `SELECT c.id FROM cells c LEFT JOIN tests t ON t.suite_hash = c.suite_hash AND t.test_id = c.test_id
       WHERE 1${where} ORDER BY c.suite_hash, c.model_identity, coalesce(t.position, 1e18), c.test_id, c.repeat`,
    )
    .pluck()
    .all(params) as number[];
  const page = st.prepared(CELLS_BY_IDS);
  for (let i = 0; i < ids.length; i += PAGE) {
    const chunk = ids.slice(i, i + PAGE);
    const rows = new Map((page.all(JSON.stringify(chunk)) as CellRow[]).map((r) => [r.id, r]));
    for (const id of chunk) {
      const row = rows.get(id);
      if (row) yield toCell(row); // gone only if deleted meanwhile
    }
  }
}

function cellWhere(filter: CellFilter): { where: string; params: Record<string, unknown> } {
  const parts: string[] = [];
  const params: Record<string, unknown> = {};
  const add = (column: string, name: string, value: unknown) => {
    if (value === undefined) return;
    parts.push(`c.${column} = @${name}`);
    params[name] = value;
  };
  add('suite_hash', 'suite_hash', filter.suiteHash);
  add('model', 'model', filter.model);
  add('model_identity', 'model_identity', filter.modelIdentity);
  add('test_id', 'test_id', filter.testId);
  add('status', 'status', filter.status);
  add('run_id', 'run_id', filter.runId);
  return { where: parts.map((p) => ` AND ${p}`).join(''), params };
}

// A cell's tries in order: its own, and those of calls for it that a stop cut short (kept apart,
// by the cell's coordinates, as the cell had no row then).
const ATTEMPTS_OF = `
  SELECT run_id, attempt, started_at, latency_ms, outcome, message, status, id, 0 AS stopped
  FROM attempts WHERE cell_id = @id
  UNION ALL
  SELECT s.run_id, s.attempt, s.started_at, s.latency_ms, s.outcome, s.message, s.status, s.id, 1 AS stopped
  FROM stopped_attempts s JOIN cells c ON c.id = @id AND s.suite_hash = c.suite_hash
    AND s.model_identity = c.model_identity AND s.test_id = c.test_id AND s.repeat = c.repeat
  ORDER BY started_at, attempt, stopped DESC, id`;

export function attemptsOf(st: Statements, cellId: number): StoredAttempt[] {
  return (st.prepared(ATTEMPTS_OF).all({ id: cellId }) as AttemptRow[]).map(toAttempt);
}

/** The tries of calls a stop cut short, oldest first (of one run when given). */
export function stoppedAttempts(st: Statements, runId?: string): StoppedAttempt[] {
  const rows = st
    .prepared(`SELECT * FROM stopped_attempts WHERE @run_id IS NULL OR run_id = @run_id ORDER BY id`)
    .all({ run_id: runId ?? null }) as (AttemptRow & {
    suite_hash: string;
    model_identity: string;
    model: string;
    test_id: string;
    repeat: number;
  })[];
  return rows.map((r) => ({
    ...toAttempt(r),
    suiteHash: r.suite_hash,
    modelIdentity: r.model_identity,
    model: r.model,
    testId: r.test_id,
    repeat: r.repeat,
  }));
}

/**
 * Read with one query that skips the stored requests and token log-probs: at 20,000 cells,
 * parsing those would cost a report more than everything else it reads.
 */
export function lightCells(st: Statements, suiteHash: string): LightCell[] {
  const rows = st
    .prepared(
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
    CellStatus,
    string | null,
    string | null,
    string | null,
    number | null,
    string | null,
  ][];
  // Sorted here, not by SQLite: sorting in SQL carries every response text through a temporary B-tree.
  const position = new Map(
    st.prepared('SELECT test_id, position FROM tests WHERE suite_hash = ?').raw().all(suiteHash) as [
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
  return rows.map(([testId, model, modelIdentity, repeat, status, key, kind, message, errStatus, text]) =>
    lightCell(testId, model, modelIdentity, repeat, status, key, kind, message, errStatus, text),
  );
}

export function repeatCells(
  st: Statements,
  suiteHash: string,
  modelIdentity: string,
  repeat: number,
): CellText[] {
  const rows = st
    .prepared(
      `SELECT c.test_id, c.status, c.error_kind, c.response_key, c.attempts, r.text
       FROM cells c LEFT JOIN responses r ON r.key = c.response_key
       WHERE c.suite_hash = ? AND c.model_identity = ? AND c.repeat = ?`,
    )
    .raw()
    .all(suiteHash, modelIdentity, repeat) as [
    string,
    CellStatus,
    string | null,
    string | null,
    number,
    string | null,
  ][];
  return rows.map(([testId, status, errorKind, responseKey, attempts, text]) => ({
    testId,
    status,
    ...(errorKind !== null && { errorKind }),
    ...(responseKey !== null && { responseKey }),
    attempts,
    ...(text !== null && { text }),
  }));
}

export function failureGroups(st: Statements): FailureGroup[] {
  const rows = st
    .prepared(
      `SELECT suite_hash, model_identity, max(model) AS model, coalesce(error_kind, 'unknown') AS kind,
              max(error_status) AS status, count(*) AS n,
              (SELECT c2.error_message FROM cells c2
                WHERE c2.suite_hash = c.suite_hash AND c2.model_identity = c.model_identity
                  AND c2.status = 'failed' AND coalesce(c2.error_kind, 'unknown') = coalesce(c.error_kind, 'unknown')
                ORDER BY c2.updated_at DESC, c2.id DESC LIMIT 1) AS example
       FROM cells c WHERE status = 'failed'
       GROUP BY suite_hash, model_identity, coalesce(error_kind, 'unknown') ORDER BY min(id)`,
    )
    .all() as {
    suite_hash: string;
    model_identity: string;
    model: string;
    kind: string;
    status: number | null;
    n: number;
    example: string | null;
  }[];
  return rows.map((r) => ({
    suiteHash: r.suite_hash,
    modelIdentity: r.model_identity,
    model: r.model,
    kind: r.kind,
    ...(r.status !== null && { status: r.status }),
    count: r.n,
    ...(r.example !== null && { example: r.example }),
  }));
}

/** The response key of a done cell, or undefined when the cell is not stored done. */
export function doneCellKey(
  st: Statements,
  suiteHash: string,
  modelIdentity: string,
  testId: string,
  repeat: number,
): string | undefined {
  return st
    .prepared(
      `SELECT response_key FROM cells
       WHERE suite_hash = ? AND model_identity = ? AND test_id = ? AND repeat = ? AND status = 'done'`,
    )
    .pluck()
    .get(suiteHash, modelIdentity, testId, repeat) as string | undefined;
}

export function responseText(st: Statements, key: string): string | undefined {
  return st.prepared('SELECT text FROM responses WHERE key = ?').pluck().get(key) as string | undefined;
}

export function hasResponse(st: Statements, key: string): boolean {
  return st.prepared('SELECT 1 FROM responses WHERE key = ?').get(key) !== undefined;
}

/** Tests per page when streaming a suite's cells: a page's rows are all that is held at once. */
const TEST_PAGE = 500;

type CellWithTestRow = [
  position: number,
  json: string,
  testId: string,
  model: string,
  repeat: number,
  status: CellStatus,
  responseKey: string | null,
  errorKind: string | null,
  errorMessage: string | null,
  errorStatus: number | null,
  text: string | null,
];

/**
 * A suite's cells with their tests in lightCells' order (model identity, test position, repeat),
 * read a page of tests at a time along the tests_position and cells indexes: memory stays that of
 * one page whatever the size of the suite. Cells of tests the suite does not hold are left out.
 * Without their response texts: looking each one up (responses are keyed by a hash, so in no
 * order on disk) is most of the cost, and a caller that keeps a few asks responseText for those.
 */
export function* cellsWithTests(
  st: Statements,
  suiteHash: string,
  identities: readonly string[],
): Generator<{ cell: LightCell; test: SuiteTest }> {
  const last = st.prepared('SELECT max(position) FROM tests WHERE suite_hash = ?').pluck().get(suiteHash) as
    | number
    | null;
  if (last === null) return;
  if (!st.prepared("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = 'tests_position'").get()) {
    // A store opened read-only before a writer added the index (schema 4 or older): read as before, whole.
    const tests = new Map(
      (
        st.prepared('SELECT test_id, json FROM tests WHERE suite_hash = ?').raw().all(suiteHash) as [
          string,
          string,
        ][]
      ).map(([id, json]) => [id, JSON.parse(json) as SuiteTest]),
    );
    for (const cell of lightCells(st, suiteHash)) {
      const test = tests.get(cell.testId);
      if (test && identities.includes(cell.modelIdentity)) {
        delete cell.text;
        yield { cell, test };
      }
    }
    return;
  }
  const page = st.prepared(`
    SELECT t.position, t.json, c.test_id, c.model, c.repeat, c.status, c.response_key, c.error_kind,
           c.error_message, c.error_status, NULL
    FROM tests t
    JOIN cells c ON c.suite_hash = t.suite_hash AND c.model_identity = @identity AND c.test_id = t.test_id
    WHERE t.suite_hash = @suite AND t.position >= @from AND t.position < @to
    ORDER BY t.position, c.repeat`);
  for (const identity of identities) {
    for (let from = 0; from <= last; from += TEST_PAGE) {
      const rows = page
        .raw()
        .all({ suite: suiteHash, identity, from, to: from + TEST_PAGE }) as CellWithTestRow[];
      let at = -1;
      let test: SuiteTest | undefined;
      for (const [
        position,
        json,
        testId,
        model,
        repeat,
        status,
        key,
        kind,
        message,
        errStatus,
        text,
      ] of rows) {
        if (position !== at || !test) {
          at = position;
          test = JSON.parse(json) as SuiteTest;
        }
        yield {
          cell: lightCell(testId, model, identity, repeat, status, key, kind, message, errStatus, text),
          test,
        };
      }
    }
  }
}

function lightCell(
  testId: string,
  model: string,
  modelIdentity: string,
  repeat: number,
  status: CellStatus,
  key: string | null,
  kind: string | null,
  message: string | null,
  errStatus: number | null,
  text: string | null,
): LightCell {
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
}

/**
 * One page of a suite's cells for the viewer, in the order of the cells' unique index (model
 * identity, test id, repeat) after the `after` cell, filtered by model and status (each a range of
 * an index) and by a text (case-insensitive for ASCII, in the test or the response). A text is
 * looked for in at most `scan` cells a page, so that every page answers in bounded time whatever
 * the store holds; `next` goes on from where the page stopped (docs/decisions.md E16 says why
 * there is no full-text index).
 */
export function cellPage(st: Statements, filter: CellPageFilter): CellPage {
  const where: string[] = ['c.suite_hash = @suite'];
  const params: Record<string, unknown> = { suite: filter.suiteHash, limit: filter.limit };
  if (filter.modelIdentity !== undefined) {
    where.push('c.model_identity = @identity');
    params.identity = filter.modelIdentity;
  }
  // A literal, not a parameter: the planner then takes the failed cells' partial index.
  if (filter.status !== undefined)
    where.push(filter.status === 'failed' ? "c.status = 'failed'" : "c.status = 'done'");
  const searching = filter.search !== undefined && filter.search !== '';
  // LIKE is case-insensitive for ASCII and cheaper than lower() per row; the test is matched in
  // its stored JSON (prompt, system, meta), so the text is matched as JSON writes it.
  const hit = searching ? `(r.text LIKE @q ESCAPE '\\' OR t.json LIKE @qj ESCAPE '\\')` : '1';
  if (searching) {
    params.q = `%${likeEscaped(filter.search as string)}%`;
    params.qj = `%${likeEscaped(JSON.stringify(filter.search).slice(1, -1))}%`;
  }
  const window = st.prepared(
    `SELECT page.id, page.model_identity, page.model, page.test_id, page.repeat, page.status, page.response_key,
            page.error_kind, page.error_message, page.error_status, r.text, t.json, ${hit} AS hit
     FROM (SELECT * FROM cells c WHERE ${where.join(' AND ')}${filter.after || searching ? ' AND (c.model_identity, c.test_id, c.repeat) > (@ai, @at, @ar)' : ''}
           ORDER BY c.model_identity, c.test_id, c.repeat LIMIT @window) page
     LEFT JOIN responses r ON r.key = page.response_key
     LEFT JOIN tests t ON t.suite_hash = page.suite_hash AND t.test_id = page.test_id
     ORDER BY page.model_identity, page.test_id, page.repeat`,
  );
  const budget = searching ? (filter.scan ?? 5_000) : filter.limit;
  const out: CellPageRow[] = [];
  let at: CellCursor | undefined = filter.after;
  let scanned = 0;
  let exhausted = false;
  // A search reads windows that grow fourfold (a common text fills the page from the first),
  // until the page is full or `scan` cells were looked at.
  for (let size = searching ? 200 : filter.limit; out.length < filter.limit && scanned < budget; size *= 4) {
    const n = Math.min(size, budget - scanned);
    const rows = window.raw().all({
      ...params,
      ai: at?.modelIdentity ?? '',
      at: at?.testId ?? '',
      ar: at?.repeat ?? -1,
      window: n,
    }) as [
      number,
      string,
      string,
      string,
      number,
      CellStatus,
      string | null,
      string | null,
      string | null,
      number | null,
      string | null,
      string | null,
      number,
    ][];
    for (const row of rows) {
      scanned++;
      at = { modelIdentity: row[1], testId: row[3], repeat: row[4] };
      if (!row[12]) continue;
      const [id, identity, model, testId, repeat, status, key, kind, message, errStatus, text, json] = row;
      out.push({
        id,
        cell: lightCell(testId, model, identity, repeat, status, key, kind, message, errStatus, text),
        ...(json !== null && { test: JSON.parse(json) as SuiteTest }),
      });
      if (out.length === filter.limit) break;
    }
    if (rows.length < n) {
      exhausted = true;
      break;
    }
  }
  return { rows: out, scanned, ...(!exhausted && at && { next: at }) };
}

/** A LIKE pattern's wildcards taken literally. */
function likeEscaped(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
