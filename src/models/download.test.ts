import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closedPort, type Loopback, startLoopback } from '../test-support/models/loopback.js';
import { tinyModelMissing, tinyModelPath } from '../test-support/shared.js';
import {
  cachedPath,
  DownloadError,
  type DownloadProgress,
  parseHfUri,
  progressPrinter,
  resolveHfModel,
} from './download.js';

const URI = 'hf:test-owner/tiny-repo/stories260K.gguf';
const RESOLVE = '/test-owner/tiny-repo/resolve/main/stories260K.gguf';

interface HubBehaviour {
  /** Close the socket after this many bytes of the next full-body response (once). */
  cutAfter?: number;
  /** Answer Range requests with the whole file (200), as some servers do. */
  ignoreRange?: boolean;
  /** The sha256 the hub advertises in x-linked-etag (default: the true one). */
  advertisedSha?: string;
  /** Status to answer the resolve URL with instead of the file. */
  status?: number;
}

function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

describe.skipIf(tinyModelMissing)(`hf: model download ${tinyModelMissing ?? ''}`, () => {
  let model: Buffer;
  let trueSha: string;
  let hub: Loopback;
  let behaviour: HubBehaviour = {};
  let cacheDir: string;
  const roots: string[] = [];

  /** Serves the file like the Hub: the resolve URL redirects to a CDN path; the LFS sha is on the redirect. */
  function serveFile(res: ServerResponse, range: string | undefined) {
    const m = /^bytes=(\d+)-$/.exec(range ?? '');
    const start = m && !behaviour.ignoreRange ? Number(m[1]) : 0;
    const body = model.subarray(start);
    const headers: Record<string, string | number> = {
      'content-type': 'application/octet-stream',
      'content-length': body.length,
      'accept-ranges': 'bytes',
      etag: '"cdn-etag-not-a-sha"',
    };
    if (start > 0) {
      headers['content-range'] = `bytes ${start}-${model.length - 1}/${model.length}`;
      res.writeHead(206, headers);
    } else res.writeHead(200, headers);
    if (behaviour.cutAfter !== undefined && start === 0) {
      const cut = behaviour.cutAfter;
      behaviour.cutAfter = undefined;
      res.write(body.subarray(0, cut), () => setTimeout(() => res.socket?.destroy(), 20));
      return;
    }
    res.end(body);
  }

  beforeAll(async () => {
    model = readFileSync(tinyModelPath as string);
    trueSha = createHash('sha256').update(model).digest('hex');
    hub = await startLoopback((req, res, seen) => {
      if (seen.url === RESOLVE) {
        if (behaviour.status) {
          res.writeHead(behaviour.status, { 'content-type': 'text/plain' });
          res.end('nope');
          return;
        }
        res.writeHead(302, {
          location: '/cdn/blobs/abc?sig=1',
          'x-linked-etag': `"${behaviour.advertisedSha ?? trueSha}"`,
          'x-linked-size': String(model.length),
          etag: '"git-blob-id"',
        });
        res.end();
        return;
      }
      if (seen.url.startsWith('/cdn/blobs/abc')) return serveFile(res, req.headers.range);
      res.writeHead(404);
      res.end();
    });
  });
  afterAll(async () => {
    await hub.close();
    for (const r of roots) rmSync(r, { recursive: true, force: true });
  });
  afterEach(() => {
    behaviour = {};
    hub.requests.length = 0;
  });
  const freshCache = () => {
    cacheDir = mkdtempSync(join(tmpdir(), 'waver-dl-'));
    roots.push(cacheDir);
    return cacheDir;
  };
  const opts = (extra: Record<string, unknown> = {}) => ({
    cacheDir,
    endpoint: hub.origin,
    env: {},
    onProgress: () => {},
    retryDelayMs: 0,
    ...extra,
  });
  const shaOf = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

  it('downloads once with the checksum checked; the second call makes no request at all', async () => {
    freshCache();
    const progress: DownloadProgress[] = [];
    const path = await resolveHfModel(URI, opts({ onProgress: (p: DownloadProgress) => progress.push(p) }));
    expect(path).toBe(join(cacheDir, 'test-owner', 'tiny-repo', 'stories260K.gguf'));
    expect(shaOf(path)).toBe(trueSha);
    expect(hub.requests.map((r) => r.url)).toEqual([RESOLVE, '/cdn/blobs/abc?sig=1']);
    expect(progress.at(-1)).toEqual({ received: model.length, total: model.length });
    expect(listFiles(cacheDir).some((f) => f.endsWith('.part'))).toBe(false);

    hub.requests.length = 0;
    expect(await resolveHfModel(URI, opts())).toBe(path);
    expect(await resolveHfModel(`${URI}#sha256=${trueSha.toUpperCase()}`, opts())).toBe(path);
    expect(hub.requests).toHaveLength(0);
  });

  it('a pinned sha256 that does not match: a clear error with both hashes, nothing left in the cache', async () => {
    freshCache();
    const wrong = 'ab'.repeat(32);
    const err = await resolveHfModel(`${URI}#sha256=${wrong}`, opts()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DownloadError);
    expect((err as Error).message).toContain(wrong);
    expect((err as Error).message).toContain(trueSha);
    expect((err as Error).message).toMatch(/checksum mismatch/);
    expect(listFiles(cacheDir)).toEqual([]);
  });

  it("the hub's advertised sha256 is checked when nothing is pinned", async () => {
    freshCache();
    behaviour.advertisedSha = 'cd'.repeat(32);
    const err = await resolveHfModel(URI, opts()).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/checksum mismatch.*cdcdcd.*etag/);
    expect(listFiles(cacheDir)).toEqual([]);
  });

  it('an interrupted download is resumed by the next call with a Range request', async () => {
    freshCache();
    const half = Math.floor(model.length / 2);
    behaviour.cutAfter = half;
    const first = await resolveHfModel(URI, opts({ attempts: 1 })).catch((e: unknown) => e);
    expect(first).toBeInstanceOf(DownloadError);
    expect((first as Error).message).toMatch(
      /^could not download hf:test-owner\/tiny-repo\/stories260K\.gguf \(.+\); download it yourself and pass gguf:\/path\/to\/file\.gguf, or set HF_ENDPOINT$/,
    );
    const part = `${cachedPath(parseHfUri(URI), cacheDir)}.part`;
    const partSize = statSync(part).size;
    expect(partSize).toBeGreaterThan(0);
    expect(partSize).toBeLessThan(model.length);

    hub.requests.length = 0;
    const path = await resolveHfModel(URI, opts());
    const ranged = hub.requests.filter((r) => r.headers.range);
    expect(ranged.map((r) => r.headers.range)).toContain(`bytes=${partSize}-`);
    expect(shaOf(path)).toBe(trueSha);
    expect(existsSync(part)).toBe(false);
  });

  it('within one call, a cut connection is retried by resuming', async () => {
    freshCache();
    behaviour.cutAfter = 1000;
    const path = await resolveHfModel(URI, opts());
    expect(hub.requests.some((r) => r.headers.range === 'bytes=1000-')).toBe(true);
    expect(shaOf(path)).toBe(trueSha);
  });

  it('a server that ignores Range (200) makes the download restart, and the file is still right', async () => {
    freshCache();
    behaviour.cutAfter = Math.floor(model.length / 3);
    await resolveHfModel(URI, opts({ attempts: 1 })).catch(() => undefined);
    behaviour.ignoreRange = true;
    hub.requests.length = 0;
    const path = await resolveHfModel(URI, opts());
    expect(hub.requests.some((r) => r.headers.range)).toBe(true); // it asked...
    expect(statSync(path).size).toBe(model.length); // ...got the whole file, and did not append it
    expect(shaOf(path)).toBe(trueSha);
  });

  it('HTTP refusals say why: 404 (no such file), 401 (gated: set HF_TOKEN)', async () => {
    freshCache();
    behaviour.status = 404;
    await expect(resolveHfModel(URI, opts())).rejects.toThrow(/HTTP 404: no such repository or file/);
    behaviour.status = 401;
    await expect(resolveHfModel(URI, opts())).rejects.toThrow(/HF_TOKEN/);
    expect(hub.requests).toHaveLength(2); // not retried
    expect(listFiles(cacheDir)).toEqual([]);
  });

  it('the token goes to the endpoint only, not to the CDN it redirects to', async () => {
    freshCache();
    await resolveHfModel(URI, opts({ token: 'hf_secret_token' }));
    expect(hub.requests[0]?.headers.authorization).toBe('Bearer hf_secret_token');
    // Same origin here, so the CDN hop also gets it; a different origin would not (checked below).
    const cdn = await startLoopback((req, res) => serveFile(res, req.headers.range));
    const front = await startLoopback((_req, res) => {
      res.writeHead(302, { location: `${cdn.origin}/file`, 'x-linked-etag': trueSha });
      res.end();
    });
    try {
      freshCache();
      const path = await resolveHfModel(URI, opts({ endpoint: front.origin, token: 'hf_secret_token' }));
      expect(shaOf(path)).toBe(trueSha);
      expect(front.requests[0]?.headers.authorization).toBe('Bearer hf_secret_token');
      expect(cdn.requests[0]?.headers.authorization).toBeUndefined();
    } finally {
      await Promise.all([cdn.close(), front.close()]);
    }
  });
});

