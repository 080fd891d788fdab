import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tinyModelMissing, tinyModelPath } from '../../test-support/shared.js';
import { assertBuilt, cleanEnv, runCli, servedUrl, startCli } from '../test-support/cli.js';

/**
 * `waver serve` as a hostile web page and an unlucky operator would meet it: a Host that is not
 * loopback (DNS rebinding), a page on another origin posting to it from the user's Chromium
 * (CSRF), a body that is not JSON, files past the storage bound, freed with DELETE, a malformed
 * %-escape, and the model named by its file's name. docs/batch.md#who-may-call-waver-serve.
 */

const CHROMIUM = '/usr/bin/chromium';
const chromiumMissing = existsSync(CHROMIUM) ? undefined : `skipped: ${CHROMIUM} is missing`;

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A request with exactly the headers given (fetch would not let a test set Host or Origin). */
function raw(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: string | Buffer,
): Promise<Raw> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: u.hostname, port: u.port, path: u.pathname, method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        text += d;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

function multipart(name: string, content: Buffer): { type: string; body: Buffer } {
  const boundary = 'waverboundary';
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\ncontent-disposition: form-data; name="purpose"\r\n\r\nbatch\r\n` +
        `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="${name}"\r\n` +
        'content-type: application/jsonl\r\n\r\n',
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { type: `multipart/form-data; boundary=${boundary}`, body };
}

describe.skipIf(tinyModelMissing)(
  `waver serve refuses what is not a local client ${tinyModelMissing ?? ''}`,
  () => {
    let serve: ReturnType<typeof startCli>;
    let base: string;
    let host: string;
    const log: string[] = [];
    const statusesOf = (method: string, path: string) =>
      log
        .join('')
        .split('\n')
        .filter((l) => l.startsWith(`${method} ${path} `))
        .map((l) => Number(l.split(' ')[2]));

    beforeAll(async () => {
      assertBuilt();
      serve = startCli([
        'serve',
        '--model',
        `gguf:${tinyModelPath}`,
        '--port',
        '0',
        '--context-size',
        '256',
        '--max-storage-mb',
        '1',
      ]);
      serve.child.stderr?.on('data', (d: Buffer) => log.push(d.toString()));
      base = (await servedUrl(serve)).replace(/\/v1$/, '');
      host = new URL(base).host;
    }, 60_000);

    afterAll(async () => {
      serve?.child.kill('SIGTERM');
      await serve?.done;
    });

    it('names the model by its file, not its path, and answers each request with an x-request-id', async () => {
      const res = await raw(`${base}/v1/models`, 'GET', { host });
      expect(res.status).toBe(200);
      expect(JSON.parse(res.body).data.map((m: { id: string }) => m.id)).toEqual(['stories260K.gguf']);
      expect(res.headers['x-request-id']).toMatch(/^req_[0-9a-f]{32}$/);
      const one = await raw(`${base}/v1/models/stories260K.gguf`, 'GET', { host });
      expect(one.status).toBe(200);
    });

    it('refuses a Host that is not loopback (DNS rebinding), for every route', async () => {
      for (const [method, path] of [
        ['GET', '/v1/models'],
        ['GET', '/v1/files'],
        ['POST', '/v1/chat/completions'],
      ] as const) {
        const res = await raw(
          `${base}${path}`,
          method,
          { host: 'attacker.example', 'content-type': 'application/json' },
          method === 'POST' ? JSON.stringify({ messages: [{ role: 'user', content: 'hi' }] }) : undefined,
        );
        expect(res.status, path).toBe(403);
        expect(JSON.parse(res.body).error).toMatchObject({
          type: 'invalid_request_error',
          code: 'forbidden',
        });
      }
      expect((await raw(`${base}/v1/files`, 'GET', { host: `localhost:${new URL(base).port}` })).status).toBe(
        200,
      );
    });

    it('refuses another origin, and a body that is not JSON', async () => {
      const chat = JSON.stringify({ messages: [{ role: 'user', content: 'hi' }], max_tokens: 2 });
      const fromPage = await raw(
        `${base}/v1/chat/completions`,
        'POST',
        { host, origin: 'http://attacker.example', 'content-type': 'application/json' },
        chat,
      );
      expect(fromPage.status).toBe(403);
      const plain = await raw(
        `${base}/v1/chat/completions`,
        'POST',
        { host, 'content-type': 'text/plain' },
        chat,
      );
      expect(plain.status).toBe(415);
      expect(JSON.parse(plain.body).error.code).toBe('unsupported_media_type');
      const ok = await raw(
        `${base}/v1/chat/completions`,
        'POST',
        { host, 'content-type': 'application/json' },
        chat,
      );
      expect(ok.status).toBe(200);
    });

    it('bounds what files may hold together, and DELETE frees them', async () => {
      const part = Buffer.alloc(600 * 1024, '{"custom_id":"x"}\n');
      const first = multipart('a.jsonl', part);
      const a = await raw(`${base}/v1/files`, 'POST', { host, 'content-type': first.type }, first.body);
      expect(a.status).toBe(200);
      const id = JSON.parse(a.body).id as string;
      const second = multipart('b.jsonl', part);
      const refused = await raw(
        `${base}/v1/files`,
        'POST',
        { host, 'content-type': second.type },
        second.body,
      );
      expect(refused.status).toBe(413);
      expect(JSON.parse(refused.body).error.code).toBe('storage_limit_exceeded');
      const deleted = await raw(`${base}/v1/files/${id}`, 'DELETE', { host });
      expect(deleted.status).toBe(200);
      expect(JSON.parse(deleted.body)).toEqual({ id, object: 'file', deleted: true });
      expect((await raw(`${base}/v1/files/${id}`, 'GET', { host })).status).toBe(404);
      const b = await raw(`${base}/v1/files`, 'POST', { host, 'content-type': second.type }, second.body);
      expect(b.status).toBe(200);
      const bid = JSON.parse(b.body).id as string;
      expect((await raw(`${base}/v1/files/${bid}`, 'DELETE', { host })).status).toBe(200);
    });

    it('answers a malformed %-escape in an id with 400, not 500', async () => {
      for (const path of ['/v1/files/%E0%A4%A', '/v1/models/%zz', '/v1/batches/%']) {
        const res = await raw(`${base}${path}`, 'GET', { host });
        expect(res.status, path).toBe(400);
        expect(JSON.parse(res.body).error.code).toBe('invalid_value');
      }
    });

    describe.skipIf(chromiumMissing !== undefined)(
      `a page on another origin in Chromium ${chromiumMissing ?? ''}`,
      () => {
        let browser: Browser;
        let page: Server;
        beforeAll(async () => {
          // The attacker's page, on another loopback port: the posts a page may send without asking
          // (text/plain, multipart), and a JSON one (which a browser first asks about with a preflight).
          page = createServer((_req, res) => {
            res.writeHead(200, { 'content-type': 'text/html' });
            res.end(`<!doctype html><title>attack</title><script>
          const api = ${JSON.stringify(base)};
          const chat = JSON.stringify({ messages: [{ role: 'user', content: 'hi' }], max_tokens: 2 });
          const form = new FormData();
          form.append('purpose', 'batch');
          form.append('file', new Blob(['x'.repeat(20000)]), 'big.jsonl');
          Promise.allSettled([
            fetch(api + '/v1/chat/completions', { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: chat }),
            fetch(api + '/v1/files', { method: 'POST', mode: 'no-cors', body: form }),
            fetch(api + '/v1/chat/completions', { method: 'POST', headers: { 'content-type': 'application/json' }, body: chat }),
            fetch(api + '/v1/files').then((r) => r.text()),
          ]).then((all) => { document.title = 'done ' + all.map((r) => r.status).join(','); });
        </script>`);
          });
          await new Promise<void>((r) => page.listen(0, '127.0.0.1', () => r()));
          browser = await chromium.launch({
            executablePath: CHROMIUM,
            args: ['--no-sandbox', '--disable-gpu'],
          });
        }, 60_000);
        afterAll(async () => {
          await browser?.close();
          await new Promise<void>((r) => (page ? page.close(() => r()) : r()));
        });

        it('gets no completion and stores no file', async () => {
          const before = {
            chat: statusesOf('POST', '/v1/chat/completions').length,
            files: statusesOf('POST', '/v1/files').length,
          };
          const tab = await browser.newPage();
          await tab.goto(`http://127.0.0.1:${(page.address() as AddressInfo).port}/`);
          await tab.waitForFunction("document.title.startsWith('done')", undefined, { timeout: 20_000 });
          // The page reads nothing: its cross-origin reads fail (no CORS is ever granted).
          expect(await tab.title()).toBe('done fulfilled,fulfilled,rejected,rejected');
          await tab.close();
          // Wait for the server's log lines of the page's two posts.
          for (let i = 0; i < 50 && statusesOf('POST', '/v1/files').length === before.files; i++)
            await new Promise((r) => setTimeout(r, 50));
          const chat = statusesOf('POST', '/v1/chat/completions').slice(before.chat);
          const files = statusesOf('POST', '/v1/files').slice(before.files);
          expect(chat).toContain(403);
          expect(chat).not.toContain(200);
          expect(files).toEqual([403]);
          const list = await raw(`${base}/v1/files`, 'GET', { host });
          expect(JSON.parse(list.body).data).toEqual([]);
        }, 30_000);
      },
    );
  },
);

