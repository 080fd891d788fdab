import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { GenerateRequest } from '../domain/calls.js';
import type { Suite } from '../domain/suites.js';
import { InputError } from '../errors.js';
import { cacheKey } from '../run/cache-key.js';
import { connectionOf } from '../test-support/store/connection.js';
import { damageTable } from '../test-support/store/damaged-store.js';
import { applyMigrations, MIGRATIONS, openStore, readStore, type Store, storeFailure } from './store.js';

const dirs: string[] = [];
function tempDb(): string {
  const dir = mkdtempSync(join(tmpdir(), 'waver-store-'));
  dirs.push(dir);
  return join(dir, 'nested', 'deeper', 'store.db');
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const suite: Suite = {
  name: 'tiny.jsonl',
  hash: 'a'.repeat(64),
  tests: [
    { id: 't1', prompt: 'Say hi', system: 'Be brief.' },
    { id: 't2', prompt: 'Say bye', meta: { family: 'SV', level: 2 } },
    { id: 't3', prompt: 'Count' },
  ],
};
const identity = 'openai:m@http://127.0.0.1:1/v1';
const req = (prompt: string): GenerateRequest => ({
  messages: [{ role: 'user', content: prompt }],
  temperature: 0,
});

function seed(store: Store): string {
  store.suites.save(suite);
  return store.runs.begin({ suiteHash: suite.hash, config: { models: ['m'] }, waverVersion: '0.1.0' });
}

describe('openStore', () => {
  it('creates parent directories, sets WAL and NORMAL sync, and records the schema version', () => {
    const path = tempDb();
    const store = openStore(path);
    const db = connectionOf(store);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('synchronous', { simple: true })).toBe(1); // NORMAL
    expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
    expect(store.schemaVersion).toBe(MIGRATIONS.length);
    store.close();
  });

  it('opens an existing store again without migrating twice or losing data', () => {
    const path = tempDb();
    const a = openStore(path);
    const runId = seed(a);
    a.close();
    const b = openStore(path);
    expect(b.schemaVersion).toBe(MIGRATIONS.length);
    expect(b.suites.get(suite.hash)).toEqual(suite);
    expect(b.runs.list().map((r) => r.id)).toEqual([runId]);
    b.close();
  });

  it('runs a later migration once, and refuses a store from a newer waver', () => {
    const path = tempDb();
    openStore(path).close();
    const db = new Database(path);
    let ran = 0;
    const next = [
      ...MIGRATIONS,
      (d: Database.Database) => {
        ran++;
        d.exec('ALTER TABLE runs ADD COLUMN note TEXT');
      },
    ];
    expect(applyMigrations(db, next)).toBe(MIGRATIONS.length + 1);
    expect(applyMigrations(db, next)).toBe(MIGRATIONS.length + 1);
    expect(ran).toBe(1);
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length + 1);
    db.close();
    expect(() => openStore(path)).toThrow(/newer than this waver knows/);
  });

  it('takes no write lock on a store already at its version: a writer opens while another writes', () => {
    const path = tempDb();
    openStore(path).close();
    const busy = new Database(path);
    busy.exec('BEGIN IMMEDIATE');
    const db = new Database(path);
    db.pragma('busy_timeout = 0');
    try {
      expect(applyMigrations(db)).toBe(MIGRATIONS.length);
    } finally {
      db.close();
      busy.exec('ROLLBACK');
      busy.close();
    }
  });
});

describe('openStore read-only', () => {
  it('reads what a writer commits, refuses writes, and leaves no -wal or -shm file behind', () => {
    const path = tempDb();
    const writer = openStore(path);
    const reader = openStore(path, { readonly: true });
    expect(reader.hasSchema()).toBe(true);
    expect(reader.runs.list()).toEqual([]);
    const runId = seed(writer);
    expect(reader.runs.latest(5).map((r) => [r.id, r.suiteName])).toEqual([[runId, suite.name]]);
    expect(() => reader.runs.finish(runId, 'complete')).toThrow(/readonly/);
    expect(() => reader.suites.save({ ...suite, hash: 'b'.repeat(64) })).toThrow(/readonly/);
    writer.close();
    expect(reader.suites.get(suite.hash)).toEqual(suite);
    reader.close();
    expect(readdirSync(dirname(path))).toEqual(['store.db']);
  });

  it('needs the file, and opens one the writer has not made tables in yet', () => {
    const path = tempDb();
    expect(() => openStore(path, { readonly: true })).toThrow();
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, '');
    const reader = openStore(path, { readonly: true });
    expect(reader.hasSchema()).toBe(false);
    reader.close();
  });
});

