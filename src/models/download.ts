import { createHash, type Hash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { InputError } from '../errors.js';
import { redact } from './http-errors.js';
import type { FetchFn } from './types.js';

/**
 * `gguf:hf:OWNER/REPO/FILE.gguf[#sha256=HEX]` — a model file from the Hugging Face Hub (or any
 * server speaking its `resolve` URLs), downloaded once into a cache directory.
 *
 * FILE may contain slashes (a file in a sub-folder of the repo). The `hf:OWNER/REPO:NAME` form is
 * deliberately NOT accepted: node-llama-cpp and ollama use `:NAME` for a quantisation tag, not a
 * file name, so accepting it here would download something other than what the user meant.
 *
 * The file is written to `<file>.part` and renamed only after its sha256 is checked against the
 * pinned `#sha256=` or, failing that, the Hub's LFS sha256 (the `x-linked-etag`/`etag` header).
 * An interrupted download resumes from the part file with a Range request. A recorded sha256 beside
 * a finished file (`<file>.sha256.json`) means later calls use it without touching the network.
 */

export interface HfModelRef {
  owner: string;
  repo: string;
  /** Path of the file inside the repo. */
  file: string;
  /** Pinned lower-case hex sha256, when the URI gives one. */
  sha256?: string;
}

export interface DownloadProgress {
  received: number;
  total?: number;
}

export interface ResolveHfOptions {
  /** Default env WAVER_CACHE_DIR, else $XDG_CACHE_HOME/waver/models, else ~/.cache/waver/models. */
  cacheDir?: string;
  /** Default env HF_ENDPOINT, else https://huggingface.co. */
  endpoint?: string;
  fetch?: FetchFn;
  /** Default env HF_TOKEN (for gated repos). Sent only to the endpoint's own origin. */
  token?: string;
  /** Replaces the built-in stderr progress display. */
  onProgress?: (p: DownloadProgress) => void;
  env?: NodeJS.ProcessEnv;
  /** Downloads in one call before giving up; each one after the first resumes (default 3). */
  attempts?: number;
  /** Pause before resuming after a cut connection, times the attempt number (default 1000 ms). */
  retryDelayMs?: number;
  /** Abort a download that receives nothing for this long (default 60 s). */
  idleTimeoutMs?: number;
  signal?: AbortSignal;
}

export class DownloadError extends Error {
  override readonly name = 'DownloadError';
}

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const SHA256 = /^[0-9a-f]{64}$/;

export function parseHfUri(uri: string): HfModelRef {
  if (!uri.startsWith('hf:')) throw new InputError(`'${uri}' is not an hf: URI`);
  const [body = '', fragment] = uri.slice(3).split('#', 2);
  const usage = 'expected hf:OWNER/REPO/FILE.gguf, optionally followed by #sha256=HEX';
  const parts = body.split('/');
  if (body.includes(':')) {
    throw new InputError(
      `'${uri}': the ':NAME' form is not supported (it means a quantisation tag elsewhere); ${usage}`,
    );
  }
  if (parts.length < 3 || !parts.every((p) => SEGMENT.test(p) && !p.includes('..'))) {
    throw new InputError(`'${uri}' is not a valid Hugging Face file URI; ${usage}`);
  }
  const [owner = '', repo = '', ...file] = parts;
  const ref: HfModelRef = { owner, repo, file: file.join('/') };
  if (fragment !== undefined) {
    const m = /^sha256=([0-9a-fA-F]{64})$/.exec(fragment);
    if (!m?.[1]) throw new InputError(`'${uri}': the fragment must be #sha256= and 64 hex digits`);
    ref.sha256 = m[1].toLowerCase();
  }
  return ref;
}

export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.WAVER_CACHE_DIR) return env.WAVER_CACHE_DIR;
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'waver', 'models');
}

/** Where a URI's file lives in the cache (whether or not it is there yet). */
export function cachedPath(ref: HfModelRef, cacheDir: string): string {
  return join(cacheDir, ref.owner, ref.repo, ...ref.file.split('/'));
}

interface Recorded {
  sha256: string;
  size: number;
}

