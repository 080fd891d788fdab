import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, cleanEnv, cliPath, runCli } from '../test-support/cli/cli.js';
import { type FaultServer, startFaultServer } from '../test-support/fault-server.js';
import { tinyModelMissing, tinyModelPath } from '../test-support/shared.js';
import { damageTable } from '../test-support/store/damaged-store.js';

/**
 * A store or a port the user must fix: one line naming the file or port, exit 2, nothing left
 * behind. File modes are tested as a user they bind (see asUnprivileged).
 */

beforeAll(assertBuilt);

/** A scratch directory that another user may read and enter (mkdtemp makes it 0700). */
function workdir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'waver-store-errors-'));
  chmodSync(dir, 0o755);
  return dir;
}

function writeSuite(dir: string): string {
  const path = join(dir, 'suite.jsonl');
  writeFileSync(path, '{"id":"a","prompt":"one"}\n{"id":"b","prompt":"two"}\n');
  chmodSync(path, 0o644);
  return path;
}

let server: FaultServer;
beforeAll(async () => {
  server = await startFaultServer({ faultRate: 0, seed: 1 });
});
afterAll(() => server.close());

const model = () => `openai:m@${server.url}`;

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('a store that cannot be used', () => {
  it('a corrupt file: every command says so, naming the file, exit 2, and leaves it as it was', async () => {
    const dir = workdir();
    const store = join(dir, 'broken.db');
    const bytes = Buffer.from('this is not a database, though someone named it one\n'.repeat(40));
    writeFileSync(store, bytes);
    for (const args of [
      ['run', '--suite', writeSuite(dir), '--models', model()],
      ['report', '--format', 'md'],
      ['check', '--min-coverage', '0.5'],
    ]) {
      const r = await runCli([...args, '--store', store]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr.trim()).toBe(
        `waver: ${store}: not a SQLite database, so not a waver store (file is not a database)`,
      );
    }
    expect(readFileSync(store).equals(bytes)).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(['broken.db', 'suite.jsonl']);
  });

  it('a page-corrupted store: a writer refuses it before writing, exit 2, naming the file, the file unchanged', async () => {
    const dir = workdir();
    const store = join(dir, 'paged.db');
    const first = await runCli(['run', '--suite', writeSuite(dir), '--models', model(), '--store', store]);
    expect(first.code, first.stderr).toBe(0);
    // The last page (a table's or an index's) overwritten with noise; the header and schema still read.
    const bytes = readFileSync(store);
    const pageSize = bytes.readUInt16BE(16);
    const last = bytes.length - pageSize;
    for (let i = 0; i < pageSize; i++) bytes[last + i] = (i * 131 + 7) % 256;
    writeFileSync(store, bytes);
    const other = join(dir, 'other.jsonl');
    writeFileSync(other, '{"id":"c","prompt":"three"}\n');
    const r = await runCli(['run', '--suite', other, '--models', model(), '--store', store]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr.trim()).toMatch(
      new RegExp(
        `^waver: ${store}: the store is damaged \\(database disk image is malformed: .+\\); restore it from a copy$`,
      ),
    );
    expect(readFileSync(store).equals(bytes)).toBe(true);
  });

  it('a page-corrupted store: every reader says so, exit 2, naming the file, nothing written; check never passes', async () => {
    const dir = workdir();
    const store = join(dir, 'paged.db');
    const first = await runCli(['run', '--suite', writeSuite(dir), '--models', model(), '--store', store]);
    expect(first.code, first.stderr).toBe(0);
    // The cells' page: the counts `check --min-coverage` reads are whole, the cells are not.
    const bytes = damageTable(store, 'cells');
    const damaged = new RegExp(
      `^waver: ${escapeRegExp(store)}: the store is damaged \\(database disk image is malformed: .+\\); restore it from a copy$`,
    );
    const out = join(dir, 'out');
    mkdirSync(out);
    for (const args of [
      ['report', '--format', 'md', '--store', store],
      ['report', '--out', join(out, 'report.html'), '--store', store],
      ['export', '--store', store],
      ['export', '--out', join(out, 'cells.jsonl'), '--store', store],
      ['check', '--min-coverage', '0.5', '--store', store],
      ['judge', 'agreement', '--store', store],
      ['judge', 'sample', '--n', '5', '--store', store],
      ['plan', '--design', 'paired-proportions', '--pilot', store, '--compare', `${model()},${model()}`],
    ]) {
      const r = await runCli(args, { cwd: dir });
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr.trim(), args.join(' ')).toMatch(damaged);
      expect(r.stdout, args.join(' ')).toBe('');
    }
    expect(readFileSync(store).equals(bytes)).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(['out', 'paged.db', 'suite.jsonl']);
    expect(readdirSync(out)).toEqual([]);
  });

  it('a full disk mid-run (a file size limit): exit 2 naming the file, and the store whole', async () => {
    const dir = workdir();
    const store = join(dir, 'full.db');
    const suite = join(dir, 'many.jsonl');
    writeFileSync(
      suite,
      `${Array.from({ length: 3000 }, (_, i) => JSON.stringify({ id: `t${i}`, prompt: `a prompt long enough to fill pages ${i} ${'x'.repeat(200)}` })).join('\n')}\n`,
    );
    // Past 1 MB a write fails (EFBIG) as on a full disk; SIGXFSZ ignored so the process sees the error.
    const child = spawn(
      'bash',
      [
        '-c',
        `trap '' XFSZ; ulimit -f 1024; exec "$0" "$@"`,
        process.execPath,
        cliPath,
        'run',
        '--suite',
        suite,
        '--models',
        model(),
        '--store',
        store,
      ],
      { env: cleanEnv(), cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
    const r = { status, stderr };
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr.trim().split('\n').at(-1)).toMatch(
      new RegExp(
        `^waver: ${store}: the store could not be written \\(a full disk, a file size limit or a failing device\\); the same command resumes \\(disk I/O error\\)$`,
      ),
    );
    const check = new Database(store, { readonly: true });
    expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
    check.close();
  });

  it('a SQLite file that is not a waver store is refused and never written into', async () => {
    const dir = workdir();
    const store = join(dir, 'other.db');
    const other = new Database(store);
    other.exec(
      "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('mine')",
    );
    other.close();
    const before = readFileSync(store);
    const r = await runCli(['run', '--suite', writeSuite(dir), '--models', model(), '--store', store]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(
      `waver: ${store}: not a waver store (its tables are notes); refusing to use it: name another --store`,
    );
    const report = await runCli(['report', '--store', store, '--format', 'md']);
    expect(report.code).toBe(2);
    expect(report.stderr).toContain('not a waver store');
    expect(readFileSync(store).equals(before)).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(['other.db', 'suite.jsonl']);
  });

  it('a store in a directory this user cannot write: exit 2, naming the file', async () => {
    const dir = workdir();
    const suite = writeSuite(dir);
    const locked = join(dir, 'locked');
    mkdirSync(locked, { mode: 0o555 });
    chmodSync(locked, 0o555);
    const store = join(locked, 'store.db');
    const r = await runCli(['run', '--suite', suite, '--models', model(), '--store', store], {
      unprivileged: true,
    });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr.trim()).toBe(
      `waver: ${store}: cannot create the store: its directory cannot be written (unable to open database file)`,
    );
    expect(readdirSync(locked)).toEqual([]);
  });

  describe('report and check on a store this user may not write', () => {
    let store: string;
    beforeAll(async () => {
      const dir = workdir();
      store = join(dir, 'store.db');
      const r = await runCli(['run', '--suite', writeSuite(dir), '--models', model(), '--store', store]);
      expect(r.code, r.stderr).toBe(0);
    });

    it.each([
      ['a read-only file in a writable directory', 0o444, 0o777],
      ['a store in a read-only directory', 0o644, 0o555],
    ])('%s: the report is written and nothing is left beside the store', async (_, fileMode, dirMode) => {
      const dir = workdir();
      const copy = join(dir, 'store.db');
      writeFileSync(copy, readFileSync(store));
      chmodSync(copy, fileMode);
      chmodSync(dir, dirMode);
      try {
        const report = await runCli(['report', '--store', copy, '--format', 'md'], { unprivileged: true });
        expect(report.code, report.stderr).toBe(0);
        expect(report.stdout).toMatch(/\| 2\/2 \(100\.0%\) \|/);
        const check = await runCli(['check', '--store', copy, '--min-coverage', '0.5'], {
          unprivileged: true,
        });
        expect(check.stderr).not.toMatch(/internal error|readonly/);
        expect(readdirSync(dir)).toEqual(['store.db']);
        // A run writes: it says the store is read-only, naming it.
        const run = await runCli(
          ['run', '--suite', writeSuite(tmpdir()), '--models', model(), '--store', copy],
          {
            unprivileged: true,
          },
        );
        expect(run.code).toBe(2);
        expect(run.stderr).toContain(`waver: ${copy}: the store is read-only to this user`);
        expect(readdirSync(dir)).toEqual(['store.db']);
      } finally {
        chmodSync(dir, 0o755);
      }
    });

    it('a writable store is left without -wal or -shm after a report', async () => {
      const report = await runCli(['report', '--store', store, '--format', 'md']);
      expect(report.code).toBe(0);
      expect(readdirSync(join(store, '..')).filter((f) => f.startsWith('store.db'))).toEqual(['store.db']);
    });
  });
});

