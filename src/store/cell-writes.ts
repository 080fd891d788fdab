import type Database from 'better-sqlite3';
import type { CellStatus } from '../domain/cells.js';
import type {
  AttemptRecord,
  CellRef,
  CellWrite,
  SaveCellCached,
  SaveCellDone,
  SaveCellFailed,
  SaveCellStopped,
  WriteGuard,
} from './records.js';
import { now } from './rows.js';
import type { Statements } from './statements.js';

/**
 * Writing finished cells: a cell is written whole (response, cell row, attempts) in one
 * transaction, alone or with others that finished at the same moment, so a process killed at any
 * point never leaves half a cell.
 */

export interface CellWriters {
  done: Database.Transaction<(c: SaveCellDone) => void>;
  failed: Database.Transaction<(c: SaveCellFailed) => void>;
  cached: Database.Transaction<(cells: SaveCellCached[]) => void>;
  stopped: Database.Transaction<(c: SaveCellStopped) => void>;
  batch: Database.Transaction<(writes: readonly CellWrite[]) => void>;
}

// A re-run with --no-cache overwrites the stored answer: the newest call is the one kept. Otherwise
// the first answer stored under a key stays (a late duplicate call must not replace it).
const INSERT_RESPONSE_COLUMNS = `
  INSERT INTO responses (key, identity, model, request_json, text, tokens_json, finish_reason, input_tokens,
                         output_tokens, latency_ms, response_model, created_at)
  VALUES (@key, @identity, @model, @request_json, @text, @tokens_json, @finish_reason, @input_tokens,
          @output_tokens, @latency_ms, @response_model, @created_at)`;
const UPSERT_RESPONSE = `${INSERT_RESPONSE_COLUMNS}
  ON CONFLICT (key) DO UPDATE SET
    text = excluded.text, tokens_json = excluded.tokens_json, finish_reason = excluded.finish_reason,
    input_tokens = excluded.input_tokens, output_tokens = excluded.output_tokens,
    latency_ms = excluded.latency_ms, response_model = excluded.response_model, created_at = excluded.created_at`;
const INSERT_RESPONSE = `${INSERT_RESPONSE_COLUMNS} ON CONFLICT (key) DO NOTHING`;

const LEASE_OWNER = 'SELECT owner FROM cell_leases WHERE suite_hash = ? AND model_identity = ? AND chunk = ?';
const STORED_CELL = `SELECT status, response_key FROM cells
  WHERE suite_hash = ? AND model_identity = ? AND test_id = ? AND repeat = ?`;

const UPSERT_CELL = `
  INSERT INTO cells (suite_hash, test_id, model, model_identity, repeat, status, response_key, request_json,
                     error_kind, error_message, error_status, attempts, latency_ms, updated_at, run_id)
  VALUES (@suite_hash, @test_id, @model, @model_identity, @repeat, @status, @response_key, @request_json,
          @error_kind, @error_message, @error_status, @attempts, @latency_ms, @updated_at, @run_id)
  ON CONFLICT (suite_hash, model_identity, test_id, repeat) DO UPDATE SET
    model = excluded.model, status = excluded.status, response_key = excluded.response_key,
    request_json = excluded.request_json, error_kind = excluded.error_kind,
    error_message = excluded.error_message, error_status = excluded.error_status,
    attempts = excluded.attempts, latency_ms = excluded.latency_ms, updated_at = excluded.updated_at,
    run_id = excluded.run_id
  RETURNING id`;

const INSERT_STOPPED_ATTEMPT = `
  INSERT INTO stopped_attempts (run_id, suite_hash, model_identity, model, test_id, repeat, attempt, started_at,
                                latency_ms, outcome, message, status)
  VALUES (@run_id, @suite_hash, @model_identity, @model, @test_id, @repeat, @attempt, @started_at, @latency_ms,
          @outcome, @message, @status)`;

const INSERT_ATTEMPT =
  'INSERT INTO attempts (cell_id, run_id, attempt, started_at, latency_ms, outcome, message, status) VALUES (?, ?, ?, ?, ?, ?, ?, ?)';

export function cellWriters(st: Statements): CellWriters {
  const done = st.db.transaction((c: SaveCellDone) => writeDone(st, c));
  const failed = st.db.transaction((c: SaveCellFailed) => writeFailed(st, c));
  const cached = st.db.transaction((cells: SaveCellCached[]) => writeCached(st, cells));
  const stopped = st.db.transaction((c: SaveCellStopped) => writeStopped(st, c));
  // Nested transaction functions run as savepoints inside the batch's one commit.
  const batch = st.db.transaction((writes: readonly CellWrite[]) => {
    for (const w of writes) {
      if (w.kind === 'done') done(w.cell);
      else if (w.kind === 'failed') failed(w.cell);
      else if (w.kind === 'stopped') stopped(w.cell);
      else cached(w.cells);
    }
  });
  return { done, failed, cached, stopped, batch };
}

