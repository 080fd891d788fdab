import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { assertBuilt, queryStore, runCli } from '../test-support/cli/cli.js';
import { type FaultServer, startFaultServer } from '../test-support/fault-server.js';

/**
 * `--shard K/N` and `waver merge` through the real CLI against an instant loopback server that
 * counts the requests per prompt: three shards and a merge give the cells of one run, each cell
 * asked once (docs/decisions.md E19, E20).
 */

beforeAll(assertBuilt);

let server: FaultServer;
beforeEach(async () => {
  server = await startFaultServer({ faultRate: 0, seed: 1 });
});
afterEach(() => server.close());

function writeSuite(dir: string, n: number): string {
  const path = join(dir, 'suite.jsonl');
  writeFileSync(
    path,
    `${Array.from({ length: n }, (_, i) => JSON.stringify({ id: `t${i}`, prompt: `question ${i}` })).join('\n')}\n`,
  );
  return path;
}

/** What a store holds of its cells, in a stable order: everything but ids, clocks and run ids. */
function cellsOf(store: string) {
  return queryStore(
    store,
    `SELECT c.suite_hash, c.model, c.model_identity, c.test_id, c.repeat, c.status, c.response_key, r.text
     FROM cells c LEFT JOIN responses r ON r.key = c.response_key ORDER BY 1, 3, 4, 5`,
  );
}

function countsOf(store: string) {
  return queryStore(
    store,
    `SELECT suite_hash, model_identity, status, sum(n) AS n FROM cell_counts GROUP BY 1, 2, 3 HAVING sum(n) > 0`,
  );
}