/** A loopback port something already listens on. */
async function takenPort(): Promise<{ port: number; close: () => Promise<void> }> {
  const taken = createServer();
  await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
  return {
    port: (taken.address() as AddressInfo).port,
    close: () => new Promise((r) => taken.close(() => r())),
  };
}

describe('a port in use', () => {
  it('waver view: exit 2, naming the port', async () => {
    const taken = await takenPort();
    try {
      const dir = workdir();
      const r = await runCli(['view', '--store', join(dir, 'store.db'), '--port', String(taken.port)]);
      expect(r.code).toBe(2);
      expect(r.stderr.trim()).toBe(
        `waver: --port: 127.0.0.1:${taken.port} is in use (EADDRINUSE): pass another --port, or --port 0 for any free one`,
      );
    } finally {
      await taken.close();
    }
  });

  (tinyModelPath ? it : it.skip)(
    `waver serve: exit 2, naming the port ${tinyModelMissing ?? ''}`,
    async () => {
      const taken = await takenPort();
      try {
        const r = await runCli(['serve', '--model', `gguf:${tinyModelPath}`, '--port', String(taken.port)]);
        expect(r.code).toBe(2);
        expect(r.stderr.trim().split('\n').at(-1)).toBe(
          `waver: --port: 127.0.0.1:${taken.port} is in use (EADDRINUSE): pass another --port, or --port 0 for any free one`,
        );
      } finally {
        await taken.close();
      }
    },
    60_000,
  );
});
