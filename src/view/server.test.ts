import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError } from '../errors.js';
import { CSP as REPORT_CSP } from '../report/html/page.js';
import { cacheKey } from '../run/cache-key.js';
import { suiteOf } from '../run/suite.js';
import { openStore } from '../store/store.js';
import { REPORTED } from '../test-support/report-store.js';
import { startViewer } from './server.js';

/** The viewer in process: address policy, pages, report, progress JSON and escaping. */

const dir = mkdtempSync(join(tmpdir(), 'waver-view-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Got {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function get(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Got> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers, method }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        body += d;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

interface PageData {
  s: string[];
  models: string[];
  t: { i: number }[];
  c: [number, number, number, 0 | 1, number, number][];
  paged: { first: number; total?: number; cells: number; rows: number[][]; query: Record<string, unknown> };
}

/** The data of a viewer's transcript page (the report browser's payload and the page's place). */
function dataOf(body: string): PageData {
  const json = /<script type="application\/json" id="waver-data">(.*?)<\/script>/s.exec(body)?.[1];
  return JSON.parse(json as string) as PageData;
}

/** Each row's first cell, decoded from the payload. */
function cellsOf(d: PageData) {
  return d.paged.rows.map(([n]) => {
    const [t, m, repeat, done, , error] = d.c[n as number] as PageData['c'][number];
    return {
      test: d.s[(d.t[t] as { i: number }).i],
      model: d.models[m],
      repeat,
      status: done ? 'done' : 'failed',
      ...(error >= 0 && { error: d.s[error] }),
    };
  });
}

/** A store with a run in progress: 3 tests x 2 repeats for one model, 2 cells done and 1 failed. */
function runningStore(path: string, label: string): string {
  const store = openStore(path);
  const suite = suiteOf('<b>suite</b>', [
    { id: 't1', prompt: 'one' },
    { id: 't2', prompt: 'two' },
    { id: 't3', prompt: 'three' },
  ]);
  store.suites.save(suite);
  const runId = store.runs.begin({
    suiteHash: suite.hash,
    config: { models: [label], repeats: 2 },
    waverVersion: 'test',
  });
  const request = { messages: [{ role: 'user' as const, content: 'one' }] };
  const ref = {
    suiteHash: suite.hash,
    model: label,
    modelIdentity: 'replay:x',
    runId,
    request,
    attempts: [],
  };
  const result = { text: 'ok', finishReason: 'stop' as const, usage: { inputTokens: 1, outputTokens: 1 } };
  store.cells.saveDone({ ...ref, testId: 't1', repeat: 0, key: cacheKey('replay:x', request, 0), result });
  store.cells.saveDone({ ...ref, testId: 't1', repeat: 1, key: cacheKey('replay:x', request, 1), result });
  store.cells.saveFailed({ ...ref, testId: 't2', repeat: 0, error: { kind: 'server', message: 'HTTP 500' } });
  store.close();
  return runId;
}

describe('startViewer address policy', () => {
  it.each(['0.0.0.0', '192.168.1.10', '::'])('refuses %s without allowRemote', async (host) => {
    const e = await startViewer({ protocols: [], host }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(InputError);
    expect((e as InputError).field).toBe('--host');
    expect((e as InputError).message).toMatch(
      /not a loopback address and the viewer has no authentication; pass --allow-remote/,
    );
  });

  it('binds a non-loopback address when allowed (and then takes any Host)', async () => {
    const viewer = await startViewer({ protocols: [], host: '0.0.0.0', allowRemote: true });
    try {
      expect(viewer.url).toMatch(/^http:\/\/0\.0\.0\.0:\d+\/$/);
      const port = new URL(viewer.url).port;
      expect((await get(`http://127.0.0.1:${port}/`, { Host: 'viewer.example:80' })).status).toBe(200);
    } finally {
      await viewer.close();
    }
  });
});

describe('the viewer on loopback', async () => {
  const storePath = join(dir, 'runs.db');
  const label = 'openai:m<script>alert(1)</script>';
  const runId = runningStore(storePath, label);
  const reportPath = join(dir, 'r.md');
  writeFileSync(reportPath, '# a report\n');
  const viewer = await startViewer({
    protocols: REPORTED,
    stores: [storePath, join(dir, 'later.db')],
    reports: [reportPath],
  });
  afterAll(() => viewer.close());

  it('lists stores and reports, with its own CSP (a nonce, nothing from outside)', async () => {
    const r = await get(viewer.url);
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(r.body).toContain('href="/stores/0"');
    expect(r.body).toContain('href="/reports/0"');
    // What each store holds, so the index is worth reading: its runs, cells and last run.
    expect(r.body).toMatch(/\d+ runs? · \d+ cells · last \d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
    expect(r.body).toContain('no runs yet');
    expect(r.headers['content-security-policy']).toMatch(
      /^default-src 'none'; script-src 'nonce-[A-Za-z0-9+/=]+'; style-src 'nonce-/,
    );
  });

  it('refuses a request whose Host is not loopback (DNS rebinding)', async () => {
    const r = await get(viewer.url, { Host: 'attacker.example' });
    expect(r.status).toBe(403);
  });

  it('progress JSON: the latest run, its suite and per-model coverage', async () => {
    const r = await get(`${viewer.url}stores/0/progress`);
    expect(r.status).toBe(200);
    const p = JSON.parse(r.body);
    expect(p).toMatchObject({
      state: 'ok',
      run: { id: runId, status: 'running', suiteName: '<b>suite</b>' },
      total: 6,
      done: 2,
      failed: 1,
      pending: 3,
      share: 2 / 6,
      writtenThisRun: 3,
      models: [{ label, total: 6, done: 2, failed: 1, pending: 3 }],
    });
    const later = JSON.parse((await get(`${viewer.url}stores/1/progress`)).body);
    expect(later.state).toBe('missing');
  });

  it('the store page escapes what the store holds, and its script runs under the nonce', async () => {
    const r = await get(`${viewer.url}stores/0`);
    expect(r.status).toBe(200);
    expect(r.body).toContain('&#60;b&#62;suite&#60;/b&#62;');
    expect(r.body).not.toContain('<b>suite</b>');
    const nonce = /'nonce-([^']+)'/.exec(String(r.headers['content-security-policy']))?.[1];
    expect(r.body).toContain(`<script nonce="${nonce}">`);
    expect(r.body).not.toMatch(/innerHTML|src=|https?:\/\//);
  });

  it('renders the store report on request: HTTP 200, html, under the report CSP', async () => {
    const r = await get(`${viewer.url}stores/0/report`);
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(r.headers['content-security-policy']).toBe(`${REPORT_CSP}; sandbox allow-scripts`);
    expect(r.body.slice(0, 100).toLowerCase()).toContain('<!doctype html>');
    expect(r.body).not.toContain('<script>alert(1)</script>');
  });

  it("browses every cell of a store in the report's browser: filtered by outcome, searched, every text escaped", async () => {
    const all = await get(`${viewer.url}stores/0/transcripts`);
    expect(all.status).toBe(200);
    const nonce = /'nonce-([^']+)'/.exec(String(all.headers['content-security-policy']))?.[1];
    // The report's browser: its filters and table, its script under the page's nonce.
    expect(all.body).toContain('<select id="f-outcome"');
    expect(all.body).toContain(`<script nonce="${nonce}">`);
    const page = dataOf(all.body);
    expect(page.paged).toMatchObject({ first: 1, total: 3, cells: 3 });
    expect(cellsOf(page).map((c) => [c.test, c.repeat, c.status])).toEqual([
      ['t1', 0, 'done'],
      ['t1', 1, 'done'],
      ['t2', 0, 'failed'],
    ]);
    // A model label is data, never markup: `<` is escaped even inside the JSON.
    expect(page.models).toEqual([label]);
    expect(all.body).not.toContain('<script>alert(1)</script>');
    const failed = dataOf((await get(`${viewer.url}stores/0/transcripts?outcome=failed`)).body);
    expect(cellsOf(failed).map((c) => c.error)).toEqual(['server: HTTP 500']);
    expect(failed.paged.total).toBe(1);
    // The report's search: test id, item, response and error, in any case.
    const found = async (q: string) =>
      cellsOf(dataOf((await get(`${viewer.url}stores/0/transcripts?q=${encodeURIComponent(q)}`)).body))
        .length;
    expect(await found('OK')).toBe(2);
    expect(await found('t2')).toBe(1);
    expect(await found('http 500')).toBe(1);
    expect(await found('nowhere')).toBe(0);
  });

  it('serves report files with a type from the extension; unknown paths are 404', async () => {
    const r = await get(`${viewer.url}reports/0`);
    expect(r).toMatchObject({ status: 200, body: '# a report\n' });
    expect(r.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect((await get(`${viewer.url}reports/7`)).status).toBe(404);
    expect((await get(`${viewer.url}stores/0/nothing`)).status).toBe(404);
    expect((await get(`${viewer.url}stores/1/report`)).status).toBe(404);
  });

  it('a page answers HEAD without a body, and another method with a 405 naming GET and HEAD', async () => {
    const head = await get(`${viewer.url}stores/0/progress`, {}, 'HEAD');
    expect(head).toMatchObject({ status: 200, body: '' });
    expect(Number(head.headers['content-length'])).toBeGreaterThan(0);
    const post = await get(`${viewer.url}stores/0/progress`, {}, 'POST');
    expect(post).toMatchObject({ status: 405, body: 'only GET and HEAD\n' });
    expect(post.headers.allow).toBe('GET, HEAD');
    expect((await get(`${viewer.url}nowhere`, {}, 'POST')).status).toBe(404);
  });
});

describe('the transcript browser on a store of 120 cells', async () => {
  const path = join(dir, 'many.db');
  const store = openStore(path);
  const suite = suiteOf(
    'many.jsonl',
    Array.from({ length: 60 }, (_, i) => ({ id: `t${String(i).padStart(2, '0')}`, prompt: `question ${i}` })),
  );
  store.suites.save(suite);
  const runId = store.runs.begin({
    suiteHash: suite.hash,
    config: { models: ['a', 'b'] },
    waverVersion: 'test',
  });
  store.cells.write(
    ['a', 'b'].flatMap((model) =>
      suite.tests.map((t) => {
        const request = { messages: [{ role: 'user' as const, content: t.prompt }] };
        return {
          kind: 'done' as const,
          cell: {
            suiteHash: suite.hash,
            testId: t.id,
            model,
            modelIdentity: `replay:${model}`,
            repeat: 0,
            runId,
            key: cacheKey(`replay:${model}`, request, 0),
            request,
            result: {
              text: `answer ${model} ${t.id}`,
              finishReason: 'stop' as const,
              usage: { inputTokens: 1, outputTokens: 1 },
            },
            attempts: [],
          },
        };
      }),
    ),
  );
  store.close();
  const viewer = await startViewer({ protocols: REPORTED, stores: [path] });
  afterAll(() => viewer.close());

  it('pages through every cell in order, each page linking the next; a model filter keeps its own', async () => {
    const tests: string[] = [];
    let next: string | undefined = `${viewer.url}stores/0/transcripts`;
    for (let pages = 0; next && pages < 10; pages++) {
      const page = await get(next);
      const data = dataOf(page.body);
      expect(data.paged.first).toBe(tests.length + 1);
      tests.push(...cellsOf(data).map((c) => `${c.model}${c.test}`));
      const link = /<a id="next" href="([^"]+)"/.exec(page.body)?.[1];
      next = link ? new URL(link.replace(/&amp;/g, '&'), viewer.url).toString() : undefined;
    }
    expect(tests).toHaveLength(120);
    expect(tests.slice(0, 2)).toEqual(['at00', 'at01']);
    expect(tests.at(-1)).toBe('bt59');
    expect(new Set(tests).size).toBe(120);
    const onlyB = dataOf((await get(`${viewer.url}stores/0/transcripts?model=b&q=T5`)).body);
    expect(cellsOf(onlyB).map((c) => c.test)).toEqual(Array.from({ length: 10 }, (_, i) => `t5${i}`));
    expect(onlyB.paged.query).toEqual({ model: 'b', q: 'T5' });
  });
});
