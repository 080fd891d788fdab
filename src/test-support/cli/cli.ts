import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import Database from 'better-sqlite3';
import { type RegistryContext, withAdapters } from '../../protocols/adapters.js';
import { CONFIG, PROTOCOLS } from '../../protocols/index.js';
import { repoRoot } from '../shared.js';

/** What main.ts hands every command, for tests that run a command in process. */
export const CLI_CONTEXT: RegistryContext = { protocols: await withAdapters(PROTOCOLS), config: CONFIG };

/** The built CLI: end-to-end tests drive the real `waver` binary as a user would. `npm test` builds first. */
export const cliPath = resolve(repoRoot, 'dist/bin/waver.cjs');

export function assertBuilt(): void {
  if (!existsSync(cliPath))
    throw new Error(`${cliPath} is missing: run 'npm run build' (npm test does it first)`);
}

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Environment without the caller's API keys or model settings, so tests see only what they set. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, NODE_OPTIONS: '' };
  return { ...env, ...extra };
}

export interface CliOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Run as a user that file modes bind (see asUnprivileged). */
  unprivileged?: boolean;
}

/**
 * Root may write any file whatever its mode, so a test of a read-only file or directory that runs
 * as root runs the CLI as `nobody` (uid 65534); anyone else is bound by the modes already. The
 * files it must read then need read bits for others.
 */
export function asUnprivileged(): { uid?: number; gid?: number } {
  return process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
}

export function startCli(
  args: string[],
  opts: CliOptions = {},
): {
  child: ChildProcess;
  done: Promise<CliResult>;
} {
  const child = spawn(process.execPath, [cliPath, ...args], {
    // Not the repo: a waver.yaml or .waver/ there must not leak into tests.
    cwd: opts.cwd ?? tmpdir(),
    env: opts.env ?? cleanEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(opts.unprivileged ? asUnprivileged() : {}),
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => {
    stdout += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const done = new Promise<CliResult>((resolveDone) => {
    child.on('close', (code, signal) => resolveDone({ code, signal, stdout, stderr }));
  });
  return { child, done };
}

/** The base URL a started `waver serve` prints once it listens; rejects if it exits first. */
export function servedUrl(serve: ReturnType<typeof startCli>): Promise<string> {
  return new Promise<string>((resolveUrl, reject) => {
    serve.child.stdout?.on('data', (d: Buffer) => {
      const line = d.toString().trim();
      if (line.startsWith('http://')) resolveUrl(line);
    });
    serve.done.then((r) => reject(new Error(`serve exited: ${r.stderr}`)));
  });
}

export function runCli(args: string[], opts: CliOptions = {}): Promise<CliResult> {
  return startCli(args, opts).done;
}

/** A store's cells as `waver export` writes them, one object a line. */
export async function exportedCells<
  T = { status: string; response: { text: string; usage: { outputTokens: number } } },
>(store: string): Promise<T[]> {
  const exported = await runCli(['export', '--store', store]);
  return exported.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as T);
}

/** Rows of a query on a store, read-only: for tests that count what a run left in the tables. */
export function queryStore<T>(store: string, sql: string): T[] {
  const db = new Database(store, { readonly: true });
  try {
    return db.prepare(sql).all() as T[];
  } finally {
    db.close();
  }
}

/**
 * Whether a process holds the store's write lock now (a write transaction open): tried with no
 * wait, so a worker stopped inside its transaction is told from one stopped between them.
 */
export function writeLocked(store: string): boolean {
  const db = new Database(store, { timeout: 0 });
  try {
    db.exec('BEGIN IMMEDIATE');
    db.exec('ROLLBACK');
    return false;
  } catch (e) {
    if ((e as { code?: string }).code === 'SQLITE_BUSY') return true;
    throw e;
  } finally {
    db.close();
  }
}
