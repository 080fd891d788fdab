import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { specLabel, toModelSpec } from '../models/spec.js';

/**
 * Live progress of a store's latest run, read through a read-only SQLite connection: the store is
 * in WAL mode, so a reader sees each committed cell while `waver run` keeps writing, and never
 * blocks it. Coverage is counted from the cells of the run's suite and models, whichever run wrote
 * them (a resumed run's earlier cells count as done, as they do in `waver run`'s own coverage).
 */

export interface ModelProgress {
  label: string;
  total: number;
  done: number;
  failed: number;
  pending: number;
}

export interface RunProgress {
  /** `missing`: no store file yet; `empty`: no run recorded yet; `ok`: a run to show. */
  state: 'missing' | 'empty' | 'ok';
  run?: {
    id: string;
    status: string;
    startedAt: string;
    finishedAt?: string;
    suiteHash?: string;
    suiteName?: string;
  };
  total: number;
  done: number;
  failed: number;
  pending: number;
  /** done / total; undefined when nothing is expected. */
  share?: number;
  /** Cells written by this very run (the rest were stored before). */
  writtenThisRun: number;
  models: ModelProgress[];
}

export interface RunRow {
  id: string;
  started_at: string;
  finished_at: string | null;
  status: string;
  suite_hash: string | null;
  suite_name: string | null;
  config_json: string;
  cells: number;
}

/** A store opened read-only on demand: the file may appear only once a run starts. */
export class StoreReader {
  private db: Database.Database | undefined;

  constructor(readonly path: string) {}

  /** The connection, opened when the file exists; undefined before. */
  private connection(): Database.Database | undefined {
    if (this.db) return this.db;
    if (!existsSync(this.path)) return undefined;
    this.db = new Database(this.path, { readonly: true, fileMustExist: true });
    this.db.pragma('busy_timeout = 2000');
    return this.db;
  }

  close(): void {
    this.db?.close();
    this.db = undefined;
  }

  /** Runs, newest first, with their suite name and the cells they wrote. */
  runs(): RunRow[] {
    const db = this.connection();
    if (!db || !hasTables(db)) return [];
    return db
      .prepare(
        `SELECT r.id, r.started_at, r.finished_at, r.status, r.suite_hash, s.name AS suite_name, r.config_json,
                (SELECT count(*) FROM cells c WHERE c.run_id = r.id) AS cells
         FROM runs r LEFT JOIN suites s ON s.hash = r.suite_hash
         ORDER BY r.started_at DESC, r.rowid DESC`,
      )
      .all() as RunRow[];
  }

  /** Coverage of the latest run that calls models (bookkeeping runs, e.g. a sago manifest, are skipped). */
  progress(): RunProgress {
    const empty = { total: 0, done: 0, failed: 0, pending: 0, writtenThisRun: 0, models: [] };
    const db = this.connection();
    if (!db) return { state: 'missing', ...empty };
    if (!hasTables(db)) return { state: 'empty', ...empty };
    const runs = db
      .prepare(
        `SELECT r.id, r.started_at, r.finished_at, r.status, r.suite_hash, s.name AS suite_name, r.config_json
         FROM runs r LEFT JOIN suites s ON s.hash = r.suite_hash
         ORDER BY r.started_at DESC, r.rowid DESC LIMIT 20`,
      )
      .all() as Omit<RunRow, 'cells'>[];
    const row = runs.find((r) => modelLabels(r.config_json).length > 0) ?? runs[0];
    if (!row) return { state: 'empty', ...empty };
    const config = parseJson(row.config_json) as { repeats?: unknown };
    const repeats = typeof config.repeats === 'number' ? config.repeats : 1;
    const labels = modelLabels(row.config_json);
    const run = {
      id: row.id,
      status: row.status,
      startedAt: row.started_at,
      ...(row.finished_at !== null && { finishedAt: row.finished_at }),
      ...(row.suite_hash !== null && { suiteHash: row.suite_hash }),
      ...(row.suite_name !== null && { suiteName: row.suite_name }),
    };
    if (row.suite_hash === null) return { state: 'ok', run, ...empty };
    const expected = db
      .prepare(
        `SELECT coalesce(sum(coalesce(json_extract(json, '$.repeats'), @repeats)), 0)
         FROM tests WHERE suite_hash = @suite`,
      )
      .pluck()
      .get({ suite: row.suite_hash, repeats }) as number;
    const counts = db
      .prepare(
        `SELECT c.model, c.status, count(*) AS n, sum(c.run_id = @run) AS mine
         FROM cells c JOIN tests t ON t.suite_hash = c.suite_hash AND t.test_id = c.test_id
         WHERE c.suite_hash = @suite AND c.repeat < coalesce(json_extract(t.json, '$.repeats'), @repeats)
         GROUP BY c.model, c.status`,
      )
      .all({ suite: row.suite_hash, run: row.id, repeats }) as {
      model: string;
      status: string;
      n: number;
      mine: number;
    }[];
    const names = labels.length > 0 ? labels : [...new Set(counts.map((c) => c.model))];
    const models = names.map((label): ModelProgress => {
      const of = (status: string) => counts.find((c) => c.model === label && c.status === status)?.n ?? 0;
      const done = of('done');
      const failed = of('failed');
      return { label, total: expected, done, failed, pending: Math.max(0, expected - done - failed) };
    });
    const sum = (k: 'total' | 'done' | 'failed' | 'pending') => models.reduce((a, m) => a + m[k], 0);
    const total = sum('total');
    return {
      state: 'ok',
      run,
      total,
      done: sum('done'),
      failed: sum('failed'),
      pending: sum('pending'),
      ...(total > 0 && { share: sum('done') / total }),
      writtenThisRun: counts.filter((c) => names.includes(c.model)).reduce((a, c) => a + c.mine, 0),
      models,
    };
  }
}

/** The tables exist once the writer's first migration committed. */
function hasTables(db: Database.Database): boolean {
  return (
    db
      .prepare(
        `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('runs', 'cells', 'tests', 'suites')`,
      )
      .pluck()
      .get() === 4
  );
}

/** The labels of the models a run's stored config names (the labels cells are stored under). */
export function modelLabels(configJson: string): string[] {
  const models = (parseJson(configJson) as { models?: unknown }).models;
  if (!Array.isArray(models)) return [];
  return models.map((m) => {
    try {
      return specLabel(toModelSpec(m as Parameters<typeof toModelSpec>[0]));
    } catch {
      return typeof m === 'string' ? m : JSON.stringify(m);
    }
  });
}

function parseJson(text: string): Record<string, unknown> {
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
