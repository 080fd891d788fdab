import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { type IncomingMessage, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, cleanEnv, runCli, startCli } from '../../test-support/cli/cli.js';
import { type FaultServer, startFaultServer } from '../../test-support/fault-server.js';
import { damageTable } from '../../test-support/store/damaged-store.js';

/**
 * `waver view` through the built CLI: it refuses non-loopback addresses unless asked, serves the
 * report, and its SSE endpoint streams progress that changes while a real `waver run` (another
 * process, against a local OpenAI-compatible server) writes to the same store.
 */

const env = cleanEnv();
const dir = mkdtempSync(join(tmpdir(), 'waver-view-e2e-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(assertBuilt);

describe('waver view address policy', () => {
  it('refuses a non-loopback --host: exit 2 and one line saying why', async () => {
    const r = await runCli(['view', '--store', join(dir, 'x.db'), '--host', '0.0.0.0'], { cwd: dir, env });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim()).toBe(
      'waver: --host: refusing to bind 0.0.0.0: it is not a loopback address and the viewer has no authentication; pass --allow-remote to serve stores and reports on the network',
    );
  });

  it('a bad port is exit 2 too', async () => {
    const r = await runCli(['view', '--port', 'http'], { cwd: dir, env });
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe("waver: --port: not a port: 'http'");
  });
});

interface ProgressEvent {
  state: string;
  run?: { id: string; status: string };
  total: number;
  done: number;
  failed: number;
}

/** Reads `event: progress` messages from an SSE response as they arrive. */
function sse(url: string): { events: ProgressEvent[]; contentType: Promise<string>; close: () => void } {
  const events: ProgressEvent[] = [];
  let buffer = '';
  let res: IncomingMessage | undefined;
  const req = request(url);
  const contentType = new Promise<string>((resolveType, reject) => {
    req.on('response', (r) => {
      res = r;
      resolveType(String(r.headers['content-type']));
      r.setEncoding('utf8');
      r.on('data', (chunk: string) => {
        buffer += chunk;
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const message = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const lines = message.split('\n');
          if (!lines.includes('event: progress')) continue;
          const data = lines.find((l) => l.startsWith('data: '));
          if (data) events.push(JSON.parse(data.slice(6)) as ProgressEvent);
        }
      });
    });
    req.on('error', reject);
  });
  req.end();
  return { events, contentType, close: () => (res ? res.destroy() : req.destroy()) };
}

function get(url: string): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolveGet, reject) => {
    request(url, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        body += d;
      });
      res.on('end', () =>
        resolveGet({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), body }),
      );
    })
      .on('error', reject)
      .end();
  });
}

