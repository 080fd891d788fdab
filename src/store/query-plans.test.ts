import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { GenerateRequest } from '../domain/calls.js';
import type { Suite } from '../domain/suites.js';
import { cacheKey } from '../run/cache-key.js';
import { connectionOf } from '../test-support/store/connection.js';
import { openStore, type Store } from './store.js';

/**
 * Every statement the viewer, the report, `waver check`, `waver export` and a shard's coverage run is planned along
 * an index: none reads the cells, tests, responses or attempts of the whole store, except the few
 * listed below with why (docs/decisions.md E16). And the cell counts the triggers keep equal the
 * cells themselves, through inserts, overwrites and a status that changes.
 */

/** Statements read whole tables on purpose: each is about every row it reads. */
const WHOLE_READS: { sql: RegExp; why: string }[] = [
  {
    sql: /^SELECT suite_hash, sum\(coalesce\(json_extract\(json, '\$\.repeats'\)/,
    why: "the report's coverage table: the expected cells of every suite, one pass over the tests",
  },
  {
    sql: /^\s*SELECT c\.id FROM cells c LEFT JOIN tests t[\s\S]*WHERE 1 ORDER BY/,
    why: '`waver export` with no filter: every cell of the store, in order',
  },
];

/** The names a statement gives the large tables (the tables themselves, and their aliases). */
function bigNames(sql: string): Set<string> {
  const names = new Set(['cells', 'tests', 'responses', 'attempts']);
  for (const m of sql.matchAll(/\b(?:cells|tests|responses|attempts)\s+(?:AS\s+)?([a-z][a-z0-9_]*)\b/gi))
    if (!/^(WHERE|ON|JOIN|LEFT|GROUP|ORDER|LIMIT|USING)$/i.test(m[1] as string)) names.add(m[1] as string);
  return names;
}

/** A step of a plan that reads a large table whole (a scan of the failed cells' index reads those only). */
function readsWhole(detail: string, names: Set<string>): boolean {
  const m = /^SCAN (\S+)(.*)$/.exec(detail);
  return (
    m !== null && names.has(m[1] as string) && !/USING (COVERING )?INDEX cells_failed/.test(m[2] as string)
  );
}

type Recorded = Map<string, unknown[]>;

/** Records each statement the store prepares and the arguments of its first run. */
function recording(store: Store): Recorded {
  const db = connectionOf(store);
  const seen: Recorded = new Map();
  const prepare = db.prepare.bind(db);
  const runners = new Set(['all', 'get', 'iterate', 'run']);
  const modes = new Set(['raw', 'pluck', 'expand']);
  db.prepare = ((sql: string) => {
    const statement = prepare(sql);
    const proxy: Database.Statement = new Proxy(statement, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver);
        if (typeof prop !== 'string' || typeof value !== 'function') return value;
        if (runners.has(prop))
          return (...args: unknown[]) => {
            if (!seen.has(sql)) seen.set(sql, args);
            return value.apply(target, args);
          };
        if (modes.has(prop))
          return (...args: unknown[]) => {
            value.apply(target, args);
            return proxy;
          };
        return value.bind(target);
      },
    });
    return proxy;
  }) as typeof db.prepare;
  return seen;
}

const suite: Suite = {
  name: 'prompts.jsonl',
  hash: 'a'.repeat(64),
  tests: [
    { id: 't1', prompt: 'one' },
    { id: 't2', prompt: 'two', repeats: 2 },
    { id: 't3', prompt: 'three', meta: { family: 'SV' } },
  ],
};
const req = (prompt: string): GenerateRequest => ({ messages: [{ role: 'user', content: prompt }] });
const result = { text: 'yes', finishReason: 'stop' as const, usage: { inputTokens: 1, outputTokens: 1 } };

