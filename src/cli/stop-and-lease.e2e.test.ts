import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FaultServer, startFaultServer } from '../test-support/fault-server.js';
import { assertBuilt, runCli, startCli } from './test-support/cli.js';

/**
 * Real CLI processes against a slow loopback server (every answer after 300 ms): Ctrl-C during a
 * run, and two runs of one suite on one store.
 */

beforeAll(assertBuilt);

let slow: FaultServer;
beforeAll(async () => {
  slow = await startFaultServer({ faultRate: 1, faults: ['hang'], hangMs: 300, seed: 1 });
});
afterAll(() => slow.close());

function workdir(): string {
  return mkdtempSync(join(tmpdir(), 'waver-stop-'));
}

function writeSuite(dir: string, n: number): string {
  const path = join(dir, 'suite.jsonl');
  writeFileSync(
    path,
    `${Array.from({ length: n }, (_, i) => JSON.stringify({ id: `t${i}`, prompt: `question ${i} of ${dir}` })).join('\n')}\n`,
  );
  return path;
}

async function waitFor(predicate: () => boolean, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}

function query<T>(store: string, sql: string): T[] {
  const db = new Database(store, { readonly: true });
  try {
    return db.prepare(sql).all() as T[];
  } finally {
    db.close();
  }
}

describe('Ctrl-C during waver ladder', () => {
  it('says how to resume with the counts, keeps an attempt for every call in flight, and the same command resumes', async () => {
    const dir = workdir();
    const store = join(dir, 'store.db');
    const args = [
      'ladder',
      '--models',
      `openai:m@${slow.url}`,
      '--seeds',
      '1',
      '--store',
      store,
      '--concurrency',
      '3',
    ];
    const before = slow.requests();
    const { child, done } = startCli(args, { cwd: dir });
    // Some cells answered, three calls on the wire.
    await waitFor(() => slow.requests() - before >= 9, 30_000);
    child.kill('SIGINT');
    const r = await done;
    expect(r.code, r.stderr).toBe(130);
    const line = r.stderr.trim().split('\n').at(-1) ?? '';
    const m = /^waver: stopped: re-run the same command to resume \((\d+) cells done, (\d+) pending\)$/.exec(
      line,
    );
    expect(m, r.stderr).not.toBeNull();
    const [doneCells, pending] = [Number(m?.[1]), Number(m?.[2])];
    expect(pending).toBeGreaterThan(0);
    const stored = query<{ n: number }>(store, 'SELECT count(*) AS n FROM cells')[0]?.n;
    expect(stored).toBe(doneCells);
    // Every request the server received is an attempt in the store: a done cell's or an aborted one.
    const aborted = query<{ outcome: string }>(store, 'SELECT outcome FROM stopped_attempts');
    expect(aborted.length).toBeGreaterThan(0);
    expect(aborted.every((a) => a.outcome === 'aborted')).toBe(true);
    const calls = slow.requests() - before;
    const attempts = query<{ n: number }>(store, 'SELECT count(*) AS n FROM attempts')[0]?.n ?? 0;
    expect(attempts + aborted.length).toBe(calls);

    const again = await runCli(args, { cwd: dir });
    expect(again.code, again.stderr).toBe(0);
    expect(slow.requests() - before - calls).toBe(pending);
    expect(query<{ n: number }>(store, 'SELECT count(*) AS n FROM cells')[0]?.n).toBe(doneCells + pending);
  }, 120_000);
});

describe('two runs of one suite on one store', () => {
  // Slower still (1 s an answer, 16 cells two at a time): the second process must start and
  // stop while the first runs, even on a loaded machine.
  let slower: FaultServer;
  beforeAll(async () => {
    slower = await startFaultServer({ faultRate: 1, faults: ['hang'], hangMs: 1000, seed: 2 });
  });
  afterAll(() => slower.close());

  it('the second says which process holds it and exits 2; every cell is asked once', async () => {
    const dir = workdir();
    const store = join(dir, 'store.db');
    const args = [
      'run',
      '--suite',
      writeSuite(dir, 16),
      '--models',
      `openai:m@${slower.url}`,
      '--store',
      store,
    ];
    const first = startCli([...args, '--concurrency', '2'], { cwd: dir });
    await waitFor(() => slower.requests() >= 2, 30_000);
    const second = await runCli(args, { cwd: dir });
    expect(first.child.exitCode, 'the first run was still running').toBeNull();
    expect(second.code).toBe(2);
    expect(second.stderr.trim()).toMatch(
      new RegExp(
        `^waver: ${store}: another run holds suite .*suite\\.jsonl \\([0-9a-f]{12}\\) on this store: pid ${first.child.pid} on \\S+, started \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z, last heartbeat \\d+ s ago; wait for it to end or stop it`,
      ),
    );
    const r = await first.done;
    expect(r.code, r.stderr).toBe(0);
    expect(slower.requests()).toBe(16);
    // Its lease released, the same command runs (and has nothing left to ask).
    const third = await runCli(args, { cwd: dir });
    expect(third.code, third.stderr).toBe(0);
    expect(slower.requests()).toBe(16);
  }, 60_000);

  it('the lease of a process killed with -9 is taken over at once, and no cell is stored twice', async () => {
    const dir = workdir();
    const store = join(dir, 'store.db');
    const args = [
      'run',
      '--suite',
      writeSuite(dir, 12),
      '--models',
      `openai:m@${slow.url}`,
      '--store',
      store,
    ];
    const before = slow.requests();
    const first = startCli([...args, '--concurrency', '2'], { cwd: dir });
    await waitFor(() => slow.requests() - before >= 4, 30_000);
    first.child.kill('SIGKILL');
    await first.done;
    const second = await runCli(args, { cwd: dir });
    expect(second.code, second.stderr).toBe(0);
    const cells = query<{ test_id: string }>(store, 'SELECT test_id FROM cells');
    expect(new Set(cells.map((c) => c.test_id)).size).toBe(12);
    expect(cells).toHaveLength(12);
    expect(query(store, 'SELECT * FROM leases')).toEqual([]);
  }, 60_000);
});