describe('openStore refuses what is not a waver store', () => {
  it('a file that is not SQLite, for writing and for reading, naming it and leaving it as it was', () => {
    const path = tempDb();
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, 'plain text, not a database\n'.repeat(50));
    const before = readFileSync(path);
    for (const readonly of [false, true]) {
      const e = (() => {
        try {
          openStore(path, { readonly });
        } catch (x) {
          return x as InputError;
        }
      })();
      expect(e).toBeInstanceOf(InputError);
      expect(e?.format()).toBe(
        `${path}: not a SQLite database, so not a waver store (file is not a database)`,
      );
    }
    expect(readFileSync(path).equals(before)).toBe(true);
    expect(readdirSync(dirname(path))).toEqual(['store.db']);
  });

  it('a SQLite file with tables of its own: never migrated, switched to WAL or written', () => {
    const path = tempDb();
    mkdirSync(dirname(path), { recursive: true });
    const other = new Database(path);
    other.exec('CREATE TABLE cells (x); CREATE TABLE notes (y)');
    other.close();
    expect(() => openStore(path)).toThrow(/not a waver store \(its tables are cells, notes\)/);
    expect(() => openStore(path, { readonly: true })).toThrow(/not a waver store/);
    const after = new Database(path, { readonly: true });
    expect(after.pragma('journal_mode', { simple: true })).toBe('delete');
    expect(after.pragma('user_version', { simple: true })).toBe(0);
    after.close();
  });

  it('an empty SQLite file becomes a store', () => {
    const path = tempDb();
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, '');
    const store = openStore(path);
    expect(store.hasSchema()).toBe(true);
    store.close();
  });
});

describe('a damaged store, read', () => {
  /** A store with cells, its cells' page then overwritten with noise; its path. */
  function damaged(): string {
    const path = tempDb();
    const store = openStore(path);
    const runId = seed(store);
    for (const t of suite.tests)
      store.cells.saveDone({
        suiteHash: suite.hash,
        testId: t.id,
        model: 'm',
        modelIdentity: identity,
        repeat: 0,
        runId,
        request: req(t.prompt),
        key: cacheKey(identity, req(t.prompt), 0),
        result: { text: 'ok', usage: { inputTokens: 1, outputTokens: 1 }, finishReason: 'stop' },
        attempts: [],
      });
    store.close();
    damageTable(path, 'cells');
    return path;
  }
  const refusal = (path: string) =>
    new RegExp(
      `^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: the store is damaged \\(database disk image is malformed: .+\\); restore it from a copy$`,
    );

  it('is refused as a reader opens it, naming the file, whatever it then reads', () => {
    const path = damaged();
    for (const check of [undefined, 'always'] as const) {
      let e: unknown;
      try {
        readStore(path, (s) => s.coverage.expected(suite.hash, 1), check);
      } catch (x) {
        e = x;
      }
      expect(e).toBeInstanceOf(InputError);
      expect((e as InputError).format()).toMatch(refusal(path));
    }
  });

  it('unchecked (a store too large to check), the page met is an InputError naming the file all the same', async () => {
    const path = damaged();
    expect(() => readStore(path, (s) => [...s.cells.all()], 'never')).toThrow(
      new InputError('the store is damaged; restore it from a copy (database disk image is malformed)', {
        file: path,
      }),
    );
    await expect(readStore(path, async (s) => [...s.cells.all()], 'never')).rejects.toThrow(
      /the store is damaged; restore it from a copy/,
    );
    // Each closed its connection: the file is left as the damage left it, nothing beside it.
    expect(readdirSync(dirname(path))).toEqual(['store.db']);
  });
});

