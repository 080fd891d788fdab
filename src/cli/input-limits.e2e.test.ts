import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, cleanEnv, queryStore, runCli } from '../test-support/cli/cli.js';
import { type FaultServer, startFaultServer } from '../test-support/fault-server.js';

/** Limits on what a run takes: a response body past its cap, a timeout Node's timers cannot hold. */

beforeAll(assertBuilt);

function workdir(yaml = ''): string {
  const dir = mkdtempSync(join(tmpdir(), 'waver-limits-'));
  writeFileSync(join(dir, 'suite.jsonl'), `${JSON.stringify({ id: 't0', prompt: 'hi' })}\n`);
  writeFileSync(join(dir, 'waver.yaml'), yaml);
  return dir;
}

/** An OpenAI-compatible endpoint whose every chat answer is a body of `HUGE` bytes, sent as fast as it is read. */
async function startHugeBodyServer() {
  let posts = 0;
  /** Bytes the server got onto the wire for the chat calls before the client dropped them. */
  let sent = 0;
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      // The reachability check (GET) counts nothing: it reads a few kilobytes at most.
      const post = req.method === 'POST';
      if (post) posts++;
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      res.write('{"choices":[{"message":{"role":"assistant","content":"');
      let counted = 0;
      const pump = () => {
        while (counted < HUGE && !res.destroyed) {
          counted += chunk.length;
          if (post) sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end('"}}]}');
      };
      pump();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    posts: () => posts,
    sent: () => sent,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

const HUGE = 256 * 1024 * 1024;
/**
 * Far below the 8 x 64 MiB the calls would hold with a cap each (456-612 MB measured so), above the
 * 240-260 MB measured with one budget (docs/architecture.md#bounds-on-what-a-call-takes).
 */
const RSS_BOUND_MB = 350;

describe('a response body past maxResponseBytes', () => {
  let server: Awaited<ReturnType<typeof startHugeBodyServer>>;
  beforeAll(async () => {
    server = await startHugeBodyServer();
  });
  afterAll(() => server.close());

  it('fails the call with a clear error as soon as the body passes the cap, reading no further, asked once', async () => {
    const dir = workdir('maxResponseBytes: 8388608\nbackoff:\n  baseMs: 1\n  capMs: 5\n');
    const store = join(dir, 'store.db');
    const args = ['run', '--suite', 'suite.jsonl', '--models', `openai:m@${server.url}`, '--store', store];
    const r = await runCli(args, { cwd: dir });
    expect(r.code, r.stderr).toBe(3);
    const [cell] = queryStore<{ status: string; error_kind: string; error_message: string }>(
      store,
      'SELECT status, error_kind, error_message FROM cells',
    );
    expect(cell).toMatchObject({ status: 'failed', error_kind: 'too_large' });
    expect(cell?.error_message).toMatch(/the response body passed 8388608 bytes \(maxResponseBytes\)/);
    // It never fits: retrying it (4 retries by default) would only read it again.
    expect(server.posts()).toBe(1);
    expect(server.sent()).toBeLessThan(HUGE);
  }, 60_000);

  it('at --concurrency 8 the calls in flight share one budget: the run stays far below 8 bodies at the cap', async () => {
    const dir = workdir();
    writeFileSync(
      join(dir, 'suite.jsonl'),
      `${Array.from({ length: 8 }, (_, i) => JSON.stringify({ id: `t${i}`, prompt: `p${i}` })).join('\n')}\n`,
    );
    // The process's peak resident memory, printed as it exits.
    const hook = join(dir, 'max-rss.cjs');
    writeFileSync(
      hook,
      "process.on('exit', () => process.stderr.write('max-rss-kb ' + process.resourceUsage().maxRSS + '\\n'));\n",
    );
    const store = join(dir, 'store.db');
    const args = ['run', '--suite', 'suite.jsonl', '--models', `openai:m@${server.url}`, '--store', store];
    const r = await runCli([...args, '--concurrency', '8', '--max-retries', '0'], {
      cwd: dir,
      env: cleanEnv({ NODE_OPTIONS: `--require ${hook}` }),
    });
    expect(r.code, r.stderr).toBe(3);
    const rssMb = Number(/max-rss-kb (\d+)/.exec(r.stderr)?.[1]) / 1024;
    console.log(`8 calls in flight, each answered 256 MB (cap 64 MiB): max RSS ${rssMb.toFixed(0)} MB`);
    // Each call holding up to the cap would be 8 x 64 MiB; one budget holds under 2 x 64 MiB of bodies.
    expect(rssMb).toBeLessThan(RSS_BOUND_MB);
    const kinds = queryStore<{ error_kind: string }>(store, 'SELECT error_kind FROM cells');
    expect(kinds).toEqual(Array.from({ length: 8 }, () => ({ error_kind: 'too_large' })));
  }, 120_000);
});

describe('--timeout-ms past what a timer holds', () => {
  let fault: FaultServer;
  beforeAll(async () => {
    fault = await startFaultServer({ faultRate: 0, seed: 1 });
  });
  afterAll(() => fault.close());

  it('is refused at parse time: exit 2, no request, no store', async () => {
    const dir = workdir();
    const store = join(dir, 'store.db');
    const r = await runCli(
      [
        'run',
        '--suite',
        'suite.jsonl',
        '--models',
        `openai:m@${fault.url}`,
        '--store',
        store,
        '--timeout-ms',
        '99999999999999',
      ],
      { cwd: dir },
    );
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/timeoutMs.*2147483647|--timeout-ms.*2147483647/);
    expect(fault.requests()).toBe(0);
    expect(existsSync(store)).toBe(false);
  }, 30_000);
});

describe('a key in a base URL', () => {
  let fault: FaultServer;
  beforeAll(async () => {
    fault = await startFaultServer({ faultRate: 0, seed: 2 });
  });
  afterAll(() => fault.close());

  it('is in no stored identity, label, config, printed line or report', async () => {
    const dir = workdir();
    const store = join(dir, 'store.db');
    const secret = 'sk-in-the-url-0123456789';
    const spec = fault.url.replace('http://', `http://user:${secret}@`);
    const r = await runCli(
      ['run', '--suite', 'suite.jsonl', '--models', `openai:m@${spec}`, '--store', store, '--format', 'json'],
      {
        cwd: dir,
      },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout + r.stderr).not.toContain(secret);
    expect(r.stdout).toContain(`openai:m@${fault.url}`);
    const report = await runCli(['report', '--store', store, '--format', 'md'], { cwd: dir });
    expect(report.code, report.stderr).toBe(0);
    expect(report.stdout).not.toContain(secret);
    for (const file of [store, `${store}-wal`])
      if (existsSync(file)) expect(readFileSync(file).includes(secret)).toBe(false);
    expect(queryStore<{ model: string }>(store, 'SELECT model FROM cells')).toEqual([
      { model: `openai:m@${fault.url}` },
    ]);
  }, 30_000);
});

describe('--out a directory or a full device, --store /dev/null', () => {
  let fault: FaultServer;
  beforeAll(async () => {
    fault = await startFaultServer({ faultRate: 0, seed: 3 });
  });
  afterAll(() => fault.close());

  it('are exit 2 naming the path, after the run is stored; a device is written, never replaced', async () => {
    const dir = workdir();
    const store = join(dir, 'store.db');
    const run = ['run', '--suite', 'suite.jsonl', '--models', `openai:m@${fault.url}`, '--store', store];
    mkdirSync(join(dir, 'outdir'));
    const asDir = await runCli([...run, '--out', 'outdir'], { cwd: dir });
    expect(asDir.code, asDir.stderr).toBe(2);
    expect(asDir.stderr.trim().split('\n').at(-1)).toBe(
      'waver: outdir: is a directory: name a file for --out',
    );
    for (const args of [run, ['report', '--store', store, '--format', 'md']]) {
      const full = await runCli([...args, '--out', '/dev/full'], { cwd: dir });
      expect(full.code, full.stderr).toBe(2);
      expect(full.stderr.trim().split('\n').at(-1)).toMatch(
        /^waver: \/dev\/full: cannot write the output \(disk full\)/,
      );
      expect(statSync('/dev/full').isCharacterDevice()).toBe(true);
    }
    expect(readdirSync(dir).filter((f) => f.includes('partial'))).toEqual([]);
    const devNull = await runCli([...run.slice(0, -1), '/dev/null'], { cwd: dir });
    expect(devNull.code, devNull.stderr).toBe(2);
    expect(devNull.stderr.trim().split('\n').at(-1)).toMatch(/^waver: \/dev\/null: /);
  }, 60_000);
});
