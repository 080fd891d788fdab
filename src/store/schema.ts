import type Database from 'better-sqlite3';
import { InputError } from '../errors.js';
import type { Statements } from './statements.js';

type DB = Database.Database;

/**
 * Schema migrations: MIGRATIONS[i] takes a store from user_version i to i + 1. Append, never
 * edit a shipped one: stores on disk were made by them.
 */
export const MIGRATIONS: readonly ((db: DB) => void)[] = [
  (db) => {
    db.exec(`
      CREATE TABLE suites (
        hash TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE TABLE tests (
        suite_hash TEXT NOT NULL REFERENCES suites(hash),
        test_id TEXT NOT NULL,
        position INTEGER NOT NULL,
        json TEXT NOT NULL,
        PRIMARY KEY (suite_hash, test_id)
      ) WITHOUT ROWID;
      CREATE TABLE runs (
        id TEXT PRIMARY KEY,
        started_at TEXT NOT NULL,
        finished_at TEXT,
        waver_version TEXT NOT NULL,
        config_json TEXT NOT NULL,
        suite_hash TEXT, -- no foreign key: a run may begin before its suite is stored
        status TEXT NOT NULL
      );
      CREATE INDEX runs_suite ON runs(suite_hash);
      CREATE TABLE responses (
        key TEXT PRIMARY KEY,
        identity TEXT NOT NULL,
        model TEXT NOT NULL,
        request_json TEXT NOT NULL,
        text TEXT NOT NULL,
        tokens_json TEXT,
        finish_reason TEXT NOT NULL,
        input_tokens INTEGER NOT NULL,
        output_tokens INTEGER NOT NULL,
        latency_ms REAL,
        response_model TEXT,
        created_at TEXT NOT NULL
      );
      CREATE INDEX responses_identity ON responses(identity);
      CREATE TABLE cells (
        id INTEGER PRIMARY KEY,
        suite_hash TEXT NOT NULL REFERENCES suites(hash),
        test_id TEXT NOT NULL,
        model TEXT NOT NULL,
        model_identity TEXT NOT NULL,
        repeat INTEGER NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('done', 'failed')),
        response_key TEXT REFERENCES responses(key),
        request_json TEXT,
        error_kind TEXT,
        error_message TEXT,
        error_status INTEGER,
        attempts INTEGER NOT NULL,
        latency_ms REAL,
        updated_at TEXT NOT NULL,
        run_id TEXT NOT NULL REFERENCES runs(id),
        -- Also the index for doneCellKeys / coverage (suite, identity). Few indexes on purpose:
        -- each one is another page written by every cell's commit.
        UNIQUE (suite_hash, model_identity, test_id, repeat)
      );
      CREATE TABLE attempts (
        id INTEGER PRIMARY KEY,
        cell_id INTEGER NOT NULL REFERENCES cells(id),
        run_id TEXT NOT NULL REFERENCES runs(id),
        attempt INTEGER NOT NULL,
        started_at TEXT NOT NULL,
        latency_ms REAL,
        outcome TEXT NOT NULL,
        message TEXT,
        status INTEGER
      );
      CREATE INDEX attempts_cell ON attempts(cell_id);
    `);
  },
  // Results of calls that are not chat generations (embeddings, teacher-forced scores): see aux-cache.ts.
  (db) => {
    db.exec(`
      CREATE TABLE IF NOT EXISTS aux_results (
        key TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        identity TEXT NOT NULL,
        request_json TEXT NOT NULL,
        result_json TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
    `);
  },
  // The tries of calls a stop cut short, for cells that stay pending (docs/decisions.md#e13-stopped-calls).
  (db) => {
    db.exec(`
      CREATE TABLE stopped_attempts (
        id INTEGER PRIMARY KEY,
        run_id TEXT NOT NULL REFERENCES runs(id),
        suite_hash TEXT NOT NULL,
        model_identity TEXT NOT NULL,
        model TEXT NOT NULL,
        test_id TEXT NOT NULL,
        repeat INTEGER NOT NULL,
        attempt INTEGER NOT NULL,
        started_at TEXT NOT NULL,
        latency_ms REAL,
        outcome TEXT NOT NULL,
        message TEXT,
        status INTEGER
      );
      CREATE INDEX stopped_attempts_cell ON stopped_attempts(suite_hash, model_identity, test_id, repeat);
    `);
  },
  // Which process runs a suite on this store (docs/decisions.md#e14-one-run-per-suite-and-store).
  (db) => {
    db.exec(`
      CREATE TABLE leases (
        key TEXT PRIMARY KEY,
        token TEXT NOT NULL,
        pid INTEGER NOT NULL,
        host TEXT NOT NULL,
        command TEXT,
        started_at TEXT NOT NULL,
        heartbeat_ms INTEGER NOT NULL
      );
    `);
  },
  // Labelling sets and people's labels of judged items (docs/judges.md#labelling).
  (db) => {
    db.exec(`
      CREATE TABLE labelling_sets (
        name TEXT PRIMARY KEY,
        created_at TEXT NOT NULL,
        seed INTEGER NOT NULL,
        population_json TEXT NOT NULL
      );
      CREATE TABLE labelling_items (
        set_name TEXT NOT NULL REFERENCES labelling_sets(name),
        item_id TEXT NOT NULL,
        position INTEGER NOT NULL,
        json TEXT NOT NULL,
        PRIMARY KEY (set_name, item_id)
      ) WITHOUT ROWID;
      CREATE TABLE labels (
        set_name TEXT NOT NULL,
        item_id TEXT NOT NULL,
        rater TEXT NOT NULL,
        label TEXT NOT NULL,
        notes TEXT,
        source TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (set_name, item_id, rater),
        FOREIGN KEY (set_name, item_id) REFERENCES labelling_items(set_name, item_id)
      ) WITHOUT ROWID;
    `);
  },
];

