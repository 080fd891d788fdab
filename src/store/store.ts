import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { FinishReason, GenerateRequest, GenerateResult, TokenLogprob } from '../models/types.js';
import type { CellError, CellStatus, Coverage, Suite, SuiteTest } from '../run/types.js';
import { withoutSecrets } from '../util/secrets.js';

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
];

/** Runs the migrations a store lacks, each in its own transaction with its user_version bump. */
export function applyMigrations(db: DB, migrations: readonly ((db: DB) => void)[] = MIGRATIONS): number {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > migrations.length) {
    throw new Error(
      `store ${db.name} has schema version ${current}, newer than this waver knows (${migrations.length}); upgrade waver`,
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

/** One call made for a cell, kept even when a later retry succeeded. */
export interface AttemptRecord {
  /** 1-based. */
  attempt: number;
  /** ISO time the call started. */
  startedAt: string;
  latencyMs?: number;
  /** 'ok' or the error kind. */
  outcome: string;
  message?: string;
  status?: number;
}

export interface CellRef {
  suiteHash: string;
  testId: string;
  /** The model's label. */
  model: string;
  modelIdentity: string;
  repeat: number;
}

export interface SaveCellDone extends CellRef {
  runId: string;
  /** Cache key of the request (see cache-key.ts). */
  key: string;
  request: GenerateRequest;
  result: GenerateResult;
  latencyMs?: number;
  attempts: AttemptRecord[];
}

export interface SaveCellFailed extends CellRef {
  runId: string;
  request: GenerateRequest;
  error: CellError;
  attempts: AttemptRecord[];
}

/** A done cell that reuses a response already stored (no call made). */
export interface SaveCellCached extends CellRef {
  runId: string;
  key: string;
}

/** One write of a finished cell, for `saveBatch`. */
export type CellWrite =
  | { kind: 'done'; cell: SaveCellDone }
  | { kind: 'failed'; cell: SaveCellFailed }
  | { kind: 'cached'; cells: SaveCellCached[] };

export interface StoredResponse extends GenerateResult {
  key: string;
  identity: string;
  /** The label of the model that first stored it. */
  model: string;
  request: GenerateRequest;
  latencyMs?: number;
  createdAt: string;
}

export interface StoredCell extends CellRef {
  id: number;
  status: CellStatus;
  responseKey?: string;
  /** The request it sent (from the response for done cells). */
  request: GenerateRequest;
  response?: StoredResponse;
  error?: CellError;
  /** Calls made for it by the run that last wrote it (0: served from the store). */
  attempts: number;
  latencyMs?: number;
  updatedAt: string;
  runId: string;
}

export interface StoredAttempt extends AttemptRecord {
  runId: string;
}

export interface RunRecord {
  id: string;
  startedAt: string;
  finishedAt?: string;
  waverVersion: string;
  config: unknown;
  suiteHash?: string;
  status: string;
}

export interface CellFilter {
  suiteHash?: string;
  model?: string;
  modelIdentity?: string;
  testId?: string;
  status?: CellStatus;
  /** Cells last written by this run. */
  runId?: string;
}

/** A model in a coverage count: cells are matched by identity; `repeats` sets how many are expected. */
export interface CoverageModel {
  identity: string;
  repeats: number;
}

/** Separator for doneCellKeys entries: cannot occur in a hex key and is unlikely in a test id. */
const SEP = '\u0000';

/** The doneCellKeys entry of a cell: a done cell counts only when it stored this very request. */
export function doneCellSlot(testId: string, repeat: number, key: string): string {
  return `${testId}${SEP}${repeat}${SEP}${key}`;
}

interface CellRow {
  id: number;
  suite_hash: string;
  test_id: string;
  model: string;
  model_identity: string;
  repeat: number;
  status: CellStatus;
  response_key: string | null;
  cell_request_json: string | null;
  error_kind: string | null;
  error_message: string | null;
  error_status: number | null;
  attempts: number;
  cell_latency_ms: number | null;
  updated_at: string;
  run_id: string;
  r_identity: string | null;
  r_model: string | null;
  r_request_json: string | null;
  text: string | null;
  tokens_json: string | null;
  finish_reason: string | null;
  input_tokens: number | null;
  output_tokens: number | null;
  r_latency_ms: number | null;
  response_model: string | null;
  r_created_at: string | null;
}

const CELL_SELECT = `
  SELECT c.id, c.suite_hash, c.test_id, c.model, c.model_identity, c.repeat, c.status, c.response_key,
         c.request_json AS cell_request_json, c.error_kind, c.error_message, c.error_status, c.attempts,
         c.latency_ms AS cell_latency_ms, c.updated_at, c.run_id,
         r.identity AS r_identity, r.model AS r_model, r.request_json AS r_request_json, r.text, r.tokens_json,
         r.finish_reason, r.input_tokens, r.output_tokens, r.latency_ms AS r_latency_ms, r.response_model,
         r.created_at AS r_created_at
  FROM cells c LEFT JOIN responses r ON r.key = c.response_key`;

const PAGE = 500;

/**
 * The SQLite store: suites, runs, responses (the cache), cells and every attempt. A report is
 * built from it alone. A finished cell is written whole in one transaction (alone or with others
 * that finished at the same moment), so a process killed at any point never leaves half a cell.
 */
export class Store {
  readonly db: DB;
  readonly path: string;
  private readonly stmts: ReturnType<typeof prepare>;
  private readonly txDone: Database.Transaction<(c: SaveCellDone) => void>;
  private readonly txFailed: Database.Transaction<(c: SaveCellFailed) => void>;
  private readonly txCached: Database.Transaction<(cells: SaveCellCached[]) => void>;
  private readonly txBatch: Database.Transaction<(writes: readonly CellWrite[]) => void>;

  constructor(path: string) {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.path = path;
    this.db = new Database(path);
    this.db.pragma('journal_mode = WAL');
    // NORMAL in WAL mode survives a killed process (only an OS crash can lose the last commits).
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('busy_timeout = 5000');
    this.db.pragma('foreign_keys = ON');
    applyMigrations(this.db);
    this.stmts = prepare(this.db);
    this.txDone = this.makeTxDone();
    this.txFailed = this.makeTxFailed();
    this.txCached = this.makeTxCached();
    // Nested transaction functions run as savepoints inside the batch's one commit.
    this.txBatch = this.db.transaction((writes: readonly CellWrite[]) => {
      for (const w of writes) {
        if (w.kind === 'done') this.txDone(w.cell);
        else if (w.kind === 'failed') this.txFailed(w.cell);
        else this.txCached(w.cells);
      }
    });
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  get schemaVersion(): number {
    return this.db.pragma('user_version', { simple: true }) as number;
  }

  /** Stores a suite and its tests once (a suite is identified by its hash). */
  saveSuite(suite: Suite): void {
    this.db
      .transaction(() => {
        const inserted = this.stmts.insertSuite.run(suite.hash, suite.name, now());
        if (inserted.changes === 0) return;
        suite.tests.forEach((test, position) => {
          this.stmts.insertTest.run(suite.hash, test.id, position, JSON.stringify(test));
        });
      })
      .immediate();
  }

  hasSuite(hash: string): boolean {
    return this.stmts.hasSuite.get(hash) !== undefined;
  }

  getSuite(hash: string): Suite | undefined {
    const row = this.stmts.getSuite.get(hash) as { hash: string; name: string } | undefined;
    if (!row) return undefined;
    const tests = (this.stmts.getTests.all(hash) as { json: string }[]).map(
      (t) => JSON.parse(t.json) as SuiteTest,
    );
    return { name: row.name, hash: row.hash, tests };
  }

  /** Records a run's start. The config is stored with any secret-named member removed. */
  beginRun(opts: { suiteHash?: string; config: unknown; waverVersion: string; id?: string }): string {
    const id = opts.id ?? randomUUID();
    const config = withoutSecrets(opts.config ?? {});
    this.stmts.insertRun.run(
      id,
      now(),
      opts.waverVersion,
      JSON.stringify(config),
      opts.suiteHash ?? null,
      'running',
    );
    return id;
  }

  /** Records a run's end: 'complete', 'incomplete', 'aborted', 'failed'... */
  finishRun(runId: string, status: string): void {
    const info = this.stmts.finishRun.run(now(), status, runId);
    if (info.changes === 0) throw new Error(`no run ${runId} in the store`);
  }

  getRun(runId: string): RunRecord | undefined {
    const row = this.stmts.getRun.get(runId) as RunRow | undefined;
    return row && toRun(row);
  }

  listRuns(): RunRecord[] {
    return (this.stmts.listRuns.all() as RunRow[]).map(toRun);
  }

  getResponse(key: string): StoredResponse | undefined {
    const row = this.stmts.getResponse.get(key) as ResponseRow | undefined;
    return row && toResponse(row);
  }

  /** Keys of every response stored for a provider identity (the cache, across suites). */
  responseKeys(identity: string): Set<string> {
    return new Set(this.stmts.responseKeys.pluck().all(identity) as string[]);
  }

  /** doneCellSlot(testId, repeat, key) of every done cell of a suite and model identity. */
  doneCellKeys(suiteHash: string, modelIdentity: string): Set<string> {
    const rows = this.stmts.doneCells.raw().all(suiteHash, modelIdentity) as [string, number, string][];
    const out = new Set<string>();
    for (const [testId, repeat, key] of rows) out.add(doneCellSlot(testId, repeat, key));
    return out;
  }

  /** Response, cell and attempts of a finished cell, in one transaction. */
  saveCellDone(c: SaveCellDone): void {
    this.txDone.immediate(c);
  }

  /** A failed cell with its reason and attempts, in one transaction. */
  saveCellFailed(c: SaveCellFailed): void {
    this.txFailed.immediate(c);
  }

  /**
   * Several finished cells in one transaction (group commit): the engine flushes the cells that
   * finished in the same turn of the event loop together, so a commit's cost is shared while a
   * killed process still loses only cells that were not yet committed — never half a cell.
   */
  saveBatch(writes: readonly CellWrite[]): void {
    if (writes.length > 0) this.txBatch.immediate(writes);
  }

  /** Done cells whose response is already stored (attempts 0), in one transaction. */
  saveCellsCached(cells: SaveCellCached[]): void {
    if (cells.length > 0) this.txCached.immediate(cells);
  }

  private makeTxDone() {
    return this.db.transaction((c: SaveCellDone) => {
      const r = c.result;
      const at = now();
      this.stmts.upsertResponse.run({
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
      const cellId = this.upsertCell(c, {
        status: 'done',
        response_key: c.key,
        request_json: null,
        attempts: c.attempts.length,
        latency_ms: c.latencyMs ?? null,
        at,
      });
      this.insertAttempts(cellId, c.runId, c.attempts);
    });
  }

  private makeTxFailed() {
    return this.db.transaction((c: SaveCellFailed) => {
      const cellId = this.upsertCell(c, {
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
      this.insertAttempts(cellId, c.runId, c.attempts);
    });
  }

  private makeTxCached() {
    return this.db.transaction((cells: SaveCellCached[]) => {
      const at = now();
      for (const c of cells) {
        this.upsertCell(c, {
          status: 'done',
          response_key: c.key,
          request_json: null,
          attempts: 0,
          latency_ms: null,
          at,
        });
      }
    });
  }

  private upsertCell(
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
    return this.stmts.upsertCell.pluck().get({
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

  private insertAttempts(cellId: number, runId: string, attempts: AttemptRecord[]): void {
    for (const a of attempts) {
      this.stmts.insertAttempt.run(
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

  /**
   * Coverage of a suite for some models, from the store alone: total = the sum over tests of
   * their repeats (a test's own `repeats`, else the model's) per model; pending = total - done - failed. With `runId`, `cached` counts done cells that run
   * did not call for (written earlier, or linked to a stored response); without, cells stored
   * with no call.
   */
  coverage(suiteHash: string, models: CoverageModel[], opts: { runId?: string } = {}): Coverage {
    const cov: Coverage = { total: 0, done: 0, failed: 0, pending: 0, cached: 0, errorsByKind: {} };
    for (const m of models) {
      cov.total += this.stmts.expectedCells
        .pluck()
        .get({ suite_hash: suiteHash, repeats: m.repeats }) as number;
      const rows = this.stmts.coverageRows.all({
        suite_hash: suiteHash,
        identity: m.identity,
        repeats: m.repeats,
        run_id: opts.runId ?? null,
      }) as { status: CellStatus; error_kind: string | null; n: number; cached: number }[];
      for (const r of rows) {
        if (r.status === 'done') {
          cov.done += r.n;
          cov.cached += r.cached;
        } else {
          cov.failed += r.n;
          const kind = r.error_kind ?? 'unknown';
          cov.errorsByKind[kind] = (cov.errorsByKind[kind] ?? 0) + r.n;
        }
      }
    }
    cov.pending = cov.total - cov.done - cov.failed;
    return cov;
  }

  /**
   * Cells matching the filter in a stable order: suite, model identity, test position in its
   * suite, repeat. The ids are read first and the rows a page at a time, so the order does not
   * depend on when each cell finished and the caller may write to the store while iterating.
   */
  *cells(filter: CellFilter = {}): Generator<StoredCell> {
    const { where, params } = cellWhere(filter);
    const ids = this.db
      .prepare(
        `SELECT c.id FROM cells c LEFT JOIN tests t ON t.suite_hash = c.suite_hash AND t.test_id = c.test_id
         WHERE 1${where} ORDER BY c.suite_hash, c.model_identity, coalesce(t.position, 1e18), c.test_id, c.repeat`,
      )
      .pluck()
      .all(params) as number[];
    const page = this.stmts.cellsByIds;
    for (let i = 0; i < ids.length; i += PAGE) {
      const chunk = ids.slice(i, i + PAGE);
      const rows = new Map((page.all(JSON.stringify(chunk)) as CellRow[]).map((r) => [r.id, r]));
      for (const id of chunk) {
        const row = rows.get(id);
        if (row) yield toCell(row); // gone only if deleted meanwhile
      }
    }
  }

  /** Every call made for a cell, oldest first (all runs). */
  attemptsOf(cellId: number): StoredAttempt[] {
    return (this.stmts.attemptsOf.all(cellId) as AttemptRow[]).map((a) => ({
      attempt: a.attempt,
      runId: a.run_id,
      startedAt: a.started_at,
      ...(a.latency_ms !== null ? { latencyMs: a.latency_ms } : {}),
      outcome: a.outcome,
      ...(a.message !== null ? { message: a.message } : {}),
      ...(a.status !== null ? { status: a.status } : {}),
    }));
  }

  /** A stored test of a suite. */
  getTest(suiteHash: string, testId: string): SuiteTest | undefined {
    const json = this.stmts.getTest.pluck().get(suiteHash, testId) as string | undefined;
    return json === undefined ? undefined : (JSON.parse(json) as SuiteTest);
  }
}

export function openStore(path: string): Store {
  return new Store(path);
}

function prepare(db: DB) {
  return {
    insertSuite: db.prepare('INSERT OR IGNORE INTO suites (hash, name, created_at) VALUES (?, ?, ?)'),
    insertTest: db.prepare(
      'INSERT OR IGNORE INTO tests (suite_hash, test_id, position, json) VALUES (?, ?, ?, ?)',
    ),
    hasSuite: db.prepare('SELECT 1 FROM suites WHERE hash = ?'),
    getSuite: db.prepare('SELECT hash, name FROM suites WHERE hash = ?'),
    getTests: db.prepare('SELECT json FROM tests WHERE suite_hash = ? ORDER BY position'),
    getTest: db.prepare('SELECT json FROM tests WHERE suite_hash = ? AND test_id = ?'),
    insertRun: db.prepare(
      'INSERT INTO runs (id, started_at, waver_version, config_json, suite_hash, status) VALUES (?, ?, ?, ?, ?, ?)',
    ),
    finishRun: db.prepare('UPDATE runs SET finished_at = ?, status = ? WHERE id = ?'),
    getRun: db.prepare('SELECT * FROM runs WHERE id = ?'),
    listRuns: db.prepare('SELECT * FROM runs ORDER BY started_at, rowid'),
    getResponse: db.prepare('SELECT * FROM responses WHERE key = ?'),
    responseKeys: db.prepare('SELECT key FROM responses WHERE identity = ?'),
    doneCells: db.prepare(
      "SELECT test_id, repeat, response_key FROM cells WHERE suite_hash = ? AND model_identity = ? AND status = 'done'",
    ),
    // A re-run with --no-cache overwrites the stored answer: the newest call is the one kept.
    upsertResponse: db.prepare(`
      INSERT INTO responses (key, identity, model, request_json, text, tokens_json, finish_reason, input_tokens,
                             output_tokens, latency_ms, response_model, created_at)
      VALUES (@key, @identity, @model, @request_json, @text, @tokens_json, @finish_reason, @input_tokens,
              @output_tokens, @latency_ms, @response_model, @created_at)
      ON CONFLICT (key) DO UPDATE SET
        text = excluded.text, tokens_json = excluded.tokens_json, finish_reason = excluded.finish_reason,
        input_tokens = excluded.input_tokens, output_tokens = excluded.output_tokens,
        latency_ms = excluded.latency_ms, response_model = excluded.response_model, created_at = excluded.created_at`),
    upsertCell: db.prepare(`
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
      RETURNING id`),
    insertAttempt: db.prepare(
      'INSERT INTO attempts (cell_id, run_id, attempt, started_at, latency_ms, outcome, message, status) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    ),
    cellsByIds: db.prepare(`${CELL_SELECT} WHERE c.id IN (SELECT value FROM json_each(?))`),
    attemptsOf: db.prepare('SELECT * FROM attempts WHERE cell_id = ? ORDER BY id'),
    coverageRows: db.prepare(`
      SELECT status, error_kind, count(*) AS n,
             sum(CASE WHEN status = 'done' AND (attempts = 0 OR (@run_id IS NOT NULL AND run_id != @run_id))
                      THEN 1 ELSE 0 END) AS cached
      FROM cells c JOIN tests t ON t.suite_hash = c.suite_hash AND t.test_id = c.test_id
      WHERE c.suite_hash = @suite_hash AND c.model_identity = @identity
        AND c.repeat < coalesce(json_extract(t.json, '$.repeats'), @repeats)
      GROUP BY status, error_kind`),
    expectedCells: db.prepare(`
      SELECT coalesce(sum(coalesce(json_extract(json, '$.repeats'), @repeats)), 0)
      FROM tests WHERE suite_hash = @suite_hash`),
  };
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

interface RunRow {
  id: string;
  started_at: string;
  finished_at: string | null;
  waver_version: string;
  config_json: string;
  suite_hash: string | null;
  status: string;
}

interface ResponseRow {
  key: string;
  identity: string;
  model: string;
  request_json: string;
  text: string;
  tokens_json: string | null;
  finish_reason: string;
  input_tokens: number;
  output_tokens: number;
  latency_ms: number | null;
  response_model: string | null;
  created_at: string;
}

interface AttemptRow {
  run_id: string;
  attempt: number;
  started_at: string;
  latency_ms: number | null;
  outcome: string;
  message: string | null;
  status: number | null;
}

function toRun(row: RunRow): RunRecord {
  return {
    id: row.id,
    startedAt: row.started_at,
    ...(row.finished_at !== null ? { finishedAt: row.finished_at } : {}),
    waverVersion: row.waver_version,
    config: JSON.parse(row.config_json),
    ...(row.suite_hash !== null ? { suiteHash: row.suite_hash } : {}),
    status: row.status,
  };
}

function toResponse(row: ResponseRow): StoredResponse {
  return {
    key: row.key,
    identity: row.identity,
    model: row.model,
    request: JSON.parse(row.request_json) as GenerateRequest,
    text: row.text,
    ...(row.tokens_json !== null ? { tokens: JSON.parse(row.tokens_json) as TokenLogprob[] } : {}),
    finishReason: row.finish_reason as FinishReason,
    usage: { inputTokens: row.input_tokens, outputTokens: row.output_tokens },
    ...(row.response_model !== null ? { responseModel: row.response_model } : {}),
    ...(row.latency_ms !== null ? { latencyMs: row.latency_ms } : {}),
    createdAt: row.created_at,
  };
}

function toCell(row: CellRow): StoredCell {
  const response =
    row.response_key !== null && row.r_request_json !== null
      ? toResponse({
          key: row.response_key,
          identity: row.r_identity as string,
          model: row.r_model as string,
          request_json: row.r_request_json,
          text: row.text as string,
          tokens_json: row.tokens_json,
          finish_reason: row.finish_reason as string,
          input_tokens: row.input_tokens as number,
          output_tokens: row.output_tokens as number,
          latency_ms: row.r_latency_ms,
          response_model: row.response_model,
          created_at: row.r_created_at as string,
        })
      : undefined;
  const requestJson = row.cell_request_json ?? row.r_request_json ?? '{"messages":[]}';
  return {
    id: row.id,
    suiteHash: row.suite_hash,
    testId: row.test_id,
    model: row.model,
    modelIdentity: row.model_identity,
    repeat: row.repeat,
    status: row.status,
    ...(row.response_key !== null ? { responseKey: row.response_key } : {}),
    request: JSON.parse(requestJson) as GenerateRequest,
    ...(response ? { response } : {}),
    ...(row.status === 'failed'
      ? {
          error: {
            kind: (row.error_kind ?? 'internal') as CellError['kind'],
            message: row.error_message ?? '',
            ...(row.error_status !== null ? { status: row.error_status } : {}),
          },
        }
      : {}),
    attempts: row.attempts,
    ...(row.cell_latency_ms !== null ? { latencyMs: row.cell_latency_ms } : {}),
    updatedAt: row.updated_at,
    runId: row.run_id,
  };
}

function now(): string {
  return new Date().toISOString();
}
