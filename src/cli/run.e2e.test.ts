import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, cleanEnv, runCli, startCli } from '../test-support/cli/cli.js';
import { echoReply, type FaultServer, startFaultServer } from '../test-support/fault-server.js';

/** End to end through the built CLI: real processes, a real SQLite file, a real HTTP endpoint. */

function workdir(): string {
  return mkdtempSync(join(tmpdir(), 'waver-e2e-'));
}

/** Short backoff so fault tests take seconds, not minutes (Retry-After from the server still applies). */
function fastRetryConfig(dir: string): string {
  const path = join(dir, 'waver.yaml');
  writeFileSync(path, 'backoff:\n  baseMs: 1\n  capMs: 20\n');
  return path;
}

function writeSuite(dir: string, n: number): string {
  const path = join(dir, 'suite.jsonl');
  const lines = Array.from({ length: n }, (_, i) =>
    JSON.stringify({ id: `t${i}`, prompt: `question number ${i}` }),
  );
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

function storedCells(db: string): { test_id: string; status: string; text: string | null }[] {
  const conn = new Database(db, { readonly: true });
  try {
    return conn
      .prepare(
        `SELECT c.test_id, c.status, r.text FROM cells c LEFT JOIN responses r ON r.key = c.response_key ORDER BY c.test_id`,
      )
      .all() as { test_id: string; status: string; text: string | null }[];
  } finally {
    conn.close();
  }
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

async function waitFor(predicate: () => boolean, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!predicate() && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
}

beforeAll(assertBuilt);

describe('bad input: one clear line, non-zero exit, nothing written', () => {
  const dir = workdir();
  const suite = writeSuite(dir, 3);
  const store = join(dir, 'nothing.db');

  it('a config file with a wrong field names file, line and field', async () => {
    const config = join(dir, 'waver.yaml');
    writeFileSync(config, 'models:\n  - gguf:./x.gguf\nconcurrency: -1\n');
    const r = await runCli(['run', '--config', config, '--suite', suite, '--store', store]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(`waver: ${config}:3: concurrency: Too small: expected number to be >0`);
    expect(existsSync(store)).toBe(false);
  });

  it('an unknown provider prefix', async () => {
    const r = await runCli(['run', '--suite', suite, '--models', 'olama:llama3', '--store', store]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/unknown model provider in 'olama:llama3'/);
    expect(existsSync(store)).toBe(false);
  });

  it('a missing API key', async () => {
    const r = await runCli(['run', '--suite', suite, '--models', 'openai:gpt-4o-mini', '--store', store]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/OPENAI_API_KEY/);
    expect(existsSync(store)).toBe(false);
  });

  it('an unreachable endpoint', async () => {
    const port = await closedPort();
    const r = await runCli([
      'run',
      '--suite',
      suite,
      '--models',
      `openai:m@http://127.0.0.1:${port}/v1`,
      '--store',
      store,
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(`cannot reach http://127.0.0.1:${port}/v1`);
    expect(r.stderr).toContain('ECONNREFUSED');
    expect(existsSync(store)).toBe(false);
  });

  it('a malformed suite line names file, line and field', async () => {
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(bad, '{"id":"a","prompt":"x"}\n{"id":"b","prompt":7}\n');
    const r = await runCli([
      'run',
      '--suite',
      bad,
      '--models',
      'openai:m@http://127.0.0.1:9/v1',
      '--store',
      store,
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(`waver: ${bad}:2: prompt: must be a non-empty string`);
    expect(existsSync(store)).toBe(false);
  });

  it('a non-integer flag', async () => {
    const r = await runCli([
      'run',
      '--suite',
      suite,
      '--models',
      'openai:m@http://127.0.0.1:9/v1',
      '--concurrency',
      'many',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe("waver: --concurrency: expected an integer, got 'many'");
  });

  it.each([
    [['run', '--modles', 'x'], "error: unknown option '--modles'\n(Did you mean --models?)"],
    [['lader'], "error: unknown command 'lader'\n(Did you mean ladder?)"],
    [['ladder', '--format', 'xml'], "argument 'xml' is invalid. Allowed choices are md, json."],
    [['run', '--models'], "error: option '--models <specs>' argument missing"],
  ])("commander's own errors are bad input too: %j exits 2 with its message", async (args, message) => {
    const r = await runCli([...args.slice(0, 1), '--store', store, ...args.slice(1)]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(existsSync(store)).toBe(false);
  });

  it('help and --version still exit 0', async () => {
    expect((await runCli(['run', '--help'])).code).toBe(0);
    expect((await runCli(['--version'])).code).toBe(0);
  });
});

describe('a run against an endpoint that misbehaves', () => {
  let server: FaultServer;
  const dir = workdir();
  beforeAll(async () => {
    server = await startFaultServer({ faultRate: 0.2, seed: 7, hangMs: 3_000 });
  });
  afterAll(() => server.close());

  it('completes, stores every cell as done or failed with its reason, prints coverage, exits incomplete', async () => {
    const suite = writeSuite(dir, 300);
    const store = join(dir, 'faults.db');
    const r = await runCli(
      // One retry with a short timeout: enough faults survive to leave failed cells.
      [
        'run',
        '--config',
        fastRetryConfig(dir),
        '--suite',
        suite,
        '--models',
        `openai:fault@${server.url}`,
        '--store',
        store,
        '--concurrency',
        '16',
        '--max-retries',
        '1',
        '--timeout-ms',
        '500',
      ],
    );
    const cells = storedCells(store);
    expect(cells).toHaveLength(300);
    const failed = cells.filter((c) => c.status === 'failed');
    const done = cells.filter((c) => c.status === 'done');
    for (const c of done) expect(c.text).toBe(echoReply(`question number ${c.test_id.slice(1)}`));
    // Every fault kind was met, and every failure kept its reason.
    const faults = server.faults();
    for (const kind of Object.keys(faults))
      expect(faults[kind as keyof typeof faults], kind).toBeGreaterThan(0);
    const conn = new Database(store, { readonly: true });
    const reasons = conn
      .prepare(`SELECT error_kind, error_message FROM cells WHERE status = 'failed'`)
      .all() as {
      error_kind: string;
      error_message: string;
    }[];
    const attempts = conn.prepare(`SELECT outcome, COUNT(*) AS n FROM attempts GROUP BY outcome`).all() as {
      outcome: string;
      n: number;
    }[];
    conn.close();
    for (const f of reasons) {
      expect(f.error_kind).toMatch(/rate_limit|server|timeout|network|bad_response/);
      expect(f.error_message.length).toBeGreaterThan(0);
    }
    // Errors recovered by a retry are still on record.
    const errorAttempts = attempts.filter((a) => a.outcome !== 'ok').reduce((n, a) => n + a.n, 0);
    expect(errorAttempts).toBeGreaterThanOrEqual(failed.length);
    expect(r.stdout).toMatch(/\| openai:fault@.* \| 300 \| \d+ \| \d+ \| 0 \|/);
    // The faults are seeded: with one retry, some cells meet two in a row and fail.
    expect(failed.length).toBeGreaterThan(0);
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/failed cells of .* by reason/);
    expect(r.stdout).toMatch(/The run is incomplete/);
  }, 120_000);

  it('with more retries every cell succeeds', async () => {
    const suite = writeSuite(dir, 120);
    const store = join(dir, 'retries.db');
    const r = await runCli([
      'run',
      '--config',
      fastRetryConfig(dir),
      '--suite',
      suite,
      '--models',
      `openai:fault@${server.url}`,
      '--store',
      store,
      '--max-retries',
      '8',
      '--timeout-ms',
      '1000',
      '--concurrency',
      '32',
    ]);
    expect(r.stderr).not.toMatch(/internal error/);
    expect(r.code).toBe(0);
    expect(storedCells(store).every((c) => c.status === 'done')).toBe(true);
  }, 120_000);
});

describe('kill -9 at random points, then resume', () => {
  let server: FaultServer;
  beforeAll(async () => {
    server = await startFaultServer({ faultRate: 0, seed: 1 });
  });
  afterAll(() => server.close());

  it('ends with every cell exactly once, identical to an uninterrupted run, with no repeated request for a stored cell', async () => {
    const dir = workdir();
    const suite = writeSuite(dir, 2000);
    const model = `openai:echo@${server.url}`;
    const args = (store: string) => [
      'run',
      '--suite',
      suite,
      '--models',
      model,
      '--store',
      store,
      '--concurrency',
      '16',
    ];

    const reference = join(dir, 'reference.db');
    expect((await runCli(args(reference))).code).toBe(0);
    const expected = storedCells(reference);
    expect(expected).toHaveLength(2000);

    const store = join(dir, 'killed.db');
    const before = new Map(server.requestsByPrompt());
    const requestsSoFar = (prompt: string) =>
      (server.requestsByPrompt().get(prompt) ?? 0) - (before.get(prompt) ?? 0);
    // After each kill: which cells were stored, and how often each had been requested by then.
    const frozen = new Map<string, number>();
    let kills = 0;
    for (let round = 0; round < 4; round++) {
      const stored = existsSync(store) ? storedCells(store).filter((c) => c.status === 'done').length : 0;
      const { child, done } = startCli(args(store));
      // A random point of the calls still owed: early, mid-run or late, counted in requests rather
      // than time, so a run fast enough to finish within any fixed delay is still cut short.
      const calls = server.requests();
      const at = calls + 1 + Math.floor(Math.random() * Math.max(1, 2000 - stored - 50));
      await waitFor(() => server.requests() >= at, 20_000);
      child.kill('SIGKILL');
      const r = await done;
      if (r.signal === 'SIGKILL') kills++;
      if (!existsSync(store)) continue;
      for (const c of storedCells(store)) {
        const prompt = `question number ${c.test_id.slice(1)}`;
        if (c.status === 'done' && !frozen.has(prompt)) frozen.set(prompt, requestsSoFar(prompt));
      }
    }
    expect(kills).toBeGreaterThanOrEqual(3);
    expect(frozen.size).toBeGreaterThan(0);
    expect(frozen.size).toBeLessThan(2000);

    const last = await runCli(args(store));
    expect(last.code).toBe(0);
    const got = storedCells(store);
    expect(got).toEqual(expected);
    const conn = new Database(store, { readonly: true });
    const dupes = conn
      .prepare('SELECT COUNT(*) AS n FROM (SELECT test_id FROM cells GROUP BY test_id HAVING COUNT(*) > 1)')
      .get() as { n: number };
    conn.close();
    expect(dupes.n).toBe(0);
    for (const [prompt, count] of frozen) expect(requestsSoFar(prompt), prompt).toBe(count);

    // Re-running the finished command makes no request at all.
    const total = server.requests();
    const again = await runCli(args(store));
    expect(again.code).toBe(0);
    expect(server.requests()).toBe(total);
    expect(again.stdout).toMatch(/\| 2000 \| 2000 \| 0 \| 0 \| 2000 \|/);
  }, 240_000);
});

describe('secrets', () => {
  it('a sentinel API key reaches the server but never the store, cache keys, logs or exports', async () => {
    const sentinel = 'sk-SENTINEL-7f3a9c1e-do-not-store';
    const seen: string[] = [];
    const server = await startFaultServer({
      faultRate: 0.3,
      seed: 3,
      hangMs: 2_000,
      onRequest: (req) => seen.push(String(req.headers.authorization)),
    });
    try {
      const dir = workdir();
      const suite = writeSuite(dir, 40);
      const store = join(dir, 'secret.db');
      const out = join(dir, 'summary.json');
      const env = cleanEnv({ OPENAI_API_KEY: sentinel });
      const spec = `openai:fault@${server.url}`;
      const run = await runCli(
        [
          'run',
          '--config',
          fastRetryConfig(dir),
          '--suite',
          suite,
          '--models',
          spec,
          '--store',
          store,
          '--format',
          'json',
          '--out',
          out,
          '--max-retries',
          '1',
          '--timeout-ms',
          '500',
        ],
        { env },
      );
      const exported = await runCli(['export', '--store', store], { env });
      expect(seen.some((h) => h === `Bearer ${sentinel}`)).toBe(true);
      const texts = [run.stdout, run.stderr, exported.stdout, exported.stderr, readFileSync(out, 'utf8')];
      for (const f of readdirSync(dir)) texts.push(readFileSync(join(dir, f)).toString('latin1'));
      for (const t of texts) expect(t.includes(sentinel)).toBe(false);
      expect(exported.stdout.split('\n').filter(Boolean)).toHaveLength(40);
    } finally {
      await server.close();
    }
  }, 60_000);
});

describe('--dry-run', () => {
  it('prints calls and an estimate, and writes nothing', async () => {
    const dir = workdir();
    const suite = writeSuite(dir, 10);
    const store = join(dir, 'dry.db');
    const r = await runCli(
      [
        'run',
        '--suite',
        suite,
        '--models',
        'openai:gpt-4o-mini',
        '--repeats',
        '2',
        '--store',
        store,
        '--dry-run',
        '--format',
        'json',
      ],
      { env: cleanEnv({ OPENAI_API_KEY: 'sk-test' }) },
    );
    expect(r.code).toBe(0);
    const estimate = JSON.parse(r.stdout) as {
      models: { cells: number; calls: number; maxCostUsd: number; maxOutputTokens: number }[];
    };
    expect(estimate.models[0]).toMatchObject({ cells: 20, calls: 20, maxOutputTokens: 20 * 256 });
    expect(estimate.models[0]?.maxCostUsd).toBeGreaterThan(0);
    expect(existsSync(store)).toBe(false);
  });
});