/** The tables of the first migration: a SQLite file with tables but not these is not a waver store. */
const WAVER_TABLES = ['suites', 'tests', 'runs', 'responses', 'cells', 'attempts'];

/**
 * Why a SQLite file is not a waver store, or undefined when it is one or has no tables yet (a new
 * file, or a store whose writer has not migrated it). A waver store always has a user_version:
 * each migration sets it in the transaction that makes its tables.
 */
export function foreignSchema(db: DB): string | undefined {
  const tables = (
    db
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`)
      .pluck()
      .all() as string[]
  ).sort();
  if (tables.length === 0) return undefined;
  const version = db.pragma('user_version', { simple: true }) as number;
  const missing = WAVER_TABLES.filter((t) => !tables.includes(t));
  if (version > 0 && missing.length === 0) return undefined;
  const shown = tables.slice(0, 5).join(', ') + (tables.length > 5 ? ', ...' : '');
  return `its tables are ${shown}`;
}

/** Runs the migrations a store lacks, each in its own transaction with its user_version bump. */
export function applyMigrations(db: DB, migrations: readonly ((db: DB) => void)[] = MIGRATIONS): number {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > migrations.length) {
    throw new InputError(
      `the store has schema version ${current}, newer than this waver knows (${migrations.length}); upgrade waver`,
      { file: db.name },
    );
  }
  for (let v = current; v < migrations.length; v++) {
    const step = migrations[v] as (db: DB) => void;
    db.transaction(() => {
      step(db);
      db.pragma(`user_version = ${v + 1}`);
    }).immediate();
  }
  return migrations.length;
}

/** Whether the tables exist: a reader may open a store before the writer's first migration committed. */
export function hasSchema(st: Statements): boolean {
  return (
    st
      .prepared(
        `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('runs', 'cells', 'tests', 'suites')`,
      )
      .pluck()
      .get() === 4
  );
}
