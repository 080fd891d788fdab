import { createHash, type Hash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FetchFn } from '../util/fetch.js';
import { notify } from '../util/notices.js';
import { redact } from '../util/secrets.js';
import type { DownloadProgress } from './download-progress.js';

/**
 * One file from the Hugging Face Hub (or a server speaking its `resolve` URLs) into a cache path:
 * the model downloads (`gguf:hf:...`) and the dataset downloads (`hf:OWNER/NAME`) both come here.
 *
 * The file is written to `<path>.part` and renamed only after its checksum is checked: a sha256
 * given by the caller (pinned by the user, or the Hub's listing of an LFS file), else the Hub's LFS
 * sha256 on the response (`x-linked-etag`/`etag`), or a git blob id (how the Hub names a file kept
 * in git rather than LFS). An interrupted download resumes from the part file with a Range
 * request. A recorded sha256 beside a finished file (`<path>.sha256.json`) means later calls use it
 * without touching the network. So the cache never holds a file that was not checked whole.
 */

export class DownloadError extends Error {
  override readonly name = 'DownloadError';
}

export interface HubFileJob {
  /** The `resolve` URL. */
  url: string;
  /** Where the checked file goes. */
  path: string;
  /** How messages and the progress display name the file (`hf:OWNER/REPO/FILE`). */
  name: string;
  /** The sha256 the file must have, and where that number came from (said in a mismatch). */
  sha256?: { hex: string; source: string };
  /** The git blob id (sha1 of `blob <size>\0` and the bytes): the Hub's id of a file not in LFS. */
  gitBlobId?: string;
  /** Sent only to the URL's own origin, never to a CDN it redirects to. */
  token?: string;
  fetch?: FetchFn;
  onProgress?: (p: DownloadProgress) => void;
  /** Downloads in one call before giving up; each one after the first resumes (default 3). */
  attempts?: number;
  /** Pause before resuming after a cut connection, times the attempt number (default 1000 ms). */
  retryDelayMs?: number;
  /** Abort a download that receives nothing for this long (default 60 s). */
  idleTimeoutMs?: number;
  signal?: AbortSignal;
  /** Ends every failure message: what the user can do instead. */
  advice: string;
}

export interface RecordedFile {
  sha256: string;
  size: number;
}

const SHA256 = /^[0-9a-f]{64}$/;

/** Downloads the file unless a checked copy is already there; returns its sha256 and size. */
export async function downloadHubFile(job: HubFileJob): Promise<RecordedFile> {
  const recorded = await readRecorded(job.path);
  if (recorded && (!job.sha256 || recorded.sha256 === job.sha256.hex)) return recorded;
  await mkdir(dirname(job.path), { recursive: true });
  const attempts = Math.max(1, job.attempts ?? 3);
  for (let attempt = 1; ; attempt++) {
    const before = await partSize(job.path);
    try {
      return await downloadOnce(job);
    } catch (err) {
      const reason = redact(reasonOf(err), [job.token]);
      // A checksum mismatch or an HTTP refusal will not change on a retry, nor will a host that
      // cannot be reached at all; a connection cut after some bytes arrived is worth resuming.
      const progressed = (await partSize(job.path)) > before;
      if (err instanceof DownloadError || !progressed || attempt >= attempts || job.signal?.aborted) {
        if (err instanceof DownloadError) throw err;
        throw new DownloadError(`could not download ${job.name} (${reason}); ${job.advice}`, { cause: err });
      }
      await new Promise((r) => setTimeout(r, (job.retryDelayMs ?? 1000) * attempt));
    }
  }
}

/** The sha256 and size recorded beside a finished file, when the file still has that size. */
export async function readRecorded(path: string): Promise<RecordedFile | undefined> {
  try {
    const [text, info] = await Promise.all([readFile(recordPath(path), 'utf8'), stat(path)]);
    const rec = JSON.parse(text) as Partial<RecordedFile>;
    // The size check catches a file truncated or replaced since it was verified, without rehashing it.
    if (typeof rec.sha256 === 'string' && SHA256.test(rec.sha256) && rec.size === info.size) {
      return { sha256: rec.sha256, size: rec.size };
    }
  } catch {
    // Missing or unreadable: not cached.
  }
  return undefined;
}