describe('cell leases', () => {
  const chunk = (n: number, modelIdentity = identity) => ({ suiteHash: suite.hash, modelIdentity, chunk: n });
  const me = { owner: 'me', pid: 100, host: 'here', startedMs: 0 };
  const other = { owner: 'other', pid: 200, host: 'here', startedMs: 0 };
  const alive = () => true;

  it('one holder a chunk; expired, or of a dead pid of this host, it is taken over; renewal says what is still held', () => {
    const store = openStore(tempDb());
    const at = (now: number, isAlive = alive) => ({ now: () => now, isAlive, ttlMs: 30_000 });
    expect(store.leases.claim(chunk(0), me, at(1_000))).toBe('claimed');
    expect(store.leases.claim(chunk(0), me, at(2_000))).toBe('claimed');
    expect(store.leases.claim(chunk(0), other, at(20_000))).toBe('held');
    // Another chunk, or the same chunk of another model, is another lease.
    expect(store.leases.claim(chunk(1), other, at(20_000))).toBe('claimed');
    expect(store.leases.claim(chunk(0, 'gguf:x'), other, at(20_000))).toBe('claimed');
    // Renewed, it stays; not renewed within the time to live, it is taken over.
    expect(store.leases.renew('me', 25_000, 30_000)).toEqual([chunk(0)]);
    expect(store.leases.claim(chunk(0), other, at(55_000))).toBe('held');
    expect(store.leases.claim(chunk(0), other, at(55_001))).toBe('claimed');
    expect(store.leases.renew('me', 56_000, 30_000)).toEqual([]);
    // A holder of this host whose process is gone is taken over at once; one of another host is not.
    expect(
      store.leases.claim(
        chunk(0),
        me,
        at(56_000, () => false),
      ),
    ).toBe('claimed');
    const remote = { owner: 'remote', pid: 300, host: 'elsewhere', startedMs: 0 };
    expect(store.leases.claim(chunk(2), remote, at(0))).toBe('claimed');
    expect(
      store.leases.claim(
        chunk(2),
        me,
        at(1_000, () => false),
      ),
    ).toBe('held');
    store.close();
  });

  it('a finished chunk is done for the workers started before it, and free again for later ones; a released one is free', () => {
    const store = openStore(tempDb());
    const opts = { now: () => 10_000, isAlive: alive };
    expect(store.leases.claim(chunk(0), me, opts)).toBe('claimed');
    expect(store.leases.claim(chunk(1), me, opts)).toBe('claimed');
    store.leases.finish('me', 10_000);
    expect(store.leases.claim(chunk(0), other, opts)).toBe('finished');
    expect(store.leases.claim(chunk(0), { ...other, startedMs: 10_001 }, opts)).toBe('claimed');
    expect(store.leases.claim(chunk(2), me, opts)).toBe('claimed');
    store.leases.release('me');
    expect(store.leases.claim(chunk(2), other, opts)).toBe('claimed');
    // A finished chunk is not released.
    expect(store.leases.claim(chunk(1), other, opts)).toBe('finished');
    store.close();
  });

  it('the real pid check sees this process alive', () => {
    const store = openStore(tempDb());
    expect(store.leases.claim(chunk(0), { ...me, pid: process.pid })).toBe('claimed');
    expect(store.leases.claim(chunk(0), other)).toBe('held');
    store.close();
  });
});

describe('Store.transaction', () => {
  it('commits its writes together, or none when it throws', () => {
    const store = openStore(':memory:');
    const runId = seed(store);
    expect(() =>
      store.transaction(() => {
        store.runs.finish(runId, 'complete');
        throw new Error('stop');
      }),
    ).toThrow('stop');
    expect(store.runs.get(runId)?.status).toBe('running');
    const value = store.transaction(() => {
      store.runs.finish(runId, 'complete');
      return 7;
    });
    expect(value).toBe(7);
    expect(store.runs.get(runId)?.status).toBe('complete');
    store.close();
  });
});

