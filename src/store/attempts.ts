import type { StoppedAttempt, StoredAttempt } from './records.js';
import { type AttemptRow, toAttempt } from './rows.js';
import type { Statements } from './statements.js';

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

interface StoppedAttemptRow extends AttemptRow {
  suite_hash: string;
  model_identity: string;
  model: string;
  test_id: string;
  repeat: number;
}

/** Every call made for a cell, kept even when a later retry succeeded or a stop cut it short. */
export class AttemptQueries {
  constructor(private readonly st: Statements) {}

  /** Every call made for a cell, oldest first (all runs), tries a stop cut short included. */
  of(cellId: number): StoredAttempt[] {
    return (this.st.prepared(ATTEMPTS_OF).all({ id: cellId }) as AttemptRow[]).map(toAttempt);
  }

  /** The tries of calls a stop cut short (their cells stayed pending), oldest first; of one run when given. */
  stopped(runId?: string): StoppedAttempt[] {
    const rows = this.st
      .prepared(`SELECT * FROM stopped_attempts WHERE @run_id IS NULL OR run_id = @run_id ORDER BY id`)
      .all({ run_id: runId ?? null }) as StoppedAttemptRow[];
    return rows.map((r) => ({
      ...toAttempt(r),
      suiteHash: r.suite_hash,
      modelIdentity: r.model_identity,
      model: r.model,
      testId: r.test_id,
      repeat: r.repeat,
    }));
  }
}
