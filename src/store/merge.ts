import { existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type Database from 'better-sqlite3';
import { InputError } from '../errors.js';
import { pidAlive } from './leases.js';
import { openReader, openWriter } from './open.js';
import { MIGRATIONS } from './schema.js';

/**
 * `waver merge`: stores united into one (docs/decisions.md#e20-waver-merge-unites-stores-or-refuses).
 * Each source is attached to the output's connection and copied over in one transaction per source,
 * so SQLite does the copying; the output is written to a file beside it and renamed over it at the
 * end, so a conflict or a failure leaves nothing half-written.
 */

export interface MergedSource {
  path: string;
  /** Cells new to the output, and cells it held failed that this store had done (or failed later). */
  added: number;
  replaced: number;
  attempts: number;
  /** Aux results whose key the output already held with another result: the first one is kept. */
  auxKept: number;
}

export interface MergeOutcome {
  out: string;
  sources: MergedSource[];
  /** Cells in the output. */
  cells: number;
}

const CELL_KEY = `d.suite_hash = s.suite_hash AND d.model_identity = s.model_identity AND d.test_id = s.test_id
                  AND d.repeat = s.repeat`;

const CELL_COLUMNS = `suite_hash, test_id, model, model_identity, repeat, status, response_key, request_json,
  error_kind, error_message, error_status, attempts, latency_ms, updated_at, run_id`;

const RESPONSE_COLUMNS = `key, identity, model, request_json, text, tokens_json, finish_reason, input_tokens,
  output_tokens, latency_ms, response_model, created_at`;

const RUN_COLUMNS = 'id, started_at, finished_at, waver_version, config_json, suite_hash, status';

const BATCH_COLUMNS = `id, provider_id, input_ref, model_identity, suite_hash, run_id, state, requests,
  submitted_at, ended_at, note`;
const BATCH_CELL_COLUMNS = `batch_id, custom_id, suite_hash, model_identity, model, test_id, repeat, key,
  request_json`;
const STOPPED_COLUMNS = `run_id, suite_hash, model_identity, model, test_id, repeat, attempt, started_at,
  latency_ms, outcome, message, status`;

/**
 * Unites `sources` into `out` (which may exist: its contents are the first source then). A cell
 * done in two stores with different responses, or one response key with two different answers,
 * is an InputError naming the cell and both stores; nothing is written then.
 */
export function mergeStores(sources: readonly string[], out: string): MergeOutcome {
  if (sources.length === 0) throw new InputError('no store to merge: name one or more', { field: 'STORE' });
  const outPath = resolve(out);
  const seen = new Set<string>();
  for (const source of sources) {
    const path = resolve(source);
    if (path === outPath)
      throw new InputError('is both a source and --out: name another --out', { file: source });
    if (seen.has(path)) throw new InputError('is named twice', { file: source });
    seen.add(path);
    // Opened as a reader first, checked page by page whatever its size: a missing, damaged or
    // foreign file is refused in the usual words.
    const reader = openReader(source, 'always');
    try {
      const version = reader.pragma('user_version', { simple: true }) as number;
      if (version === 0)
        throw new InputError(
          'holds no waver store (an empty file, or one no waver wrote): nothing to merge',
          {
            file: source,
          },
        );
      if (version > MIGRATIONS.length)
        throw new InputError(
          `the store has schema version ${version}, newer than this waver knows (${MIGRATIONS.length}); upgrade waver`,
          { file: source },
        );
    } finally {
      reader.close();
    }
  }

  removeLeftovers(out);
  const partial = `${out}.merging-${process.pid}`;
  removeDatabase(partial);
  try {
    if (existsSync(out)) copyStore(out, partial);
    const db = openWriter(partial);
    const merged: MergedSource[] = [];
    let cells = 0;
    try {
      const before = existsSync(out) ? [out] : [];
      for (const source of sources) {
        merged.push(mergeOne(db, source, before));
        before.push(source);
      }
      cells = db.prepare('SELECT count(*) FROM cells').pluck().get() as number;
    } finally {
      db.close();
    }
    renameSync(partial, out);
    return { out, sources: merged, cells };
  } catch (e) {
    removeDatabase(partial);
    throw e;
  }
}

/** The output as it is, copied (a reader beside a writer copies a consistent snapshot). */
function copyStore(from: string, to: string): void {
  const db = openReader(from);
  try {
    // VACUUM INTO writes only the new file, which query_only refuses all the same.
    db.pragma('query_only = OFF');
    db.prepare('VACUUM INTO ?').run(to);
  } finally {
    db.close();
  }
}

/** What a merge killed mid-way (kill -9) left beside `out`: `OUT.merging-PID` of a process gone. */
function removeLeftovers(out: string): void {
  const dir = dirname(resolve(out));
  const prefix = `${basename(out)}.merging-`;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return; // no directory yet: nothing left in it
  }
  for (const name of names) {
    const pid = /^(\d+)(-wal|-shm|-journal)?$/.exec(name.slice(prefix.length))?.[1];
    if (!name.startsWith(prefix) || pid === undefined || pidAlive(Number(pid))) continue;
    rmSync(join(dir, name), { force: true });
  }
}