describe('hf: download errors without a model file', () => {
  it('an unreachable endpoint gives the clear error', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'waver-dl-'));
    try {
      const port = await closedPort();
      const err = await resolveHfModel(URI, {
        cacheDir,
        endpoint: `http://127.0.0.1:${port}`,
        env: {},
        onProgress: () => {},
      }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DownloadError);
      expect((err as Error).message).toMatch(
        /^could not download hf:test-owner\/tiny-repo\/stories260K\.gguf \(.*ECONNREFUSED.*\); download it yourself and pass gguf:\/path\/to\/file\.gguf, or set HF_ENDPOINT$/,
      );
    } finally {
      rmSync(cacheDir, { recursive: true, force: true });
    }
  });

  it('HF_ENDPOINT and WAVER_CACHE_DIR come from the environment', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'waver-dl-'));
    try {
      const port = await closedPort();
      const err = await resolveHfModel(URI, {
        env: { HF_ENDPOINT: `http://127.0.0.1:${port}/`, WAVER_CACHE_DIR: cacheDir },
        onProgress: () => {},
        attempts: 1,
      }).catch((e: unknown) => e);
      expect((err as Error).message).toMatch(/ECONNREFUSED/);
      expect(existsSync(join(cacheDir, 'test-owner', 'tiny-repo'))).toBe(true);
    } finally {
      rmSync(cacheDir, { recursive: true, force: true });
    }
  });
});

