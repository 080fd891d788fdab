import type { GenerateRequest } from '../models/types.js';
import { now } from './rows.js';
import type { Statements } from './statements.js';

/**
 * Provider batches (docs/batch.md): each batch a run submitted, and the cells each of its requests
 * answers. A batch is recorded as soon as the provider accepts it, with its cells, in one
 * transaction; a run that finds one still `submitted` polls it instead of asking again.
 */

export type BatchState = 'submitted' | 'collected' | 'failed';

export interface BatchCell {
  customId: string;
  testId: string;
  /** The model's label. */
  model: string;
  repeat: number;
  /** The cache key of its request (the key its answer is stored under). */
  key: string;
  request: GenerateRequest;
}

export interface NewBatch {
  /** The provider's batch id. */
  id: string;
  modelIdentity: string;
  suiteHash: string;
  runId: string;
  cells: readonly BatchCell[];
}

export interface BatchRecord {
  id: string;
  modelIdentity: string;
  suiteHash: string;
  runId: string;
  state: BatchState;
  /** Requests in the batch (cells sharing a request share one). */
  requests: number;
  submittedAt: string;
  endedAt?: string;
  note?: string;
}

interface BatchRow {
  id: string;
  model_identity: string;
  suite_hash: string;
  run_id: string;
  state: BatchState;
  requests: number;
  submitted_at: string;
  ended_at: string | null;
  note: string | null;
}

interface BatchCellRow {
  custom_id: string;
  test_id: string;
  model: string;
  repeat: number;
  key: string;
  request_json: string;
}

export function recordBatch(st: Statements, batch: NewBatch): BatchRecord {
  const requests = new Set(batch.cells.map((c) => c.customId)).size;
  const submittedAt = now();
  st.db.transaction(() => {
    st.prepared(
      `INSERT INTO batches (id, model_identity, suite_hash, run_id, state, requests, submitted_at)
       VALUES (?, ?, ?, ?, 'submitted', ?, ?)`,
    ).run(batch.id, batch.modelIdentity, batch.suiteHash, batch.runId, requests, submittedAt);
    const insert = st.prepared(
      `INSERT INTO batch_cells (batch_id, custom_id, suite_hash, model_identity, model, test_id, repeat, key, request_json)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    // Cells sharing a request share its JSON too: it is made once per custom id.
    const json = new Map<string, string>();
    for (const c of batch.cells) {
      let request = json.get(c.customId);
      if (request === undefined) {
        request = JSON.stringify(c.request);
        json.set(c.customId, request);
      }
      insert.run(
        batch.id,
        c.customId,
        batch.suiteHash,
        batch.modelIdentity,
        c.model,
        c.testId,
        c.repeat,
        c.key,
        request,
      );
    }
  })();
  return {
    id: batch.id,
    modelIdentity: batch.modelIdentity,
    suiteHash: batch.suiteHash,
    runId: batch.runId,
    state: 'submitted',
    requests,
    submittedAt,
  };
}

/** The batches of a suite and model still to be collected, oldest first. */
export function openBatches(st: Statements, suiteHash: string, modelIdentity: string): BatchRecord[] {
  return (
    st
      .prepared(
        `SELECT * FROM batches WHERE suite_hash = ? AND model_identity = ? AND state = 'submitted'
         ORDER BY submitted_at, rowid`,
      )
      .all(suiteHash, modelIdentity) as BatchRow[]
  ).map(toBatch);
}

/** Every batch of the store (of one suite when given), oldest first. */
export function listBatches(st: Statements, suiteHash?: string): BatchRecord[] {
  const rows =
    suiteHash === undefined
      ? st.prepared('SELECT * FROM batches ORDER BY submitted_at, rowid').all()
      : st.prepared('SELECT * FROM batches WHERE suite_hash = ? ORDER BY submitted_at, rowid').all(suiteHash);
  return (rows as BatchRow[]).map(toBatch);
}

/** The cells a batch answers (of one request when given), by custom id. */
export function batchCells(st: Statements, batchId: string, customId?: string): BatchCell[] {
  const rows =
    customId === undefined
      ? st.prepared('SELECT * FROM batch_cells WHERE batch_id = ? ORDER BY custom_id').all(batchId)
      : st.prepared('SELECT * FROM batch_cells WHERE batch_id = ? AND custom_id = ?').all(batchId, customId);
  return (rows as BatchCellRow[]).map((r) => ({
    customId: r.custom_id,
    testId: r.test_id,
    model: r.model,
    repeat: r.repeat,
    key: r.key,
    request: JSON.parse(r.request_json) as GenerateRequest,
  }));
}

/** Whether a cell's request (by its key) is in a batch still to be collected: its answer is on its way. */
export function cellInOpenBatch(
  st: Statements,
  suiteHash: string,
  modelIdentity: string,
  testId: string,
  repeat: number,
  key: string,
): boolean {
  return (
    st
      .prepared(
        `SELECT 1 FROM batch_cells c JOIN batches b ON b.id = c.batch_id
         WHERE c.suite_hash = ? AND c.model_identity = ? AND c.test_id = ? AND c.repeat = ?
           AND c.key = ? AND b.state = 'submitted' LIMIT 1`,
      )
      .get(suiteHash, modelIdentity, testId, repeat, key) !== undefined
  );
}

/** A batch whose results are all stored (collected) or that the provider refused (failed). */
export function endBatch(st: Statements, id: string, state: Exclude<BatchState, 'submitted'>, note?: string) {
  st.prepared('UPDATE batches SET state = ?, ended_at = ?, note = ? WHERE id = ?').run(
    state,
    now(),
    note ?? null,
    id,
  );
}

function toBatch(r: BatchRow): BatchRecord {
  return {
    id: r.id,
    modelIdentity: r.model_identity,
    suiteHash: r.suite_hash,
    runId: r.run_id,
    state: r.state,
    requests: r.requests,
    submittedAt: r.submitted_at,
    ...(r.ended_at !== null && { endedAt: r.ended_at }),
    ...(r.note !== null && { note: r.note }),
  };
}