/** A done cell: its response (kept, or replaced under --no-cache), the cell and its tries. */
function writeDone(st: Statements, c: SaveCellDone): void {
  if (!mayWrite(st, c, c.key)) return;
  const r = c.result;
  const at = now();
  st.prepared(c.replace ? UPSERT_RESPONSE : INSERT_RESPONSE).run({
    key: c.key,
    identity: c.modelIdentity,
    model: c.model,
    request_json: JSON.stringify(c.request),
    text: r.text,
    tokens_json: r.tokens && r.tokens.length > 0 ? JSON.stringify(r.tokens) : null,
    finish_reason: r.finishReason,
    input_tokens: r.usage?.inputTokens ?? 0,
    output_tokens: r.usage?.outputTokens ?? 0,
    latency_ms: c.latencyMs ?? null,
    response_model: r.responseModel ?? null,
    created_at: at,
  });
  const cellId = upsertCell(st, c, {
    status: 'done',
    response_key: c.key,
    request_json: null,
    attempts: c.attempts.length,
    latency_ms: c.latencyMs ?? null,
    at,
  });
  insertAttempts(st, cellId, c.runId, c.attempts);
}

/** A failed cell: its request and error, and its tries. */
function writeFailed(st: Statements, c: SaveCellFailed): void {
  if (!mayWrite(st, c)) return;
  const cellId = upsertCell(st, c, {
    status: 'failed',
    response_key: null,
    request_json: JSON.stringify(c.request),
    error_kind: c.error.kind,
    error_message: c.error.message,
    error_status: c.error.status ?? null,
    attempts: c.attempts.length,
    latency_ms: null,
    at: now(),
  });
  insertAttempts(st, cellId, c.runId, c.attempts);
}

/** Done cells answered by responses already stored (no call made). */
function writeCached(st: Statements, cells: readonly SaveCellCached[]): void {
  const at = now();
  for (const c of cells) {
    if (!mayWrite(st, c, c.key)) continue;
    upsertCell(st, c, {
      status: 'done',
      response_key: c.key,
      request_json: null,
      attempts: 0,
      latency_ms: null,
      at,
    });
  }
}

/** A stopped call's tries; its cell stays pending (docs/decisions.md#e13-stopped-calls). */
function writeStopped(st: Statements, c: SaveCellStopped): void {
  const insert = st.prepared(INSERT_STOPPED_ATTEMPT);
  for (const a of c.attempts)
    insert.run({
      run_id: c.runId,
      suite_hash: c.suiteHash,
      model_identity: c.modelIdentity,
      model: c.model,
      test_id: c.testId,
      repeat: c.repeat,
      attempt: a.attempt,
      started_at: a.startedAt,
      latency_ms: a.latencyMs ?? null,
      outcome: a.outcome,
      message: a.message ?? null,
      status: a.status ?? null,
    });
}

/**
 * Whether the write may go in (docs/decisions.md#e24-a-write-is-fenced-by-its-lease): its lease is
 * still its owner's, in the same transaction as the write, and it does not replace a done cell
 * (unless it replaces on purpose, or the stored answer is another request's: `key` differs).
 */
function mayWrite(st: Statements, c: CellRef & WriteGuard, key?: string): boolean {
  if (c.lease) {
    const owner = st.prepared(LEASE_OWNER).pluck().get(c.suiteHash, c.modelIdentity, c.lease.chunk);
    if (owner !== c.lease.owner) return false;
  }
  if (c.replace) return true;
  const stored = st.prepared(STORED_CELL).get(c.suiteHash, c.modelIdentity, c.testId, c.repeat) as
    | { status: CellStatus; response_key: string | null }
    | undefined;
  return stored?.status !== 'done' || (key !== undefined && stored.response_key !== key);
}

function upsertCell(
  st: Statements,
  ref: CellRef & { runId: string },
  v: {
    status: CellStatus;
    response_key: string | null;
    request_json: string | null;
    error_kind?: string;
    error_message?: string;
    error_status?: number | null;
    attempts: number;
    latency_ms: number | null;
    at: string;
  },
): number {
  return st
    .prepared(UPSERT_CELL)
    .pluck()
    .get({
      suite_hash: ref.suiteHash,
      test_id: ref.testId,
      model: ref.model,
      model_identity: ref.modelIdentity,
      repeat: ref.repeat,
      status: v.status,
      response_key: v.response_key,
      request_json: v.request_json,
      error_kind: v.error_kind ?? null,
      error_message: v.error_message ?? null,
      error_status: v.error_status ?? null,
      attempts: v.attempts,
      latency_ms: v.latency_ms,
      updated_at: v.at,
      run_id: ref.runId,
    }) as number;
}

function insertAttempts(st: Statements, cellId: number, runId: string, attempts: AttemptRecord[]): void {
  const insert = st.prepared(INSERT_ATTEMPT);
  for (const a of attempts) {
    insert.run(
      cellId,
      runId,
      a.attempt,
      a.startedAt,
      a.latencyMs ?? null,
      a.outcome,
      a.message ?? null,
      a.status ?? null,
    );
  }
}