describe('three shards and waver merge', () => {
  it('give the same 300 cells as one run, each cell asked once, and each shard exits 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'waver-shard-'));
    const suite = writeSuite(dir, 100);
    const base = ['run', '--suite', suite, '--models', `openai:m@${server.url}`, '--repeats', '3'];

    const whole = join(dir, 'whole.db');
    const one = await runCli([...base, '--store', whole], { cwd: dir });
    expect(one.code, one.stderr).toBe(0);
    expect(server.requests()).toBe(300);

    const asked = server.requestsByPrompt();
    const shards = [1, 2, 3].map((k) => join(dir, `shard-${k}.db`));
    const runs = await Promise.all(
      shards.map((store, i) =>
        runCli([...base, '--store', store, '--shard', `${i + 1}/3`, '--format', 'json'], { cwd: dir }),
      ),
    );
    const tests = runs.map((r, i) => {
      expect(r.code, r.stderr).toBe(0);
      const summary = JSON.parse(r.stdout);
      expect(summary.shard).toEqual({ index: i + 1, count: 3 });
      expect(summary.complete).toBe(true);
      const coverage = summary.models[0].coverage;
      expect(coverage.total).toBe(summary.suite.tests * 3);
      expect(coverage.done).toBe(coverage.total);
      return summary.suite.tests as number;
    });
    // Round-robin: 34, 33, 33 tests.
    expect(tests).toEqual([34, 33, 33]);
    // Each prompt asked once per repeat between the three shards.
    expect(server.requests()).toBe(600);
    const byPrompt = [...server.requestsByPrompt()].map(([prompt, n]) => n - (asked.get(prompt) ?? 0));
    expect(byPrompt).toHaveLength(100);
    expect(new Set(byPrompt)).toEqual(new Set([3]));

    const merged = join(dir, 'merged.db');
    const m = await runCli(['merge', ...shards, '--out', merged], { cwd: dir });
    expect(m.code, m.stderr).toBe(0);
    expect(m.stdout).toMatch(/merged\.db: 300 cells/);
    expect(cellsOf(merged)).toEqual(cellsOf(whole));
    expect(countsOf(merged)).toEqual(countsOf(whole));
    expect(queryStore(merged, 'SELECT count(*) AS n FROM attempts')).toEqual([{ n: 300 }]);

    // The merged store answers the whole run: the same command asks nothing.
    const again = await runCli([...base, '--store', merged], { cwd: dir });
    expect(again.code, again.stderr).toBe(0);
    expect(server.requests()).toBe(600);
    // A shard re-run on its own store asks nothing either (the split is stable).
    const resumed = await runCli([...base, '--store', shards[1] as string, '--shard', '2/3'], { cwd: dir });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toMatch(/shard 2\/3: 33 tests/);
    expect(server.requests()).toBe(600);

    // Merging the same stores again into the output changes nothing.
    const twice = await runCli(['merge', ...shards, '--out', merged], { cwd: dir });
    expect(twice.code, twice.stderr).toBe(0);
    expect(cellsOf(merged)).toEqual(cellsOf(whole));
    expect(queryStore(merged, 'SELECT count(*) AS n FROM attempts')).toEqual([{ n: 300 }]);
  }, 120_000);

  it('shard a protocol command too: each ladder shard exits 0 and the merged store holds the unsharded cells', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'waver-shard-'));
    const base = ['ladder', '--models', `openai:m@${server.url}`, '--seeds', '1'];
    const whole = join(dir, 'whole.db');
    const one = await runCli([...base, '--store', whole], { cwd: dir });
    expect(one.code, one.stderr).toBe(0);
    const asked = server.requests();
    const shards = [1, 2, 3].map((k) => join(dir, `shard-${k}.db`));
    const runs = await Promise.all(
      shards.map((store, i) => runCli([...base, '--store', store, '--shard', `${i + 1}/3`], { cwd: dir })),
    );
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    expect(server.requests()).toBe(2 * asked);
    const m = await runCli(['merge', ...shards, '--out', join(dir, 'merged.db')], { cwd: dir });
    expect(m.code, m.stderr).toBe(0);
    expect(cellsOf(join(dir, 'merged.db'))).toEqual(cellsOf(whole));
  }, 120_000);

  it('refuses a cell with two different responses, naming it, and writes nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'waver-merge-'));
    const suite = writeSuite(dir, 5);
    const base = ['run', '--suite', suite, '--models', `openai:m@${server.url}`];
    const [a, b] = [join(dir, 'a.db'), join(dir, 'b.db')];
    for (const store of [a, b])
      expect((await runCli([...base, '--store', store], { cwd: dir })).code).toBe(0);
    // Another answer for one cell, as a model sampling at temperature 1 would give on another machine.
    const db = new Database(b);
    db.prepare(`UPDATE responses SET text = 'another answer' WHERE text = 'echo: question 3'`).run();
    db.close();

    const out = join(dir, 'merged.db');
    const r = await runCli(['merge', a, b, '--out', out], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toMatch(
      new RegExp(
        `^waver: ${b}: cell \\(suite .*suite\\.jsonl [0-9a-f]{12}, model openai:m@\\S+, test "t3", repeat 0\\) has two different responses: "another answer" here, "echo: question 3" in ${a}; nothing was written$`,
      ),
    );
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(dir).filter((f) => f.includes('merging'))).toEqual([]);
  }, 60_000);

  it('refuses a 0-byte or page-corrupted source (exit 2, naming it), and clears what a killed merge left', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'waver-merge-'));
    const suite = writeSuite(dir, 5);
    const a = join(dir, 'a.db');
    expect(
      (
        await runCli(['run', '--suite', suite, '--models', `openai:m@${server.url}`, '--store', a], {
          cwd: dir,
        })
      ).code,
    ).toBe(0);
    const out = join(dir, 'merged.db');
    const empty = join(dir, 'empty.db');
    writeFileSync(empty, '');
    const r = await runCli(['merge', a, empty, '--out', out], { cwd: dir });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr.trim()).toBe(
      `waver: ${empty}: holds no waver store (an empty file, or one no waver wrote): nothing to merge`,
    );
    const damaged = join(dir, 'damaged.db');
    const bytes = readFileSync(a);
    const pageSize = bytes.readUInt16BE(16);
    for (let i = 0; i < pageSize; i++) bytes[bytes.length - pageSize + i] = (i * 131 + 7) % 256;
    writeFileSync(damaged, bytes);
    const c = await runCli(['merge', a, damaged, '--out', out], { cwd: dir });
    expect(c.code, c.stderr).toBe(2);
    expect(c.stderr.trim()).toMatch(
      new RegExp(
        `^waver: ${damaged}: the store is damaged \\(database disk image is malformed: .+\\); restore it from a copy$`,
      ),
    );
    expect(existsSync(out)).toBe(false);
    // A merge killed with -9 (a pid that is gone) left its partial output; the next merge removes it.
    for (const suffix of ['', '-wal']) writeFileSync(`${out}.merging-999999999${suffix}`, 'partial');
    const again = await runCli(['merge', a, '--out', out], { cwd: dir });
    expect(again.code, again.stderr).toBe(0);
    expect(readdirSync(dir).filter((f) => f.includes('merging'))).toEqual([]);
  }, 60_000);
});