/** Returns the local path of the model file, downloading it first unless it is already cached. */
export async function resolveHfModel(uri: string, opts: ResolveHfOptions = {}): Promise<string> {
  const env = opts.env ?? process.env;
  const ref = parseHfUri(uri);
  const path = cachedPath(ref, opts.cacheDir ?? defaultCacheDir(env));
  const recorded = await readRecorded(path);
  if (recorded && (!ref.sha256 || recorded.sha256 === ref.sha256)) return path;

  const endpoint = (opts.endpoint ?? env.HF_ENDPOINT ?? 'https://huggingface.co').replace(/\/+$/, '');
  const token = opts.token ?? env.HF_TOKEN ?? env.HUGGING_FACE_HUB_TOKEN;
  const url = `${endpoint}/${ref.owner}/${ref.repo}/resolve/main/${ref.file.split('/').map(encodeURIComponent).join('/')}`;
  const name = uri.split('#')[0] ?? uri;
  const job: Job = {
    ref,
    url,
    path,
    token,
    fetch: opts.fetch ?? globalThis.fetch,
    onProgress: opts.onProgress ?? progressPrinter(name),
    idleTimeoutMs: opts.idleTimeoutMs ?? 60_000,
    signal: opts.signal,
  };
  await mkdir(dirname(path), { recursive: true });

  const attempts = Math.max(1, opts.attempts ?? 3);
  for (let attempt = 1; ; attempt++) {
    const before = await partSize(path);
    try {
      await downloadOnce(job);
      return path;
    } catch (err) {
      const reason = redact(reasonOf(err), [token]);
      // A checksum mismatch or an HTTP refusal will not change on a retry, nor will a host that
      // cannot be reached at all; a connection cut after some bytes arrived is worth resuming.
      const progressed = (await partSize(path)) > before;
      if (err instanceof DownloadError || !progressed || attempt >= attempts || opts.signal?.aborted) {
        if (err instanceof DownloadError) throw err;
        throw new DownloadError(
          `could not download ${name} (${reason}); download it yourself and pass gguf:/path/to/file.gguf, or set HF_ENDPOINT`,
          { cause: err },
        );
      }
      await new Promise((r) => setTimeout(r, (opts.retryDelayMs ?? 1000) * attempt));
    }
  }
}

interface Job {
  ref: HfModelRef;
  url: string;
  path: string;
  token?: string;
  fetch: FetchFn;
  onProgress: (p: DownloadProgress) => void;
  idleTimeoutMs: number;
  signal?: AbortSignal;
}

async function partSize(path: string): Promise<number> {
  return (await stat(`${path}.part`).catch(() => undefined))?.size ?? 0;
}

async function downloadOnce(job: Job): Promise<void> {
  const part = `${job.path}.part`;
  let offset = await partSize(job.path);

  const idle = new IdleTimer(job.idleTimeoutMs, job.signal);
  try {
    const { response, expectedSha } = await request(job, offset, idle.signal);
    if (response.status === 416 && offset > 0) {
      // The part file is no prefix the server recognises (already complete, or the file changed).
      await response.body?.cancel();
      await rm(part, { force: true });
      return await downloadOnce(job);
    }
    if (response.status !== 200 && response.status !== 206) {
      await response.body?.cancel();
      throw new DownloadError(httpRefusal(job, response.status));
    }
    let total: number | undefined;
    if (response.status === 206) {
      const range = /^bytes (\d+)-\d+\/(\d+|\*)$/.exec(response.headers.get('content-range') ?? '');
      if (!range || Number(range[1]) !== offset) {
        // A range we did not ask for: safest to start over.
        await response.body?.cancel();
        await rm(part, { force: true });
        return await downloadOnce(job);
      }
      total = range[2] === '*' ? undefined : Number(range[2]);
    } else {
      offset = 0; // The server ignored Range (or there was none): restart from zero.
      const length = response.headers.get('content-length');
      total = length === null ? undefined : Number(length);
    }
    if (!response.body) throw new Error('the response has no body');

    const hash = createHash('sha256');
    if (offset > 0) await hashFile(part, hash, offset);
    let received = offset;
    job.onProgress({ received, total });
    const counter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        idle.touch();
        hash.update(chunk as Uint8Array);
        received += chunk.length;
        job.onProgress({ received, total });
        done(null, chunk);
      },
    });
    await pipeline(
      Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>),
      counter,
      createWriteStream(part, { flags: offset > 0 ? 'a' : 'w' }),
    );
    if (total !== undefined && received !== total) {
      throw new Error(`connection closed after ${received} of ${total} bytes`);
    }
    const actual = hash.digest('hex');
    const expected = job.ref.sha256 ?? expectedSha;
    if (expected && actual !== expected) {
      await rm(part, { force: true });
      const source = job.ref.sha256 ? 'pinned in the URI' : "from the server's etag";
      throw new DownloadError(
        `checksum mismatch for hf:${job.ref.owner}/${job.ref.repo}/${job.ref.file}: expected sha256 ${expected} (${source}), got ${actual}; the partial file was deleted`,
      );
    }
    await rename(part, job.path);
    await writeFile(recordPath(job.path), `${JSON.stringify({ sha256: actual, size: received })}\n`);
  } finally {
    idle.stop();
  }
}

/**
 * GET with manual redirects: the Hub answers the resolve URL with a redirect to its CDN, and the
 * LFS sha256 is only on that first response (`x-linked-etag`), not on the CDN's.
 */
async function request(
  job: Job,
  offset: number,
  signal: AbortSignal,
): Promise<{ response: Response; expectedSha?: string }> {
  const origin = new URL(job.url).origin;
  let url = job.url;
  let expectedSha: string | undefined;
  for (let hop = 0; hop < 10; hop++) {
    const headers: Record<string, string> = { 'user-agent': 'waver' };
    if (offset > 0) headers.range = `bytes=${offset}-`;
    if (job.token && new URL(url).origin === origin) headers.authorization = `Bearer ${job.token}`;
    const response = await job.fetch(url, { headers, redirect: 'manual', signal });
    expectedSha ??= shaFromHeaders(response.headers);
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel();
      url = new URL(location, url).href;
      continue;
    }
    return { response, expectedSha };
  }
  throw new Error('too many redirects');
}

