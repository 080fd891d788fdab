import { randomUUID } from 'node:crypto';
import { withoutSecrets } from '../util/secrets.js';
import type { RunListing, RunRecord, RunWithCells } from './records.js';
import { now, type RunRow, toRun } from './rows.js';
import type { Statements } from './statements.js';

/** Runs: one row per `waver` invocation that stored something, with its config and status. */

export function beginRun(
  st: Statements,
  opts: { suiteHash?: string; config: unknown; waverVersion: string; id?: string },
): string {
  const id = opts.id ?? randomUUID();
  const config = withoutSecrets(opts.config ?? {});
  st.prepared(
    'INSERT INTO runs (id, started_at, waver_version, config_json, suite_hash, status) VALUES (?, ?, ?, ?, ?, ?)',
  ).run(id, now(), opts.waverVersion, JSON.stringify(config), opts.suiteHash ?? null, 'running');
  return id;
}

export function finishRun(st: Statements, runId: string, status: string): void {
  const info = st
    .prepared('UPDATE runs SET finished_at = ?, status = ? WHERE id = ?')
    .run(now(), status, runId);
  if (info.changes === 0) throw new Error(`no run ${runId} in the store`);
}

export function getRun(st: Statements, runId: string): RunRecord | undefined {
  const row = st.prepared('SELECT * FROM runs WHERE id = ?').get(runId) as RunRow | undefined;
  return row && toRun(row);
}

export function listRuns(st: Statements): RunRecord[] {
  return (st.prepared('SELECT * FROM runs ORDER BY started_at, rowid').all() as RunRow[]).map(toRun);
}

interface RunListingRow {
  id: string;
  started_at: string;
  finished_at: string | null;
  status: string;
  suite_hash: string | null;
  suite_name: string | null;
  config_json: string;
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

export function runsWithCells(st: Statements, cellsByRun: Map<string, number>): RunWithCells[] {
  const rows = st
    .prepared(
      `SELECT r.id, r.started_at, r.finished_at, r.status, r.suite_hash, s.name AS suite_name, r.config_json
       FROM runs r LEFT JOIN suites s ON s.hash = r.suite_hash
       ORDER BY r.started_at DESC, r.rowid DESC`,
    )
    .all() as RunListingRow[];
  return rows.map((r) => ({ ...toListing(r), cells: cellsByRun.get(r.id) ?? 0 }));
}

export function latestRuns(st: Statements, limit: number): RunListing[] {
  const rows = st
    .prepared(
      `SELECT r.id, r.started_at, r.finished_at, r.status, r.suite_hash, s.name AS suite_name, r.config_json
       FROM runs r LEFT JOIN suites s ON s.hash = r.suite_hash
       ORDER BY r.started_at DESC, r.rowid DESC LIMIT ?`,
    )
    .all(limit) as RunListingRow[];
  return rows.map(toListing);
}