function recordPath(path: string): string {
  return `${path}.sha256.json`;
}

async function partSize(path: string): Promise<number> {
  return (await stat(`${path}.part`).catch(() => undefined))?.size ?? 0;
}

async function downloadOnce(job: HubFileJob): Promise<RecordedFile> {
  const part = `${job.path}.part`;
  let offset = await partSize(job.path);
  const onProgress =
    job.onProgress ?? ((p: DownloadProgress) => notify({ kind: 'download', name: job.name, ...p }));

  const idle = new IdleTimer(job.idleTimeoutMs ?? 60_000, job.signal);
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
    onProgress({ received, total });
    const counter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        idle.touch();
        hash.update(chunk as Uint8Array);
        received += chunk.length;
        onProgress({ received, total });
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
    await verify(job, part, actual, expectedSha, received);
    await rename(part, job.path);
    const record = { sha256: actual, size: received };
    await writeFile(recordPath(job.path), `${JSON.stringify(record)}\n`);
    return record;
  } finally {
    idle.stop();
  }
}

/**
 * The file against the sha256 stated (the job's, else the server's etag) or, with none, the git
 * blob id of the Hub's listing; a mismatch deletes the part file.
 */
async function verify(
  job: HubFileJob,
  part: string,
  actual: string,
  expectedSha: string | undefined,
  size: number,
): Promise<void> {
  const expected = job.sha256?.hex ?? expectedSha;
  if (expected && actual !== expected) {
    await rm(part, { force: true });
    const source = job.sha256?.source ?? "from the server's etag";
    throw new DownloadError(
      `checksum mismatch for ${job.name}: expected sha256 ${expected} (${source}), got ${actual}; the partial file was deleted`,
    );
  }
  if (!expected && job.gitBlobId) {
    // Files kept in git (not LFS) are small, so hashing them a second time costs little.
    const blob = createHash('sha1').update(`blob ${size}\0`);
    await hashFile(part, blob, size);
    const actualBlob = blob.digest('hex');
    if (actualBlob !== job.gitBlobId) {
      await rm(part, { force: true });
      throw new DownloadError(
        `checksum mismatch for ${job.name}: expected git blob ${job.gitBlobId} (from the Hub's file listing), got ${actualBlob}; the partial file was deleted`,
      );
    }
  }
}

/**
 * GET with manual redirects: the Hub answers the resolve URL with a redirect to its CDN, and the
 * LFS sha256 is only on that first response (`x-linked-etag`), not on the CDN's.
 */
async function request(
  job: HubFileJob,
  offset: number,
  signal: AbortSignal,
): Promise<{ response: Response; expectedSha?: string }> {
  const origin = new URL(job.url).origin;
  const fetchFn = job.fetch ?? globalThis.fetch;
  let url = job.url;
  let expectedSha: string | undefined;
  for (let hop = 0; hop < 10; hop++) {
    const headers: Record<string, string> = { 'user-agent': 'waver' };
    if (offset > 0) headers.range = `bytes=${offset}-`;
    if (job.token && new URL(url).origin === origin) headers.authorization = `Bearer ${job.token}`;
    const response = await fetchFn(url, { headers, redirect: 'manual', signal });
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

/** Why the Hub said no, in words a user can act on. */
export function refusalHint(status: number): string {
  return status === 401 || status === 403
    ? 'the repository may be gated or private: accept its terms on the Hub and set HF_TOKEN'
    : status === 404
      ? 'no such repository or file'
      : 'the server refused the download';
}

function httpRefusal(job: HubFileJob, status: number): string {
  return `could not download ${job.name} (HTTP ${status}: ${refusalHint(status)}); ${job.advice}`;
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

/** An error and its causes as one line (`fetch failed: connect ECONNREFUSED ...`). */
export function reasonOf(err: unknown): string {
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