/** The Hub's LFS etag is the file's sha256; other etags (git blob ids, CDN hashes) are ignored. */
function shaFromHeaders(headers: Headers): string | undefined {
  for (const name of ['x-linked-etag', 'etag']) {
    const value = headers.get(name)?.replace(/^W\//, '').replace(/"/g, '').toLowerCase();
    if (value && SHA256.test(value)) return value;
  }
  return undefined;
}

function httpRefusal(job: Job, status: number): string {
  const name = `hf:${job.ref.owner}/${job.ref.repo}/${job.ref.file}`;
  const hint =
    status === 401 || status === 403
      ? 'the repository may be gated or private: accept its terms on the Hub and set HF_TOKEN'
      : status === 404
        ? 'no such repository or file'
        : 'the server refused the download';
  return `could not download ${name} (HTTP ${status}: ${hint}); download it yourself and pass gguf:/path/to/file.gguf, or set HF_ENDPOINT`;
}

function recordPath(path: string): string {
  return `${path}.sha256.json`;
}

async function readRecorded(path: string): Promise<Recorded | undefined> {
  try {
    const [text, info] = await Promise.all([readFile(recordPath(path), 'utf8'), stat(path)]);
    const rec = JSON.parse(text) as Partial<Recorded>;
    // The size check catches a file truncated or replaced since it was verified, without rehashing it.
    if (typeof rec.sha256 === 'string' && SHA256.test(rec.sha256) && rec.size === info.size) {
      return { sha256: rec.sha256, size: rec.size };
    }
  } catch {
    // Missing or unreadable: not cached.
  }
  return undefined;
}

async function hashFile(path: string, hash: Hash, length: number): Promise<void> {
  if (length === 0) return;
  for await (const chunk of createReadStream(path, { start: 0, end: length - 1 }))
    hash.update(chunk as Uint8Array);
}

/** Aborts when no data has arrived for `ms`, or when the caller's signal aborts. */
class IdleTimer {
  private readonly controller = new AbortController();
  private timer?: NodeJS.Timeout;
  readonly signal: AbortSignal;

  constructor(
    private readonly ms: number,
    outer?: AbortSignal,
  ) {
    this.signal = this.controller.signal;
    // (AbortSignal.any is newer than the Node 20 types in use.)
    if (outer?.aborted) this.controller.abort(outer.reason);
    else outer?.addEventListener('abort', () => this.controller.abort(outer.reason), { once: true });
    this.touch();
  }

  touch(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(
      () => this.controller.abort(new Error(`no data for ${Math.round(this.ms / 1000)} s`)),
      this.ms,
    );
  }

  stop(): void {
    clearTimeout(this.timer);
  }
}

function reasonOf(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const parts: string[] = [];
  let cur: unknown = err;
  for (let depth = 0; cur instanceof Error && depth < 4; depth++) {
    const code = (cur as { code?: unknown }).code;
    const text =
      typeof code === 'string' && !cur.message.includes(code) ? `${cur.message} [${code}]` : cur.message;
    if (text && !parts.includes(text)) parts.push(text);
    cur = cur.cause;
  }
  return parts.join(': ') || err.name;
}

/**
 * The default progress display: a redrawn bar when stderr is a terminal, otherwise a plain line
 * every 10% (or every 5 s when the size is unknown), so logs stay readable.
 */
export function progressPrinter(
  name: string,
  out: NodeJS.WriteStream = process.stderr,
  now: () => number = Date.now,
): (p: DownloadProgress) => void {
  const start = now();
  let lastDraw = Number.NEGATIVE_INFINITY;
  let lastDecile = -1;
  let lastLine = start;
  let finished = false;
  return ({ received, total }) => {
    if (finished) return;
    const t = now();
    const done = total !== undefined && received >= total;
    const mbps = received / 1e6 / Math.max(0.001, (t - start) / 1000);
    const pct = total ? Math.min(100, (received / total) * 100) : undefined;
    const size = `${mb(received)}${total !== undefined ? ` / ${mb(total)}` : ''} MB`;
    if (out.isTTY) {
      if (!done && t - lastDraw < 100) return;
      lastDraw = t;
      const width = 24;
      const filled = pct === undefined ? 0 : Math.round((pct / 100) * width);
      const bar =
        pct === undefined ? '' : `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${pct.toFixed(0)}% `;
      out.write(`\r${name} ${bar}${size} ${mbps.toFixed(1)} MB/s\x1b[K${done ? '\n' : ''}`);
    } else {
      const decile = pct === undefined ? -1 : Math.floor(pct / 10);
      const due = pct === undefined ? t - lastLine >= 5000 : decile > lastDecile;
      if (!due && !done) return;
      lastDecile = decile;
      lastLine = t;
      out.write(
        `downloading ${name}: ${pct !== undefined ? `${pct.toFixed(0)}%, ` : ''}${size}, ${mbps.toFixed(1)} MB/s\n`,
      );
    }
    if (done) finished = true;
  };
}

function mb(bytes: number): string {
  return (bytes / 1e6).toFixed(1);
}
