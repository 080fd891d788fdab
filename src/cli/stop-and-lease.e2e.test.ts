import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, queryStore, runCli, startCli } from '../test-support/cli/cli.js';
import { type FaultServer, startFaultServer } from '../test-support/fault-server.js';

/**
 * Real CLI processes against loopback servers: Ctrl-C during a run, and several runs of one suite
 * on one store splitting its cells (docs/decisions.md#e14-workers-share-a-store-by-leasing-chunks-of-cells).
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
    const stored = queryStore<{ n: number }>(store, 'SELECT count(*) AS n FROM cells')[0]?.n;
    expect(stored).toBe(doneCells);
    // Every request the server received is an attempt in the store: a done cell's or an aborted one.
    const aborted = queryStore<{ outcome: string }>(store, 'SELECT outcome FROM stopped_attempts');
    expect(aborted.length).toBeGreaterThan(0);
    expect(aborted.every((a) => a.outcome === 'aborted')).toBe(true);
    const calls = slow.requests() - before;
    const attempts = queryStore<{ n: number }>(store, 'SELECT count(*) AS n FROM attempts')[0]?.n ?? 0;
    expect(attempts + aborted.length).toBe(calls);

    const again = await runCli(args, { cwd: dir });
    expect(again.code, again.stderr).toBe(0);
    expect(slow.requests() - before - calls).toBe(pending);
    expect(queryStore<{ n: number }>(store, 'SELECT count(*) AS n FROM cells')[0]?.n).toBe(
      doneCells + pending,
    );
  }, 120_000);
});

describe('workers sharing one store', () => {
  it('three processes started together request each prompt once between them, and each exits 0', async () => {
    const instant = await startFaultServer({ faultRate: 0, seed: 3 });
    try {
      const dir = workdir();
      const store = join(dir, 'store.db');
      const args = [
        'run',
        '--suite',
        writeSuite(dir, 2000),
        '--models',
        `openai:m@${instant.url}`,
        '--store',
        store,
      ];
      const runs = await Promise.all(
        [1, 2, 3].map(() => runCli([...args, '--format', 'json'], { cwd: dir })),
      );
      const calls = runs.map((r) => {
        expect(r.code, r.stderr).toBe(0);
        const summary = JSON.parse(r.stdout);
        expect(summary.models[0].coverage).toMatchObject({ total: 2000, done: 2000, pending: 0 });
        return summary.summary.calls as number;
      });
      expect(instant.requests()).toBe(2000);
      expect(new Set(instant.requestsByPrompt().values())).toEqual(new Set([1]));
      expect(calls.reduce((a, b) => a + b, 0)).toBe(2000);
      expect(queryStore<{ n: number }>(store, 'SELECT count(*) AS n FROM cells')[0]?.n).toBe(2000);
    } finally {
      await instant.close();
    }
  }, 120_000);

  it('the chunks of a worker killed with -9 are taken over by the one still running, and no cell is stored twice', async () => {
    const dir = workdir();
    const store = join(dir, 'store.db');
    // 96 tests: three chunks of 32, each answered 300 ms a call two at a time.
    const args = [
      'run',
      '--suite',
      writeSuite(dir, 96),
      '--models',
      `openai:m@${slow.url}`,
      '--store',
      store,
      '--concurrency',
      '2',
    ];
    const before = slow.requests();
    const doomed = startCli(args, { cwd: dir });
    const survivor = startCli(args, { cwd: dir });
    await waitFor(() => slow.requests() - before >= 8, 30_000);
    doomed.child.kill('SIGKILL');
    await doomed.done;
    const r = await survivor.done;
    expect(r.code, r.stderr).toBe(0);
    const cells = queryStore<{ test_id: string }>(store, 'SELECT test_id FROM cells');
    expect(new Set(cells.map((c) => c.test_id)).size).toBe(96);
    expect(cells).toHaveLength(96);
    // At most the calls the killed worker had on the wire, or answered and not yet committed, are asked again.
    expect(slow.requests() - before).toBeLessThanOrEqual(96 + 4);
    expect(queryStore(store, 'SELECT * FROM cell_leases WHERE finished_ms IS NULL')).toEqual([]);
  }, 60_000);

  it("a worker that takes over a killed one's chunks counts each cell once: its progress never passes the suite", async () => {
    const dir = workdir();
    const store = join(dir, 'store.db');
    // 256 tests, eight chunks; the first worker alone at first, two calls at a time (300 ms each).
    const args = [
      'run',
      '--suite',
      writeSuite(dir, 256),
      '--models',
      `openai:m@${slow.url}`,
      '--store',
      store,
    ];
    const cells = () => queryStore<{ n: number }>(store, 'SELECT count(*) AS n FROM cells')[0]?.n ?? 0;
    const before = slow.requests();
    const doomed = startCli([...args, '--concurrency', '2'], { cwd: dir });
    await waitFor(() => slow.requests() - before >= 12, 30_000);
    // The survivor reads the first worker's chunk, some of its cells stored (counted as found in
    // the store), the rest left to it; once it is killed, the survivor takes the chunk over.
    const survivor = startCli([...args, '--concurrency', '8', '--format', 'json'], { cwd: dir });
    const runs = () =>
      queryStore<{ n: number }>(store, 'SELECT count(DISTINCT run_id) AS n FROM cells')[0]?.n ?? 0;
    await waitFor(() => runs() >= 2, 30_000);
    doomed.child.kill('SIGKILL');
    await doomed.done;
    const r = await survivor.done;
    expect(r.code, r.stderr).toBe(0);
    // The last progress line (the next steps follow it).
    const last =
      r.stderr
        .trim()
        .split('\n')
        .findLast((l) => /^\d+\/\d+ cells/.test(l)) ?? '';
    const [, finished, total] = /^(\d+)\/(\d+) cells/.exec(last) ?? [];
    expect(Number(total), last).toBeLessThanOrEqual(256);
    expect(Number(finished), last).toBe(Number(total));
    const summary = JSON.parse(r.stdout);
    expect(summary.models[0].coverage).toMatchObject({ total: 256, done: 256, pending: 0 });
    expect(summary.summary.coverage.total).toBeLessThanOrEqual(256);
    expect(cells()).toBe(256);
  }, 60_000);

  it('a worker killed with -9 leaves chunks the same command, run again, takes over at once, marking the killed run stopped', async () => {
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
    const cells = queryStore<{ test_id: string }>(store, 'SELECT test_id FROM cells');
    expect(new Set(cells.map((c) => c.test_id)).size).toBe(12);
    expect(cells).toHaveLength(12);
    expect(queryStore(store, 'SELECT * FROM cell_leases WHERE finished_ms IS NULL')).toEqual([]);
    // The killed run is no longer 'running' in the store (nor the report).
    expect(queryStore<{ status: string }>(store, 'SELECT status FROM runs ORDER BY started_at')).toEqual([
      { status: 'stopped' },
      { status: 'complete' },
    ]);
  }, 60_000);

  it('a worker killed with -9 whose chunks no one takes over: a later run of another suite releases its leases and marks it stopped', async () => {
    const dir = workdir();
    const store = join(dir, 'store.db');
    const model = ['--models', `openai:m@${slow.url}`, '--store', store];
    const before = slow.requests();
    const first = startCli(['run', '--suite', writeSuite(dir, 12), ...model, '--concurrency', '2'], {
      cwd: dir,
    });
    await waitFor(() => slow.requests() - before >= 4, 30_000);
    first.child.kill('SIGKILL');
    await first.done;
    const otherSuite = join(dir, 'other.jsonl');
    writeFileSync(otherSuite, `${JSON.stringify({ id: 'x', prompt: `another suite ${dir}` })}\n`);
    const second = await runCli(['run', '--suite', otherSuite, ...model], { cwd: dir });
    expect(second.code, second.stderr).toBe(0);
    expect(queryStore(store, 'SELECT * FROM cell_leases WHERE finished_ms IS NULL')).toEqual([]);
    const runs = queryStore<{ status: string }>(store, 'SELECT status FROM runs ORDER BY started_at');
    expect(runs.map((r) => r.status)).toEqual(['stopped', 'complete']);
  }, 60_000);
});
