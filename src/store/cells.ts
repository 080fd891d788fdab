import type { CellStatus } from '../run/types.js';
import type {
  CellFilter,
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

/** Separator for doneCellKeys entries: cannot occur in a hex key and is unlikely in a test id. */
const SEP = '\u0000';

/** The doneCellKeys entry of a cell: a done cell counts only when it stored this very request. */
export function doneCellSlot(testId: string, repeat: number, key: string): string {
  return `${testId}${SEP}${repeat}${SEP}${key}`;
}

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

export function responseKeys(st: Statements, identity: string): Set<string> {
  return new Set(
    st.prepared('SELECT key FROM responses WHERE identity = ?').pluck().all(identity) as string[],
  );
}

export function doneCellKeys(st: Statements, suiteHash: string, modelIdentity: string): Set<string> {
  const rows = st
    .prepared(
      "SELECT test_id, repeat, response_key FROM cells WHERE suite_hash = ? AND model_identity = ? AND status = 'done'",
    )
    .raw()
    .all(suiteHash, modelIdentity) as [string, number, string][];
  const out = new Set<string>();
  for (const [testId, repeat, key] of rows) out.add(doneCellSlot(testId, repeat, key));
  return out;
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