/** The peak resident memory of a process so far (Linux: VmHWM), in bytes. */
function peakRss(pid: number): number {
  const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) * 1024;
}

/** Uploads `mib` MiB of JSONL lines as a batch file, streamed: the test never holds the file whole. */
function uploadStreamed(
  base: string,
  host: string,
  mib: number,
  seed: string,
): Promise<{ id: string; sha: string }> {
  const boundary = 'waverstreamboundary';
  const head = Buffer.from(
    `--${boundary}\r\ncontent-disposition: form-data; name="purpose"\r\n\r\nbatch\r\n` +
      `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="${seed}.jsonl"\r\n` +
      'content-type: application/jsonl\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const chunk = Buffer.alloc(1024 * 1024, `{"custom_id":"${seed}","body":{}}\n`);
  const sha = createHash('sha256');
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: u.hostname,
        port: u.port,
        path: '/v1/files',
        method: 'POST',
        headers: {
          host,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': head.length + mib * chunk.length + tail.length,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          text += d;
        });
        res.on('end', () =>
          res.statusCode === 200
            ? resolve({ id: (JSON.parse(text) as { id: string }).id, sha: sha.digest('hex') })
            : reject(new Error(`upload: ${res.statusCode} ${text}`)),
        );
      },
    );
    req.on('error', reject);
    req.write(head);
    let sent = 0;
    const more = () => {
      while (sent < mib) {
        sent++;
        sha.update(chunk);
        if (!req.write(chunk)) return void req.once('drain', more);
      }
      req.end(tail);
    };
    more();
  });
}

