import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { budgetFor } from './byte-budget.js';
import { ProviderError } from './errors.js';
import { boundedFetch, leanFetch } from './lean-fetch.js';

/** A real loopback server whose routes each exercise one part of what fetch promises the SDKs. */
let server: Server;
let base = '';

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      if (req.url === '/echo') {
        res.setHeader('set-cookie', ['a=1', 'b=2']);
        res.setHeader('x-length', String(req.headers['content-length']));
        res.writeHead(201, 'Made', { 'content-type': 'application/json' });
        res.end(JSON.stringify({ method: req.method, auth: req.headers.authorization, body }));
      } else if (req.url === '/empty') {
        res.writeHead(204);
        res.end();
      } else if (req.url === '/cut') {
        // Promise 100 bytes, send 5, then drop the connection.
        res.writeHead(200, { 'content-length': '100' });
        res.write('hello');
        setTimeout(() => res.socket?.destroy(), 20);
      } else if (req.url === '/big') {
        // 2 MiB with no length announced.
        res.writeHead(200);
        res.end(Buffer.alloc(2 * 1024 * 1024));
      } else if (req.url === '/big-declared') {
        res.writeHead(200, { 'content-length': String(2 * 1024 * 1024) });
        res.end(Buffer.alloc(2 * 1024 * 1024));
      } else if (req.url === '/slow') {
        res.writeHead(200, { 'content-length': '100' });
        res.write('partial');
      } else if (req.url?.startsWith('/kib/')) {
        // As many KiB as the path says, with no length announced.
        res.writeHead(200);
        res.end(Buffer.alloc(1024 * Number(req.url.slice(5)), 0x61));
      } else if (req.url === '/stall') {
        // 600 KiB, then nothing more until the client gives up.
        res.writeHead(200);
        res.write(Buffer.alloc(600 * 1024, 0x61));
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe('leanFetch', () => {
  it('sends method, headers and body, and hands back status, headers and the whole body', async () => {
    const res = await leanFetch(`${base}/echo`, {
      method: 'POST',
      headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
      body: JSON.stringify({ q: 'héllo' }),
    });
    expect(res.status).toBe(201);
    expect(res.statusText).toBe('Made');
    expect(res.headers.get('set-cookie')).toBe('a=1, b=2');
    // The body's length in bytes, not characters: "é" is two.
    expect(res.headers.get('x-length')).toBe(String(Buffer.byteLength('{"q":"héllo"}')));
    expect(await res.json()).toEqual({ method: 'POST', auth: 'Bearer k', body: '{"q":"héllo"}' });
  });

  it('encodes a multipart body as fetch would', async () => {
    const form = new FormData();
    form.append('purpose', 'batch');
    const res = await leanFetch(`${base}/echo`, { method: 'POST', body: form });
    const { body } = (await res.json()) as { body: string };
    expect(body).toMatch(/name="purpose"\r\n\r\nbatch/);
  });

  it('gives a 204 an empty body', async () => {
    const res = await leanFetch(`${base}/empty`);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
  });

  it('rejects with a reset when the connection drops mid-body', async () => {
    await expect(leanFetch(`${base}/cut`)).rejects.toMatchObject({ code: 'ECONNRESET' });
  });

  it('rejects with the abort reason when the signal fires mid-body', async () => {
    const controller = new AbortController();
    const pending = leanFetch(`${base}/slow`, { signal: controller.signal });
    setTimeout(() => controller.abort(), 30);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('rejects a refused connection with its code', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    await expect(leanFetch(`http://127.0.0.1:${port}/`)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});

describe('leanFetch responses', () => {
  it('read once, as fetch allows, and hand the rest to a real Response', async () => {
    const res = await leanFetch(`${base}/echo`, { method: 'POST', body: 'x' });
    expect(res.ok).toBe(true);
    expect(res.url).toBe(`${base}/echo`);
    const copy = res.clone();
    expect(await res.json()).toMatchObject({ body: 'x' });
    expect(res.bodyUsed).toBe(true);
    await expect(res.text()).rejects.toThrow(TypeError);
    expect(await copy.json()).toMatchObject({ body: 'x' });
  });

  it('stream their body when asked for it', async () => {
    const res = await leanFetch(`${base}/echo`, { method: 'POST', body: 'streamed' });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    let text = '';
    for (let r = await reader.read(); !r.done; r = await reader.read())
      text += Buffer.from(r.value).toString();
    expect(JSON.parse(text)).toMatchObject({ body: 'streamed' });
    expect(res.bodyUsed).toBe(true);
  });
});

describe('boundedFetch', () => {
  it('fails a body past its cap, announced or not, and reads one within it', async () => {
    const capped = boundedFetch(1024 * 1024);
    for (const path of ['/big', '/big-declared']) {
      const error = await capped(`${base}${path}`).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProviderError);
      expect((error as ProviderError).message).toMatch(/passed 1048576 bytes \(maxResponseBytes\)/);
    }
    const whole = await boundedFetch(4 * 1024 * 1024)(`${base}/big`);
    expect((await whole.arrayBuffer()).byteLength).toBe(2 * 1024 * 1024);
  });
});

describe('boundedFetch: one budget for the bodies read at once', () => {
  /** Chunks a socket hands over at most: a read may pass the budget by one before it pauses. */
  const CHUNK = 64 * 1024;

  it('eight bodies that each fit are all read whole, holding under twice the cap at once', async () => {
    const cap = 1024 * 1024 + 1;
    const fetch = boundedFetch(cap);
    const bodies = await Promise.all(
      Array.from({ length: 8 }, () => fetch(`${base}/kib/900`).then((r) => r.arrayBuffer())),
    );
    expect(bodies.map((b) => b.byteLength)).toEqual(Array(8).fill(900 * 1024));
    expect(budgetFor(cap).peak).toBeGreaterThan(cap / 2);
    expect(budgetFor(cap).peak).toBeLessThanOrEqual(2 * cap + 8 * CHUNK);
  });

  it('eight bodies past the cap each fail as too_large, never held more than twice the cap at once', async () => {
    const cap = 1024 * 1024 + 2;
    const fetch = boundedFetch(cap);
    const errors = await Promise.all(
      Array.from({ length: 8 }, () => fetch(`${base}/kib/4096`).catch((e) => e)),
    );
    for (const e of errors) expect(e).toMatchObject({ kind: 'too_large', retryable: false });
    // Without the budget all eight read up to the cap at once: 8 MiB.
    expect(budgetFor(cap).peak).toBeLessThanOrEqual(2 * cap + 8 * CHUNK);
  });

  it('a read held back by the budget and then aborted frees its bytes', async () => {
    const cap = 1024 * 1024 + 3;
    const fetch = boundedFetch(cap);
    const first = new AbortController();
    const second = new AbortController();
    const stalled = fetch(`${base}/stall`, { signal: first.signal }).catch((e) => e);
    await new Promise((r) => setTimeout(r, 50));
    // Past the budget with the first one's 600 KiB: it waits, not being the first read.
    const held = fetch(`${base}/stall`, { signal: second.signal }).catch((e) => e);
    await new Promise((r) => setTimeout(r, 50));
    second.abort();
    expect(await held).toMatchObject({ name: 'AbortError' });
    // 600 KiB held by the first read; 300 more fit, so this one is not held back.
    const small = await fetch(`${base}/kib/300`);
    expect((await small.arrayBuffer()).byteLength).toBe(300 * 1024);
    first.abort();
    expect(await stalled).toMatchObject({ name: 'AbortError' });
  });
});