describe('store round trip', () => {
  it('keeps suites, runs (without secrets), responses, cells and every attempt', () => {
    const path = tempDb();
    const store = openStore(path);
    store.suites.save(suite); // twice is fine
    const runId = store.runs.begin({
      suiteHash: suite.hash,
      config: {
        models: [{ spec: 'openai:m', apiKey: 'sk-SENTINEL' }],
        headers: { Authorization: 'Bearer x' },
      },
      waverVersion: '0.1.0',
    });
    const k1 = cacheKey(identity, req('Say hi'), 0);
    store.cells.saveDone({
      suiteHash: suite.hash,
      testId: 't1',
      model: 'm',
      modelIdentity: identity,
      repeat: 0,
      runId,
      key: k1,
      request: req('Say hi'),
      result: {
        text: 'hi',
        tokens: [{ token: 'hi', logprob: -0.1, entropy: 0.5, top: [{ token: 'hi', logprob: -0.1 }] }],
        finishReason: 'stop',
        usage: { inputTokens: 3, outputTokens: 1 },
        responseModel: 'm-2024',
      },
      latencyMs: 12.5,
      attempts: [
        {
          attempt: 1,
          startedAt: '2024-01-01T00:00:00.000Z',
          latencyMs: 3,
          outcome: 'server',
          message: '500',
          status: 500,
        },
        { attempt: 2, startedAt: '2024-01-01T00:00:01.000Z', latencyMs: 12.5, outcome: 'ok' },
      ],
    });
    store.cells.saveFailed({
      suiteHash: suite.hash,
      testId: 't2',
      model: 'm',
      modelIdentity: identity,
      repeat: 0,
      runId,
      request: req('Say bye'),
      error: { kind: 'auth', message: 'invalid key', status: 401 },
      attempts: [
        {
          attempt: 1,
          startedAt: '2024-01-01T00:00:00.000Z',
          outcome: 'auth',
          message: 'invalid key',
          status: 401,
        },
      ],
    });
    store.runs.finish(runId, 'incomplete');

    const run = store.runs.get(runId);
    expect(run?.status).toBe('incomplete');
    expect(run?.finishedAt).toBeDefined();
    expect(run?.config).toEqual({ models: [{ spec: 'openai:m' }], headers: {} });

    const r = store.responses.get(k1);
    expect(r).toMatchObject({ text: 'hi', finishReason: 'stop', usage: { inputTokens: 3, outputTokens: 1 } });
    expect(r?.tokens?.[0]?.top?.[0]?.token).toBe('hi');
    expect(r?.request).toEqual(req('Say hi'));

    const cells = [...store.cells.all({ suiteHash: suite.hash })];
    expect(cells.map((c) => [c.testId, c.status])).toEqual([
      ['t1', 'done'],
      ['t2', 'failed'],
    ]);
    const [done, failed] = cells;
    expect(done?.response?.text).toBe('hi');
    expect(done?.attempts).toBe(2);
    expect(failed?.error).toEqual({ kind: 'auth', message: 'invalid key', status: 401 });
    expect(failed?.request).toEqual(req('Say bye'));
    expect(store.attempts.of(done?.id as number).map((a) => a.outcome)).toEqual(['server', 'ok']);
    expect([...store.cells.all({ status: 'failed' })]).toHaveLength(1);
    expect([...store.cells.all({ runId: 'nope' })]).toHaveLength(0);

    expect(store.cells.doneKey(suite.hash, identity, 't1', 0)).toBe(k1);
    expect(store.cells.doneKey(suite.hash, identity, 't1', 1)).toBeUndefined();
    expect(store.coverage.doneCount(suite.hash, identity)).toBe(1);
    expect(store.responses.has(k1)).toBe(true);
    expect(store.responses.has('0'.repeat(64))).toBe(false);
    store.close();
    expect(readFileSync(path).includes('sk-SENTINEL')).toBe(false);
  });

  it("forScoring reads what `all` holds of each cell, its request's cap and first system prompt taken out by SQLite", () => {
    const store = openStore(tempDb());
    const runId = seed(store);
    const ref = (testId: string) => ({
      suiteHash: suite.hash,
      testId,
      model: 'm',
      modelIdentity: identity,
      repeat: 0,
      runId,
    });
    const at = '2024-01-01T00:00:00.000Z';
    // t1: a system prompt after a user turn and a cap; t2: failed, with its own request; t3: from the cache, no system.
    const late: GenerateRequest = {
      messages: [
        { role: 'user', content: 'Say hi' },
        { role: 'system', content: 'Be brief.' },
        { role: 'system', content: 'second' },
      ],
      maxTokens: 64,
    };
    store.cells.saveDone({
      ...ref('t1'),
      key: cacheKey(identity, late, 0),
      request: late,
      result: { text: 'hi', finishReason: 'length', usage: { inputTokens: 1, outputTokens: 64 } },
      attempts: [{ attempt: 1, startedAt: at, outcome: 'ok' }],
    });
    store.cells.saveFailed({
      ...ref('t2'),
      request: { messages: [{ role: 'system', content: 'Answer A-D.' }], maxTokens: 8 },
      error: { kind: 'server', message: 'boom', status: 500 },
      attempts: [{ attempt: 1, startedAt: at, outcome: 'server', message: 'boom', status: 500 }],
    });
    const cached = cacheKey(identity, req('Count'), 0);
    store.cells.saveDone({
      ...ref('t3'),
      key: cached,
      request: req('Count'),
      result: { text: '3', finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 1 } },
      attempts: [],
    });
    const read = store.cells.forScoring(suite.hash);
    const whole = [...store.cells.all({ suiteHash: suite.hash })];
    expect(read.map((c) => c.testId)).toEqual(whole.map((c) => c.testId));
    read.forEach((c, i) => {
      const w = whole[i];
      expect(c).toMatchObject({ status: w?.status, repeat: w?.repeat, attempts: w?.attempts });
      expect(c.text).toBe(w?.response?.text);
      expect(c.finishReason).toBe(w?.response?.finishReason);
      expect(c.error).toEqual(w?.error);
      expect(c.maxTokens).toBe(w?.request.maxTokens);
      expect(c.system).toBe(w?.request.messages.find((m) => m.role === 'system')?.content);
    });
    expect(read.map((c) => [c.system, c.maxTokens, c.attempts])).toEqual([
      ['Be brief.', 64, 1],
      ['Answer A-D.', 8, 1],
      [undefined, undefined, 0],
    ]);
    store.close();
  });

  it('a failed cell done later is overwritten in place; attempts of both runs are kept', () => {
    const store = openStore(tempDb());
    const run1 = seed(store);
    const ref = { suiteHash: suite.hash, testId: 't1', model: 'm', modelIdentity: identity, repeat: 0 };
    const at = '2024-01-01T00:00:00.000Z';
    store.cells.saveFailed({
      ...ref,
      runId: run1,
      request: req('Say hi'),
      error: { kind: 'timeout', message: 'no answer' },
      attempts: [{ attempt: 1, startedAt: at, outcome: 'timeout', message: 'no answer' }],
    });
    const run2 = store.runs.begin({ suiteHash: suite.hash, config: {}, waverVersion: '0.1.0' });
    const key = cacheKey(identity, req('Say hi'), 0);
    store.cells.saveDone({
      ...ref,
      runId: run2,
      key,
      request: req('Say hi'),
      result: { text: 'hi', finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 1 } },
      attempts: [{ attempt: 1, startedAt: at, outcome: 'ok' }],
    });
    const cells = [...store.cells.all()];
    expect(cells).toHaveLength(1);
    expect(cells[0]).toMatchObject({ status: 'done', runId: run2, responseKey: key });
    expect(cells[0]?.error).toBeUndefined();
    expect(store.attempts.of(cells[0]?.id as number).map((a) => [a.runId, a.outcome])).toEqual([
      [run1, 'timeout'],
      [run2, 'ok'],
    ]);
    store.close();
  });

  it('counts coverage per model from the store alone', () => {
    const store = openStore(tempDb());
    const run1 = seed(store);
    const ref = (testId: string, repeat: number) => ({
      suiteHash: suite.hash,
      testId,
      model: 'm',
      modelIdentity: identity,
      repeat,
    });
    const done = (testId: string, repeat: number, runId: string) =>
      store.cells.saveDone({
        ...ref(testId, repeat),
        runId,
        key: cacheKey(identity, req(testId), repeat),
        request: req(testId),
        result: { text: 'x', finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 1 } },
        attempts: [{ attempt: 1, startedAt: 'now', outcome: 'ok' }],
      });
    done('t1', 0, run1);
    done('t1', 1, run1);
    const run2 = store.runs.begin({ suiteHash: suite.hash, config: {}, waverVersion: '0.1.0' });
    done('t2', 0, run2);
    store.cells.saveFailed({
      ...ref('t3', 0),
      runId: run2,
      request: req('t3'),
      error: { kind: 'rate_limit', message: '429', status: 429 },
      attempts: [],
    });
    store.cells.saveCached([{ ...ref('t3', 1), runId: run2, key: cacheKey(identity, req('t1'), 0) }]);

    const cov = store.coverage.of(suite.hash, [{ identity, repeats: 2 }], { runId: run2 });
    expect(cov).toEqual({
      total: 6,
      done: 4,
      failed: 1,
      pending: 1,
      cached: 3,
      errorsByKind: { rate_limit: 1 },
    });
    // With one repeat expected, repeat-1 cells are outside the count.
    expect(store.coverage.of(suite.hash, [{ identity, repeats: 1 }])).toMatchObject({
      total: 3,
      done: 2,
      failed: 1,
    });
    // A model with nothing stored is all pending.
    expect(store.coverage.of(suite.hash, [{ identity: 'other', repeats: 2 }])).toMatchObject({
      total: 6,
      pending: 6,
    });
    store.close();
  });

  it('iterates cells a page at a time and allows writes while iterating', () => {
    const store = openStore(tempDb());
    const big: Suite = {
      name: 'big',
      hash: 'b'.repeat(64),
      tests: Array.from({ length: 1200 }, (_, i) => ({ id: `t${i}`, prompt: `p${i}` })),
    };
    store.suites.save(big);
    const runId = store.runs.begin({ suiteHash: big.hash, config: {}, waverVersion: '0.1.0' });
    store.cells.saveCached([]);
    for (const t of big.tests) {
      store.cells.saveFailed({
        suiteHash: big.hash,
        testId: t.id,
        model: 'm',
        modelIdentity: identity,
        repeat: 0,
        runId,
        request: req(t.prompt),
        error: { kind: 'server', message: '500' },
        attempts: [],
      });
    }
    let n = 0;
    for (const c of store.cells.all({ suiteHash: big.hash })) {
      n++;
      if (n === 10) store.runs.finish(runId, 'complete'); // a write mid-iteration must not throw
      expect(c.testId).toBe(`t${n - 1}`);
    }
    expect(n).toBe(1200);
    expect(
      store.suites
        .get(big.hash)
        ?.tests.map((t) => t.id)
        .slice(0, 3),
    ).toEqual(['t0', 't1', 't2']);
    store.close();
  });
});