describe.skipIf(tinyModelMissing || !existsSync('/proc/self/status'))(
  `waver serve keeps uploaded files on disk ${tinyModelMissing ?? ''}`,
  () => {
    it('its memory does not grow with the files it holds, and it serves them back whole', async () => {
      const tmp = mkdtempSync(join(tmpdir(), 'waver-serve-files-e2e-'));
      const serve = startCli(
        [
          'serve',
          '--model',
          `gguf:${tinyModelPath}`,
          '--port',
          '0',
          '--context-size',
          '256',
          '--max-storage-mb',
          '512',
        ],
        { env: cleanEnv({ TMPDIR: tmp }) },
      );
      try {
        const base = (await servedUrl(serve)).replace(/\/v1$/, '');
        const host = new URL(base).host;
        const pid = serve.child.pid as number;
        const before = peakRss(pid);
        // Three files of 64 MiB: 192 MiB held. In memory, each upload took three copies.
        const files: { id: string; sha: string }[] = [];
        for (const seed of ['a', 'b', 'c']) files.push(await uploadStreamed(base, host, 64, seed));
        const grown = peakRss(pid) - before;
        expect(grown, `peak RSS grew ${(grown / 2 ** 20).toFixed(0)} MiB`).toBeLessThan(64 * 2 ** 20);
        // Read back through the API, streamed: the same bytes.
        const got = await new Promise<{ sha: string; bytes: number }>((resolve, reject) => {
          const sha = createHash('sha256');
          let bytes = 0;
          httpRequest(`${base}/v1/files/${files[1]?.id}/content`, { headers: { host } }, (res) => {
            res.on('data', (d: Buffer) => {
              bytes += d.length;
              sha.update(d);
            });
            res.on('end', () => resolve({ sha: sha.digest('hex'), bytes }));
          })
            .on('error', reject)
            .end();
        });
        expect(got).toEqual({ sha: files[1]?.sha, bytes: 64 * 2 ** 20 });
        expect(peakRss(pid) - before).toBeLessThan(64 * 2 ** 20);
      } finally {
        serve.child.kill('SIGTERM');
        await serve.done;
      }
      // The files' directory goes with the server.
      expect(readdirSync(tmp)).toEqual([]);
    }, 120_000);
  },
);

describe('waver serve --model', () => {
  it('refuses a model its descriptor does not run in this process, naming those that do', async () => {
    assertBuilt();
    for (const model of ['openai:m@http://127.0.0.1:9/v1', 'replay:./answers.jsonl']) {
      const r = await runCli(['serve', '--model', model, '--port', '0']);
      expect(r.code).toBe(2);
      expect(r.stderr.trim()).toBe(
        `waver: --model: serve takes a model run in this process (gguf:), got '${model}'`,
      );
    }
  });
});