describe('hf: URIs', () => {
  it('parses owner, repo, a file in a sub-folder and a pinned sha256', () => {
    expect(parseHfUri('hf:ggml-org/models/tinyllamas/stories260K.gguf')).toEqual({
      owner: 'ggml-org',
      repo: 'models',
      file: 'tinyllamas/stories260K.gguf',
    });
    expect(parseHfUri(`hf:a/b/c.gguf#sha256=${'AB'.repeat(32)}`).sha256).toBe('ab'.repeat(32));
  });

  it('rejects the :NAME form, path traversal, too few parts and a bad fragment', () => {
    expect(() => parseHfUri('hf:owner/repo:Q4_K_M')).toThrow(/':NAME' form is not supported/);
    expect(() => parseHfUri('hf:owner/repo/../../etc/passwd')).toThrow(/not a valid/);
    expect(() => parseHfUri('hf:owner/repo')).toThrow(/not a valid/);
    expect(() => parseHfUri('hf:a/b/c.gguf#md5=00')).toThrow(/#sha256=/);
  });
});

describe('download progress display', () => {
  const sink = (isTTY: boolean) => {
    const out: string[] = [];
    return { out, stream: { isTTY, write: (s: string) => out.push(s) } as unknown as NodeJS.WriteStream };
  };

  it('redraws one bar with bytes, percent and MB/s on a terminal', () => {
    const { out, stream } = sink(true);
    let t = 0;
    const show = progressPrinter('hf:a/b/c.gguf', stream, () => t);
    show({ received: 0, total: 4_000_000 });
    t = 1000;
    show({ received: 2_000_000, total: 4_000_000 });
    t = 1050; // throttled
    show({ received: 2_100_000, total: 4_000_000 });
    t = 2000;
    show({ received: 4_000_000, total: 4_000_000 });
    expect(out).toHaveLength(3);
    expect(out[1]).toMatch(/^\rhf:a\/b\/c\.gguf \[#{12}\.{12}\] 50% 2\.0 \/ 4\.0 MB 2\.0 MB\/s/);
    expect(out[2]?.endsWith('100% 4.0 / 4.0 MB 2.0 MB/s\x1b[K\n')).toBe(true);
  });

  it('prints plain lines every 10% when not a terminal', () => {
    const { out, stream } = sink(false);
    const show = progressPrinter('hf:a/b/c.gguf', stream, () => 1000);
    for (let r = 0; r <= 100; r++) show({ received: r * 1000, total: 100_000 });
    expect(out).toHaveLength(11);
    expect(out[5]).toBe('downloading hf:a/b/c.gguf: 50%, 0.1 / 0.1 MB, 50.0 MB/s\n');
    expect(out.every((l) => !l.includes('\r'))).toBe(true);
  });
});