describe('coverage with per-test repeats', () => {
  it('expects a test’s own repeats and ignores cells beyond them', () => {
    const store = openStore(tempDb());
    const own: Suite = {
      name: 'baseline.jsonl',
      hash: 'b'.repeat(64),
      tests: [
        { id: 'base', prompt: 'Q', repeats: 3 },
        { id: 'v1', prompt: 'Q, reworded' },
      ],
    };
    store.suites.save(own);
    const runId = store.runs.begin({ suiteHash: own.hash, config: {}, waverVersion: '0.1.0' });
    const done = (testId: string, repeat: number) =>
      store.cells.saveDone({
        suiteHash: own.hash,
        testId,
        model: 'm',
        modelIdentity: identity,
        repeat,
        runId,
        key: cacheKey(identity, req(testId), repeat),
        request: req(testId),
        result: { text: 'x', finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 1 } },
        attempts: [],
      });
    for (const r of [0, 1, 2]) done('base', r);
    done('v1', 0);
    done('v1', 1); // beyond the run's 1 repeat: not counted
    const cov = store.coverage.of(own.hash, [{ identity, repeats: 1 }]);
    expect(cov).toMatchObject({ total: 4, done: 4, pending: 0 });
    store.close();
  });
});

describe('a write that meets a lock held past the busy timeout', () => {
  it('is a user error naming the store and what to do, not an internal one', () => {
    const path = tempDb();
    const store = openStore(path);
    store.suites.save(suite);
    // Another process stopped inside its write transaction: it keeps the write lock.
    const holder = new Database(path);
    holder.exec('BEGIN IMMEDIATE');
    const waiting = new Database(path, { timeout: 0 });
    let error: unknown;
    try {
      waiting.prepare("UPDATE suites SET name = 'x'").run();
    } catch (e) {
      error = e;
    }
    holder.exec('ROLLBACK');
    holder.close();
    waiting.close();
    store.close();
    const failure = storeFailure(error, path);
    expect(failure).toBeInstanceOf(InputError);
    expect(failure?.message).toMatch(/stayed locked by another process.*the same command resumes/);
    expect(failure?.format()).toContain(path);
  });
});
