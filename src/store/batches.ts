import { randomUUID } from 'node:crypto';
import type { GenerateRequest } from '../domain/calls.js';
import { now } from './rows.js';
import type { Statements } from './statements.js';

/**
 * Provider batches (docs/batch.md): each batch a run submitted, and the cells each of its requests
 * answers, recorded with its cells in one transaction as soon as the provider accepted it, or its
 * input (`uploaded`: OpenAI's file, before the batch over it is made). A run that finds one still
 * open polls it, or finds the batch made over its input, instead of asking again.
 */

/** uploaded: its input is with the provider, the batch may not be; submitted: accepted, not collected. */
export type BatchState = 'uploaded' | 'submitted' | 'collected' | 'failed';

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
  /** The provider's batch id, when it has accepted the batch; else `inputRef` is given. */
  providerId?: string;
  /** The input the provider holds (OpenAI: the file's id), for a batch not made yet. */
  inputRef?: string;
  modelIdentity: string;
  suiteHash: string;
  runId: string;
  cells: readonly BatchCell[];
}

export interface BatchRecord {
  /** waver's own id of the batch. */
  id: string;
  /** The provider's, once it accepted the batch. */
  providerId?: string;
  inputRef?: string;
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
  provider_id: string | null;
  input_ref: string | null;
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

/** Provider batches and the cells each answers (docs/batch.md). */
export class BatchQueries {
  constructor(private readonly st: Statements) {}

  /** A batch the provider accepted (or whose input it holds), with the cells it answers, in one transaction. */
  record(batch: NewBatch): BatchRecord {
    const st = this.st;
    const requests = new Set(batch.cells.map((c) => c.customId)).size;
    const submittedAt = now();
    const id = randomUUID();
    const state: BatchState = batch.providerId === undefined ? 'uploaded' : 'submitted';
    st.db.transaction(() => {
      st.prepared(
        `INSERT INTO batches (id, provider_id, input_ref, model_identity, suite_hash, run_id, state, requests, submitted_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        id,
        batch.providerId ?? null,
        batch.inputRef ?? null,
        batch.modelIdentity,
        batch.suiteHash,
        batch.runId,
        state,
        requests,
        submittedAt,
      );
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
          id,
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
      id,
      ...(batch.providerId !== undefined && { providerId: batch.providerId }),
      ...(batch.inputRef !== undefined && { inputRef: batch.inputRef }),
      modelIdentity: batch.modelIdentity,
      suiteHash: batch.suiteHash,
      runId: batch.runId,
      state,
      requests,
      submittedAt,
    };
  }

  /** An uploaded batch (`record` with an inputRef) the provider has now accepted, under its id. */
  markSubmitted(id: string, providerId: string): void {
    this.st
      .prepared(`UPDATE batches SET provider_id = ?, state = 'submitted' WHERE id = ?`)
      .run(providerId, id);
  }

  /** The batches of a suite and model still to be collected, oldest first. */
  open(suiteHash: string, modelIdentity: string): BatchRecord[] {
    return (
      this.st
        .prepared(
          `SELECT * FROM batches WHERE suite_hash = ? AND model_identity = ? AND state IN ('uploaded', 'submitted')
           ORDER BY submitted_at, rowid`,
        )
        .all(suiteHash, modelIdentity) as BatchRow[]
    ).map(toBatch);
  }

  /** Every batch of the store (of one suite when given), oldest first. */
  list(suiteHash?: string): BatchRecord[] {
    const rows =
      suiteHash === undefined
        ? this.st.prepared('SELECT * FROM batches ORDER BY submitted_at, rowid').all()
        : this.st
            .prepared('SELECT * FROM batches WHERE suite_hash = ? ORDER BY submitted_at, rowid')
            .all(suiteHash);
    return (rows as BatchRow[]).map(toBatch);
  }

  /** The cells a batch answers (of one request when given), by custom id. */
  cells(batchId: string, customId?: string): BatchCell[] {
    const rows =
      customId === undefined
        ? this.st.prepared('SELECT * FROM batch_cells WHERE batch_id = ? ORDER BY custom_id').all(batchId)
        : this.st
            .prepared('SELECT * FROM batch_cells WHERE batch_id = ? AND custom_id = ?')
            .all(batchId, customId);
    return (rows as BatchCellRow[]).map((r) => ({
      customId: r.custom_id,
      testId: r.test_id,
      model: r.model,
      repeat: r.repeat,
      key: r.key,
      request: JSON.parse(r.request_json) as GenerateRequest,
    }));
  }

  /** Whether a cell's request (by its cache key) is in a batch still to be collected: its answer is on its way. */
  cellInOpen(suiteHash: string, modelIdentity: string, testId: string, repeat: number, key: string): boolean {
    return (
      this.st
        .prepared(
          `SELECT 1 FROM batch_cells c JOIN batches b ON b.id = c.batch_id
           WHERE c.suite_hash = ? AND c.model_identity = ? AND c.test_id = ? AND c.repeat = ?
             AND c.key = ? AND b.state IN ('uploaded', 'submitted') LIMIT 1`,
        )
        .get(suiteHash, modelIdentity, testId, repeat, key) !== undefined
    );
  }

  /** Marks a batch collected (its results are all stored) or failed (the provider refused it as a whole). */
  end(id: string, state: 'collected' | 'failed', note?: string): void {
    this.st
      .prepared('UPDATE batches SET state = ?, ended_at = ?, note = ? WHERE id = ?')
      .run(state, now(), note ?? null, id);
  }
}

function toBatch(r: BatchRow): BatchRecord {
  return {
    id: r.id,
    ...(r.provider_id !== null && { providerId: r.provider_id }),
    ...(r.input_ref !== null && { inputRef: r.input_ref }),
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