async function waitFor(predicate: () => boolean, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('waver view with a run in progress', () => {
  let server: FaultServer;
  beforeAll(async () => {
    server = await startFaultServer({ faultRate: 0, seed: 1 });
  });
  afterAll(() => server.close());

  it('serves the report, and its SSE stream shows progress changing while `waver run` writes the store', async () => {
    const store = join(dir, 'live.db');
    const suite = join(dir, 'suite.jsonl');
    const tests = 40;
    writeFileSync(
      suite,
      `${Array.from({ length: tests }, (_, i) => JSON.stringify({ id: `t${i}`, prompt: `question ${i}` })).join('\n')}\n`,
    );
    // 120 requests a minute: a burst of 20, then 2 a second, so the run lasts ~10 s and the
    // viewer's once-a-second poll sees it at several points.
    const config = join(dir, 'waver.yaml');
    writeFileSync(
      config,
      `models:\n  - provider: openai\n    model: echo\n    baseURL: ${server.url}\n    rpm: 120\nconcurrency: 1\n`,
    );

    const viewer = startCli(['view', '--store', store], { cwd: dir, env });
    try {
      let url = '';
      viewer.child.stdout?.on('data', (d: Buffer) => {
        url ||= d.toString().trim();
      });
      await waitFor(() => url !== '', 20_000);
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);

      const stream = sse(`${url}stores/0/events`);
      expect(await stream.contentType).toBe('text/event-stream; charset=utf-8');
      await waitFor(() => stream.events.length > 0, 10_000);
      // The store does not exist yet: the viewer waits for it.
      expect(stream.events[0]?.state).toBe('missing');

      const run = await runCli(['run', '--config', config, '--suite', suite, '--store', store], {
        cwd: dir,
        env,
      });
      expect(run.code, run.stderr).toBe(0);
      const last = () => stream.events.at(-1);
      await waitFor(() => last()?.run?.status === 'complete' && last()?.done === tests, 10_000);
      stream.close();

      const ok = stream.events.filter((e) => e.state === 'ok');
      const runIds = new Set(ok.map((e) => e.run?.id));
      expect(runIds.size).toBe(1);
      // Progress moved while the run was writing: distinct intermediate counts, never going back.
      const running = ok.filter((e) => e.run?.status === 'running' && e.done > 0 && e.done < tests);
      expect(new Set(running.map((e) => e.done)).size, JSON.stringify(stream.events)).toBeGreaterThanOrEqual(
        2,
      );
      const dones = ok.map((e) => e.done);
      expect(dones).toEqual([...dones].sort((a, b) => a - b));
      expect(last()).toMatchObject({ total: tests, done: tests, failed: 0 });

      const report = await get(`${url}stores/0/report`);
      expect(report.status).toBe(200);
      expect(report.type).toBe('text/html; charset=utf-8');
      expect(report.body.toLowerCase()).toContain('<!doctype html>');
      const page = await get(`${url}stores/0`);
      expect(page.status).toBe(200);
      expect(page.body).toContain('<td data-f="status">complete</td>');
      // Searched in the viewer's worker thread: t3 and t30-t39.
      const cells = await get(`${url}stores/0/transcripts?q=question%203`);
      expect(cells.status).toBe(200);
      const data = /<script type="application\/json" id="waver-data">(.*?)<\/script>/s.exec(cells.body)?.[1];
      expect((JSON.parse(data as string) as { paged: { rows: unknown[] } }).paged.rows).toHaveLength(11);
    } finally {
      viewer.child.kill('SIGTERM');
    }
    const stopped = await viewer.done;
    expect(stopped.code).toBe(0);
  });
});

describe('waver view of a page-corrupted store', () => {
  let server: FaultServer;
  beforeAll(async () => {
    server = await startFaultServer({ faultRate: 0, seed: 2 });
  });
  afterAll(() => server.close());

  it('shows it as unreadable on the index and its page, and every route answers why (503), never 500', async () => {
    const store = join(dir, 'damaged.db');
    const suite = join(dir, 'two.jsonl');
    writeFileSync(suite, '{"id":"a","prompt":"one"}\n{"id":"b","prompt":"two"}\n');
    const run = await runCli(
      ['run', '--suite', suite, '--models', `openai:m@${server.url}`, '--store', store],
      {
        cwd: dir,
        env,
      },
    );
    expect(run.code, run.stderr).toBe(0);
    damageTable(store, 'cells');
    const why = /the store is damaged \(database disk image is malformed: .+\); restore it from a copy/;

    const viewer = startCli(['view', '--store', store], { cwd: dir, env });
    try {
      let url = '';
      viewer.child.stdout?.on('data', (d: Buffer) => {
        url ||= d.toString().trim();
      });
      await waitFor(() => url !== '', 20_000);
      const index = await get(url);
      expect(index.status).toBe(200);
      expect(index.body).toMatch(/cannot be read: the store is damaged/);
      const page = await get(`${url}stores/0`);
      expect(page.status).toBe(503);
      expect(page.type).toBe('text/html; charset=utf-8');
      expect(page.body).toMatch(why);
      for (const route of ['report', 'transcripts', 'progress', 'label/data']) {
        const r = await get(`${url}stores/0/${route}`);
        expect(r.status, route).toBe(503);
        expect(r.body, route).toMatch(why);
        expect(r.body, route).toContain(store);
      }
      const stream = sse(`${url}stores/0/events`);
      await waitFor(() => stream.events.length > 0, 10_000);
      stream.close();
      expect(stream.events[0]?.state).toBe('unreadable');
    } finally {
      viewer.child.kill('SIGTERM');
    }
    expect((await viewer.done).code).toBe(0);
  });
});