/** Two models, done and failed cells, one linked to a stored answer, over two runs. */
function filled(store: Store): { run2: string } {
  store.suites.save(suite);
  const run1 = store.runs.begin({ suiteHash: suite.hash, config: { models: ['a', 'b'] }, waverVersion: 't' });
  const ref = (model: string, testId: string, repeat: number, runId: string) => ({
    suiteHash: suite.hash,
    testId,
    model,
    modelIdentity: `replay:${model}`,
    repeat,
    runId,
  });
  const done = (model: string, testId: string, repeat: number, runId: string) => ({
    kind: 'done' as const,
    cell: {
      ...ref(model, testId, repeat, runId),
      key: cacheKey(`replay:${model}`, req(testId), repeat),
      request: req(testId),
      result,
      attempts: [{ attempt: 1, startedAt: 'now', outcome: 'ok' }],
    },
  });
  const failed = (model: string, testId: string, repeat: number, runId: string) => ({
    kind: 'failed' as const,
    cell: {
      ...ref(model, testId, repeat, runId),
      request: req(testId),
      error: { kind: 'server' as const, message: 'HTTP 500', status: 500 },
      attempts: [{ attempt: 1, startedAt: 'now', outcome: 'server' }],
    },
  });
  store.cells.write([done('a', 't1', 0, run1), done('a', 't2', 0, run1), failed('a', 't2', 1, run1)]);
  store.cells.write([done('b', 't1', 0, run1), failed('b', 't3', 0, run1)]);
  store.runs.finish(run1, 'incomplete');
  const run2 = store.runs.begin({ suiteHash: suite.hash, config: { models: ['a'] }, waverVersion: 't' });
  // The failed cell done again, and a cell linked to a stored answer.
  store.cells.write([
    done('a', 't2', 1, run2),
    failed('a', 't3', 0, run2),
    {
      kind: 'cached',
      cells: [{ ...ref('b', 't2', 0, run2), key: cacheKey('replay:a', req('t2'), 0) }],
    },
  ]);
  return { run2 };
}

describe('query plans', () => {
  it('the viewer, report, check and export read along indexes', () => {
    const store = openStore(':memory:');
    const seen = recording(store);
    const { run2 } = filled(store);
    seen.clear(); // the writes are the engine's, planned by their keys
    const identity = 'replay:a';
    // The viewer: progress, the runs listing, transcript pages.
    store.hasSchema();
    store.runs.latest(20);
    store.coverage.expected(suite.hash, 2);
    store.coverage.modelStatusCounts(suite.hash, run2, 2);
    store.runs.withCells();
    store.coverage.cellTotals();
    store.coverage.cellTotals(suite.hash);
    store.suites.models(suite.hash);
    store.cells.page({ suiteHash: suite.hash, limit: 50 });
    store.cells.page({ suiteHash: suite.hash, modelIdentity: identity, status: 'done', limit: 50 });
    store.cells.page({ suiteHash: suite.hash, status: 'failed', limit: 50 });
    store.cells.page({
      suiteHash: suite.hash,
      search: 'yes',
      after: { modelIdentity: identity, testId: 't1', repeat: 0 },
      limit: 50,
    });
    // The report.
    store.runs.list();
    store.suites.list();
    store.coverage.everySuite({ [suite.hash]: 2 });
    store.cells.failureGroups();
    store.suites.get(suite.hash);
    store.cells.light(suite.hash);
    store.cells.forScoring(suite.hash);
    store.cells.ofRepeat(suite.hash, identity, 0);
    for (const { cell } of store.cells.withTests(suite.hash, [identity]))
      if (cell.responseKey) store.responses.text(cell.responseKey);
    store.aux.get('k');
    // waver check.
    store.suites.withCellsNamed(suite.name);
    store.suites.byPrefix('aaaaaaaa');
    store.suites.name(suite.hash);
    store.suites.modelLabels();
    store.suites.modelLabels(suite.hash);
    store.coverage.byModel(suite.hash, 2);
    store.coverage.of(suite.hash, [{ identity, repeats: 2 }], { runId: run2 });
    // A shard's run: its coverage, failures and stored cells (docs/decisions.md E19).
    const shard = { index: 2, count: 3 };
    store.coverage.of(suite.hash, [{ identity, repeats: 2 }], { runId: run2, shard });
    store.coverage.failedKinds(suite.hash, identity, 2, shard);
    store.coverage.doneCount(suite.hash, identity, shard);
    // waver export.
    for (const c of store.cells.all({ suiteHash: suite.hash, model: 'a' })) {
      store.suites.test(c.suiteHash, c.testId);
      store.attempts.of(c.id);
    }
    [...store.cells.all()];

    const db = connectionOf(store);
    const whole: string[] = [];
    const unplanned: string[] = [];
    expect(seen.size).toBeGreaterThan(25);
    for (const [sql, args] of seen) {
      if (!/^\s*(SELECT|WITH)\b/i.test(sql)) continue;
      const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as { detail: string }[]).map(
        (r) => r.detail,
      );
      const names = bigNames(sql);
      if (!plan.some((d) => readsWhole(d, names))) continue;
      if (WHOLE_READS.some((w) => w.sql.test(sql))) whole.push(sql);
      else unplanned.push(`${sql.trim()}\n  -> ${plan.join(' | ')}`);
    }
    expect(unplanned).toEqual([]);
    expect(whole).toHaveLength(WHOLE_READS.length);
    store.close();
  });

  it('the partial index of failed cells serves the failures and the failed filter', () => {
    const store = openStore(':memory:');
    filled(store);
    const plan = (sql: string) =>
      (connectionOf(store).prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[])
        .map((r) => r.detail)
        .join(' | ');
    expect(plan("SELECT count(*) FROM cells WHERE suite_hash = 'x' AND status = 'failed'")).toContain(
      'cells_failed',
    );
    store.close();
  });

  it("orders cells by their tests' positions without reading the tests' JSON", () => {
    const store = openStore(':memory:');
    const seen = recording(store);
    filled(store);
    seen.clear();
    [...store.cells.all({ suiteHash: suite.hash })];
    store.cells.light(suite.hash);
    const db = connectionOf(store);
    const joins = [...seen].filter(([sql]) => /\btests\b/.test(sql));
    expect(joins).toHaveLength(2);
    for (const [sql, args] of joins) {
      const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as { detail: string }[]).map(
        (r) => r.detail,
      );
      // The key of `tests` holds whole rows: a lookup there reads each test's JSON.
      expect(plan.join(' | ')).toMatch(/COVERING INDEX tests_key/);
    }
    store.close();
  });
});

