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
  // Which process ran a suite on this store: replaced by cell_leases (docs/decisions.md#e14-workers-share-a-store-by-leasing-chunks-of-cells).
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
  // A million cells (docs/decisions.md E16): counts kept as cells are written, and the indexes the
  // viewer's, report's and check's queries need. Responses are no longer looked up by identity
  // (the engine asks for a key at a time): that index only cost every write.
  (db) => {
    db.exec(`
      DROP INDEX IF EXISTS responses_identity;
      CREATE INDEX tests_position ON tests(suite_hash, position);
      CREATE INDEX cells_failed ON cells(suite_hash, model_identity, test_id, repeat) WHERE status = 'failed';
      ${CELL_COUNTS_SCHEMA}
      INSERT INTO cell_counts
        SELECT c.suite_hash, c.model_identity, c.model, c.status, coalesce(c.error_kind, ''), c.repeat, c.run_id,
               c.attempts = 0, ${testRepeatsOf('c')}, count(*), min(c.id)
        FROM cells c GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9;
    `);
  },
  // Provider batches a run submitted and the cells each answers, so a killed run polls them
  // again instead of submitting twice (docs/batch.md#resume).
  (db) => {
    db.exec(`
      CREATE TABLE batches (
        id TEXT PRIMARY KEY, -- waver's own: the provider's id is known only once it accepted the batch
        provider_id TEXT,
        input_ref TEXT, -- what the provider made the batch over (OpenAI: the input file), when it says
        model_identity TEXT NOT NULL,
        suite_hash TEXT NOT NULL,
        run_id TEXT NOT NULL REFERENCES runs(id),
        state TEXT NOT NULL CHECK (state IN ('uploaded', 'submitted', 'collected', 'failed')),
        requests INTEGER NOT NULL,
        submitted_at TEXT NOT NULL,
        ended_at TEXT,
        note TEXT
      );
      CREATE INDEX batches_open ON batches(suite_hash, model_identity) WHERE state IN ('uploaded', 'submitted');
      CREATE TABLE batch_cells (
        batch_id TEXT NOT NULL REFERENCES batches(id),
        custom_id TEXT NOT NULL,
        suite_hash TEXT NOT NULL,
        model_identity TEXT NOT NULL,
        model TEXT NOT NULL,
        test_id TEXT NOT NULL,
        repeat INTEGER NOT NULL,
        key TEXT NOT NULL,
        request_json TEXT NOT NULL,
        PRIMARY KEY (batch_id, custom_id, test_id, repeat)
      ) WITHOUT ROWID;
      CREATE INDEX batch_cells_cell ON batch_cells(suite_hash, model_identity, test_id, repeat);
    `);
  },
  // Workers share a store by leasing chunks of cells, not whole suites
  // (docs/decisions.md#e14-workers-share-a-store-by-leasing-chunks-of-cells).
  (db) => {
    db.exec(`
      DROP TABLE IF EXISTS leases;
      CREATE TABLE cell_leases (
        suite_hash TEXT NOT NULL,
        model_identity TEXT NOT NULL,
        chunk INTEGER NOT NULL,
        owner TEXT NOT NULL,
        pid INTEGER NOT NULL,
        host TEXT NOT NULL,
        expires_ms INTEGER NOT NULL,
        finished_ms INTEGER,
        PRIMARY KEY (suite_hash, model_identity, chunk)
      ) WITHOUT ROWID;
      CREATE INDEX cell_leases_owner ON cell_leases(owner);
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
  // A test's position without its JSON: \`tests\` keeps whole rows in its key's B-tree, so a lookup
  // there reads a test's JSON (its overflow pages too) to compare keys. Joining 19,092 cells to
  // their tests' positions took 1.25 s that way and 0.07 s through this index (the report bench;
  // docs/decisions.md E16). Queries name it (INDEXED BY): without statistics SQLite takes the key.
  (db) => {
    db.exec('CREATE INDEX tests_key ON tests(suite_hash, test_id, position)');
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

/**
 * A test's own repeats for the cell of alias `c`: 0 when it sets none (the run's apply), -1 when
 * the suite has no such test (such a cell is never counted, as coverage's join never counts it).
 */
function testRepeatsOf(c: string): string {
  return `coalesce((SELECT coalesce(json_extract(t.json, '$.repeats'), 0) FROM tests t
                    WHERE t.suite_hash = ${c}.suite_hash AND t.test_id = ${c}.test_id), -1)`;
}

/**
 * cell_counts: how many cells there are per suite, model, status, error kind, repeat, run that
 * wrote them last, whether a call was made (`stored`: attempts 0) and the test's own repeats. Kept
 * by triggers in the transaction that writes the cell, so it is always exact; coverage, progress
 * and the runs listing read a few of its rows instead of every cell. `first_id` orders suites and
 * models by their first cell. A row whose count fell to 0 is left in place.
 */
const CELL_COUNTS_SCHEMA = `
  CREATE TABLE cell_counts (
    suite_hash TEXT NOT NULL,
    model_identity TEXT NOT NULL,
    model TEXT NOT NULL,
    status TEXT NOT NULL,
    error_kind TEXT NOT NULL,
    repeat INTEGER NOT NULL,
    run_id TEXT NOT NULL,
    stored INTEGER NOT NULL,
    test_repeats INTEGER NOT NULL,
    n INTEGER NOT NULL,
    first_id INTEGER NOT NULL,
    PRIMARY KEY (suite_hash, model_identity, model, status, error_kind, repeat, run_id, stored, test_repeats)
  ) WITHOUT ROWID;
  CREATE TRIGGER cell_counts_insert AFTER INSERT ON cells BEGIN
    INSERT INTO cell_counts VALUES (NEW.suite_hash, NEW.model_identity, NEW.model, NEW.status,
      coalesce(NEW.error_kind, ''), NEW.repeat, NEW.run_id, NEW.attempts = 0, ${testRepeatsOf('NEW')}, 1, NEW.id)
    ON CONFLICT DO UPDATE SET n = n + 1, first_id = min(first_id, excluded.first_id);
  END;
  CREATE TRIGGER cell_counts_update AFTER UPDATE ON cells
  WHEN OLD.suite_hash IS NOT NEW.suite_hash OR OLD.model_identity IS NOT NEW.model_identity
    OR OLD.model IS NOT NEW.model OR OLD.status IS NOT NEW.status OR OLD.error_kind IS NOT NEW.error_kind
    OR OLD.repeat IS NOT NEW.repeat OR OLD.run_id IS NOT NEW.run_id OR (OLD.attempts = 0) IS NOT (NEW.attempts = 0)
    OR OLD.test_id IS NOT NEW.test_id
  BEGIN
    UPDATE cell_counts SET n = n - 1
    WHERE suite_hash = OLD.suite_hash AND model_identity = OLD.model_identity AND model = OLD.model
      AND status = OLD.status AND error_kind = coalesce(OLD.error_kind, '') AND repeat = OLD.repeat
      AND run_id = OLD.run_id AND stored = (OLD.attempts = 0) AND test_repeats = ${testRepeatsOf('OLD')};
    INSERT INTO cell_counts VALUES (NEW.suite_hash, NEW.model_identity, NEW.model, NEW.status,
      coalesce(NEW.error_kind, ''), NEW.repeat, NEW.run_id, NEW.attempts = 0, ${testRepeatsOf('NEW')}, 1, NEW.id)
    ON CONFLICT DO UPDATE SET n = n + 1, first_id = min(first_id, excluded.first_id);
  END;
  CREATE TRIGGER cell_counts_delete AFTER DELETE ON cells BEGIN
    UPDATE cell_counts SET n = n - 1
    WHERE suite_hash = OLD.suite_hash AND model_identity = OLD.model_identity AND model = OLD.model
      AND status = OLD.status AND error_kind = coalesce(OLD.error_kind, '') AND repeat = OLD.repeat
      AND run_id = OLD.run_id AND stored = (OLD.attempts = 0) AND test_repeats = ${testRepeatsOf('OLD')};
  END;`;

/**
 * What cell_counts holds, computed from the cells: for a store opened read-only before a writer
 * added the table (schema 4 or older), so the same queries answer, only slower.
 */
export const CELL_COUNTS_FROM_CELLS = `(
  SELECT c.suite_hash, c.model_identity, c.model, c.status, coalesce(c.error_kind, '') AS error_kind,
         c.repeat, c.run_id, c.attempts = 0 AS stored, ${testRepeatsOf('c')} AS test_repeats,
         count(*) AS n, min(c.id) AS first_id
  FROM cells c GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9)`;

/**
 * Runs the migrations a store lacks, each in its own transaction with its user_version bump. The
 * version is read inside each transaction: processes opening a new store at once (workers sharing
 * it, docs/decisions.md E14) migrate it once between them.
 */
export function applyMigrations(db: DB, migrations: readonly ((db: DB) => void)[] = MIGRATIONS): number {
  const version = () => db.pragma('user_version', { simple: true }) as number;
  if (version() > migrations.length) {
    throw new InputError(
      `the store has schema version ${version()}, newer than this waver knows (${migrations.length}); upgrade waver`,
      { file: db.name },
    );
  }
  // A store already at this version (every open but the first) takes no write lock: versions only grow.
  for (let migrated = version() === migrations.length; !migrated; ) {
    migrated = db
      .transaction((): boolean => {
        const v = version();
        const step = migrations[v];
        if (step === undefined) return true;
        step(db);
        db.pragma(`user_version = ${v + 1}`);
        return false;
      })
      .immediate();
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

/** The cell counts to read from: the table, or the same rows computed on a store that lacks it. */
export function cellCountsSource(st: Statements): string {
  const table = st
    .prepared(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'cell_counts'`)
    .get();
  return table ? 'cell_counts' : CELL_COUNTS_FROM_CELLS;
}
