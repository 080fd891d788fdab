import { randomUUID } from 'node:crypto';
import { withoutSecrets } from '../util/secrets.js';
import type { RunListing, RunRecord, RunWithCells } from './records.js';
import { now, type RunRow, toRun } from './rows.js';
import { cellCountsSource } from './schema.js';
import type { Statements } from './statements.js';

interface RunListingRow {
  id: string;
  started_at: string;
  finished_at: string | null;
  status: string;
  suite_hash: string | null;
  suite_name: string | null;
  config_json: string;
}

const LISTING = `
  SELECT r.id, r.started_at, r.finished_at, r.status, r.suite_hash, s.name AS suite_name, r.config_json
  FROM runs r LEFT JOIN suites s ON s.hash = r.suite_hash
  ORDER BY r.started_at DESC, r.rowid DESC`;

/** Runs: one row per `waver` invocation that stored something, with its config and status. */
export class RunQueries {
  constructor(private readonly st: Statements) {}

  /** Records a run's start. The config is stored with any secret-named member removed. */
  begin(opts: { suiteHash?: string; config: unknown; waverVersion: string; id?: string }): string {
    const id = opts.id ?? randomUUID();
    const config = withoutSecrets(opts.config ?? {});
    this.st
      .prepared(
        'INSERT INTO runs (id, started_at, waver_version, config_json, suite_hash, status) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .run(id, now(), opts.waverVersion, JSON.stringify(config), opts.suiteHash ?? null, 'running');
    return id;
  }

  /** Records a run's end: 'complete', 'incomplete', 'aborted', 'failed'... */
  finish(runId: string, status: string): void {
    const info = this.st
      .prepared('UPDATE runs SET finished_at = ?, status = ? WHERE id = ?')
      .run(now(), status, runId);
    if (info.changes === 0) throw new Error(`no run ${runId} in the store`);
  }

  get(runId: string): RunRecord | undefined {
    const row = this.st.prepared('SELECT * FROM runs WHERE id = ?').get(runId) as RunRow | undefined;
    return row && toRun(row);
  }

  /** Every run, oldest first. */
  list(): RunRecord[] {
    return (this.st.prepared('SELECT * FROM runs ORDER BY started_at, rowid').all() as RunRow[]).map(toRun);
  }

  /** Every run, newest first, with its suite's name and how many cells it wrote last. */
  withCells(): RunWithCells[] {
    const cells = new Map(
      (
        this.st
          .prepared(`SELECT run_id, sum(n) AS cells FROM ${cellCountsSource(this.st)} GROUP BY run_id`)
          .all() as { run_id: string; cells: number }[]
      ).map((r) => [r.run_id, r.cells]),
    );
    const rows = this.st.prepared(LISTING).all() as RunListingRow[];
    return rows.map((r) => ({ ...toListing(r), cells: cells.get(r.id) ?? 0 }));
  }

  /** The `limit` newest runs, newest first, with their suite's name. */
  latest(limit: number): RunListing[] {
    return (this.st.prepared(`${LISTING} LIMIT ?`).all(limit) as RunListingRow[]).map(toListing);
  }
}

function toListing(r: RunListingRow): RunListing {
  return {
    id: r.id,
    startedAt: r.started_at,
    ...(r.finished_at !== null && { finishedAt: r.finished_at }),
    status: r.status,
    ...(r.suite_hash !== null && { suiteHash: r.suite_hash }),
    ...(r.suite_name !== null && { suiteName: r.suite_name }),
    configJson: r.config_json,
  };
}