describe('cell counts', () => {
  it('equal the cells, however they were written', () => {
    const store = openStore(':memory:');
    filled(store);
    const db = connectionOf(store);
    const fromCells = db
      .prepare(
        `SELECT suite_hash, model_identity, model, status, coalesce(error_kind, ''), repeat, run_id,
                attempts = 0, count(*) FROM cells GROUP BY 1, 2, 3, 4, 5, 6, 7, 8 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8`,
      )
      .raw()
      .all();
    const counted = db
      .prepare(
        `SELECT suite_hash, model_identity, model, status, error_kind, repeat, run_id, stored, sum(n)
         FROM cell_counts GROUP BY 1, 2, 3, 4, 5, 6, 7, 8 HAVING sum(n) > 0 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8`,
      )
      .raw()
      .all();
    expect(counted).toEqual(fromCells);
    expect(counted.length).toBeGreaterThan(4);
    // t2 sets its own repeats (2); the others take the run's.
    expect(
      db.prepare('SELECT DISTINCT test_repeats FROM cell_counts WHERE n > 0 ORDER BY 1').pluck().all(),
    ).toEqual([0, 2]);
    store.close();
  });
});

describe('a store of schema 2, opened read-only', () => {
  it('answers coverage, progress, listings and its cells as a migrated one does', () => {
    const dir = mkdtempSync(join(tmpdir(), 'waver-schema2-'));
    try {
      const path = join(dir, 'store.db');
      const writer = openStore(path);
      const { run2 } = filled(writer);
      const ask = (s: Store) => ({
        coverage: s.coverage.of(suite.hash, [{ identity: 'replay:a', repeats: 2 }], { runId: run2 }),
        every: s.coverage.everySuite({ [suite.hash]: 1 }),
        byModel: s.coverage.byModel(suite.hash, 1),
        progress: s.coverage.modelStatusCounts(suite.hash, run2, 1),
        runs: s.runs.withCells().map((r) => r.cells),
        models: s.suites.models(suite.hash),
        cells: [...s.cells.withTests(suite.hash, ['replay:a', 'replay:b'])],
      });
      const migrated = ask(writer);
      const ordered = [...writer.cells.all({ suiteHash: suite.hash })];
      const light = writer.cells.light(suite.hash);
      connectionOf(writer).exec(`
        DROP TRIGGER cell_counts_insert; DROP TRIGGER cell_counts_update; DROP TRIGGER cell_counts_delete;
        DROP TABLE cell_counts; DROP INDEX tests_position; DROP INDEX cells_failed; DROP INDEX tests_key;
        PRAGMA user_version = 2;`);
      writer.close();
      const reader = openStore(path, { readonly: true });
      expect(reader.schemaVersion).toBe(2);
      expect(ask(reader)).toEqual(migrated);
      // Without the tests' position index: ordered as a migrated store orders them.
      expect([...reader.cells.all({ suiteHash: suite.hash })]).toEqual(ordered);
      expect(reader.cells.light(suite.hash)).toEqual(light);
      reader.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