function removeDatabase(path: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${path}${suffix}`, { force: true });
}

/** Copies one store into the output; `before`: the stores already in it, for the conflicts' words. */
function mergeOne(db: Database.Database, source: string, before: readonly string[]): MergedSource {
  db.prepare('ATTACH DATABASE ? AS src').run(source);
  try {
    const has = (table: string) =>
      db.prepare(`SELECT 1 FROM src.sqlite_master WHERE type = 'table' AND name = ?`).get(table) !==
      undefined;
    return db
      .transaction((): MergedSource => {
        refuseConflicts(db, source, before);
        db.exec(`
          INSERT OR IGNORE INTO suites (hash, name, created_at) SELECT hash, name, created_at FROM src.suites;
          INSERT OR IGNORE INTO tests (suite_hash, test_id, position, json)
            SELECT suite_hash, test_id, position, json FROM src.tests;
          INSERT INTO runs (${RUN_COLUMNS}) SELECT ${RUN_COLUMNS} FROM src.runs WHERE true
            ON CONFLICT (id) DO UPDATE SET finished_at = excluded.finished_at, status = excluded.status
            WHERE runs.finished_at IS NULL AND excluded.finished_at IS NOT NULL;
          INSERT OR IGNORE INTO responses (${RESPONSE_COLUMNS}) SELECT ${RESPONSE_COLUMNS} FROM src.responses;`);
        const cellsBefore = db.prepare('SELECT count(*) FROM cells').pluck().get() as number;
        // A done cell wins over a failed one; of two failed, the later. Done twice is the same answer
        // (refuseConflicts), and the cell stays as it was.
        const written = db
          .prepare(
            `INSERT INTO cells (${CELL_COLUMNS}) SELECT ${CELL_COLUMNS} FROM src.cells WHERE true
             ON CONFLICT (suite_hash, model_identity, test_id, repeat) DO UPDATE SET
               model = excluded.model, status = excluded.status, response_key = excluded.response_key,
               request_json = excluded.request_json, error_kind = excluded.error_kind,
               error_message = excluded.error_message, error_status = excluded.error_status,
               attempts = excluded.attempts, latency_ms = excluded.latency_ms,
               updated_at = excluded.updated_at, run_id = excluded.run_id
             WHERE cells.status = 'failed' AND (excluded.status = 'done' OR excluded.updated_at > cells.updated_at)`,
          )
          .run().changes;
        const added = (db.prepare('SELECT count(*) FROM cells').pluck().get() as number) - cellsBefore;
        // Every call stays on record (docs/decisions.md E13): the tries of both stores, each once.
        const attempts = db
          .prepare(
            `INSERT INTO attempts (cell_id, run_id, attempt, started_at, latency_ms, outcome, message, status)
             SELECT d.id, a.run_id, a.attempt, a.started_at, a.latency_ms, a.outcome, a.message, a.status
             FROM src.attempts a JOIN src.cells s ON s.id = a.cell_id JOIN cells d ON ${CELL_KEY}
             WHERE NOT EXISTS (SELECT 1 FROM attempts x WHERE x.cell_id = d.id AND x.run_id = a.run_id
                                 AND x.attempt = a.attempt AND x.started_at = a.started_at)
             ORDER BY a.id`,
          )
          .run().changes;
        if (has('stopped_attempts'))
          db.exec(`
            INSERT INTO stopped_attempts (${STOPPED_COLUMNS}) SELECT ${STOPPED_COLUMNS} FROM src.stopped_attempts s
            WHERE NOT EXISTS (SELECT 1 FROM stopped_attempts d WHERE ${CELL_KEY} AND d.run_id = s.run_id
                                AND d.attempt = s.attempt AND d.started_at = s.started_at)
            ORDER BY s.id;`);
        // A shard's provider batches go with it: one still open is polled by a run on the merged
        // store instead of being submitted again (docs/batch.md#resume). Batch ids are waver's own.
        if (has('batches'))
          db.exec(`
            INSERT INTO batches (${BATCH_COLUMNS}) SELECT ${BATCH_COLUMNS} FROM src.batches WHERE true
              ON CONFLICT (id) DO UPDATE SET provider_id = coalesce(batches.provider_id, excluded.provider_id),
                state = excluded.state, ended_at = excluded.ended_at, note = excluded.note
              WHERE batches.state IN ('uploaded', 'submitted') AND excluded.state NOT IN ('uploaded', 'submitted');
            INSERT OR IGNORE INTO batch_cells (${BATCH_CELL_COLUMNS}) SELECT ${BATCH_CELL_COLUMNS} FROM src.batch_cells;`);
        let auxKept = 0;
        if (has('aux_results')) {
          auxKept = db
            .prepare(
              `SELECT count(*) FROM src.aux_results s JOIN aux_results d ON d.key = s.key
               WHERE d.result_json IS NOT s.result_json`,
            )
            .pluck()
            .get() as number;
          db.exec(`INSERT OR IGNORE INTO aux_results (key, kind, identity, request_json, result_json, created_at)
                   SELECT key, kind, identity, request_json, result_json, created_at FROM src.aux_results;`);
        }
        return { path: source, added, replaced: written - added, attempts, auxKept };
      })
      .immediate();
  } finally {
    db.prepare('DETACH DATABASE src').run();
  }
}

interface CellRow {
  suite_hash: string;
  name: string;
  model: string;
  test_id: string;
  repeat: number;
}

/**
 * The merged store could not hold both answers: a cell done in both with different response keys,
 * a response key answered differently (by text or finish reason; log-probs may differ in the last
 * digits between machines, and the first store's are kept), or one test id of a suite with two
 * different tests (a damaged store: a suite's hash covers its tests).
 */
function refuseConflicts(db: Database.Database, source: string, before: readonly string[]): void {
  const them = before.length === 1 ? before[0] : `one of ${before.join(', ')}`;
  const cell = db
    .prepare(
      `SELECT s.suite_hash, coalesce(su.name, '?') AS name, s.model, s.test_id, s.repeat,
              d.response_key AS theirs, s.response_key AS ours
       FROM src.cells s JOIN cells d ON ${CELL_KEY} LEFT JOIN suites su ON su.hash = s.suite_hash
       WHERE s.status = 'done' AND d.status = 'done' AND s.response_key IS NOT d.response_key LIMIT 1`,
    )
    .get() as (CellRow & { theirs: string; ours: string }) | undefined;
  if (cell)
    throw new InputError(
      `${describe(cell)} has two different responses: ${excerpt(db, 'src', cell.ours)} here, ` +
        `${excerpt(db, 'main', cell.theirs)} in ${them}; nothing was written`,
      { file: source },
    );
  const response = db
    .prepare(
      `SELECT s.key FROM src.responses s JOIN responses d ON d.key = s.key
       WHERE s.text IS NOT d.text OR s.finish_reason IS NOT d.finish_reason LIMIT 1`,
    )
    .pluck()
    .get() as string | undefined;
  if (response !== undefined) {
    const user = db
      .prepare(
        `SELECT s.suite_hash, coalesce(su.name, '?') AS name, s.model, s.test_id, s.repeat
         FROM src.cells s LEFT JOIN src.suites su ON su.hash = s.suite_hash WHERE s.response_key = ? LIMIT 1`,
      )
      .get(response) as CellRow | undefined;
    throw new InputError(
      `${user ? describe(user) : `response ${response.slice(0, 12)}`} has two different responses: ` +
        `${excerpt(db, 'src', response)} here, ${excerpt(db, 'main', response)} in ${them}; nothing was written`,
      { file: source },
    );
  }
  const test = db
    .prepare(
      `SELECT s.suite_hash, s.test_id FROM src.tests s JOIN tests d
         ON d.suite_hash = s.suite_hash AND d.test_id = s.test_id
       WHERE s.json IS NOT d.json LIMIT 1`,
    )
    .get() as { suite_hash: string; test_id: string } | undefined;
  if (test)
    throw new InputError(
      `test "${test.test_id}" of suite ${test.suite_hash.slice(0, 12)} differs from ${them}'s (a suite's hash covers its tests: one store is damaged); nothing was written`,
      { file: source },
    );
}

function describe(c: CellRow): string {
  return `cell (suite ${c.name} ${c.suite_hash.slice(0, 12)}, model ${c.model}, test "${c.test_id}", repeat ${c.repeat})`;
}

function excerpt(db: Database.Database, schema: 'src' | 'main', key: string): string {
  const text = db.prepare(`SELECT text FROM ${schema}.responses WHERE key = ?`).pluck().get(key) as
    | string
    | undefined;
  if (text === undefined) return '(no response stored)';
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 79)}…` : text);
}
