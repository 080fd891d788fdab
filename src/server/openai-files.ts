import { createReadStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Route } from '../http/route-table.js';
import { decodeId, type Exchange, HttpError, sendJson } from './http-util.js';
import { boundaryOf, readUpload, type Upload } from './multipart-upload.js';
import { listPage, newObjectId, unixSeconds } from './openai-responses.js';

/**
 * OpenAI's Files API, for the Batch API (docs/batch.md#waver-serve): batch input files uploaded,
 * batch output and error files made. Kept on disk, in a directory of the server's own under the
 * system's temp directory (removed when the server closes): an upload is written as it arrives
 * and a file is read back as it is sent, so the server's memory does not grow with the files it
 * holds. Bounded: a file is at most `maxFileBytes`, all files together at most `maxStorageBytes`
 * (an upload past it is refused until files are deleted or expire), and every file expires
 * (`expires_after` at upload, else `ttlSeconds`).
 */

/** OpenAI's limit on a batch input file. */
const MAX_BATCH_FILE_BYTES = 200 * 1024 * 1024;
/** What all stored files may hold together by default. */
const MAX_STORAGE_BYTES = 1024 * 1024 * 1024;
/** OpenAI's default life of a batch file: 30 days. */
const FILE_TTL_SECONDS = 30 * 24 * 3600;
/** OpenAI's bounds on `expires_after.seconds`: an hour to 30 days. */
const EXPIRES_AFTER = { min: 3600, max: 30 * 24 * 3600 };

export interface StoredFile {
  id: string;
  bytes: number;
  created_at: number;
  filename: string;
  purpose: string;
  /** Where its bytes are, in the store's directory. */
  path: string;
  /** Unix milliseconds after which the file is gone. */
  expiresAtMs: number;
}

export interface FileLimits {
  /** Largest file accepted (default OpenAI's 200 MB). */
  maxFileBytes?: number;
  /** What all files may hold together (default 1 GiB). */
  maxStorageBytes?: number;
  /** The life of a file uploaded without `expires_after`, and of a batch's output (default 30 days). */
  ttlSeconds?: number;
}

export class FileStore {
  private readonly files = new Map<string, StoredFile>();
  /** Bytes held by all files. */
  private stored = 0;
  private readonly maxFile: number;
  private readonly maxStorage: number;
  /** The life of a file made without `expires_after`, seconds. */
  readonly ttlSeconds: number;
  /** Where the files are: made with the first one. */
  private dir: string | undefined;

  constructor(limits: FileLimits) {
    this.maxFile = limits.maxFileBytes ?? MAX_BATCH_FILE_BYTES;
    this.maxStorage = limits.maxStorageBytes ?? MAX_STORAGE_BYTES;
    this.ttlSeconds = limits.ttlSeconds ?? FILE_TTL_SECONDS;
  }

  /** A file made by the server (a batch's output or errors), written to disk. */
  save(filename: string, purpose: string, content: string, ttlSeconds: number): StoredFile {
    const id = newObjectId('file-');
    const path = this.pathOf(id);
    writeFileSync(path, content);
    return this.add({ id, filename, purpose, path, bytes: Buffer.byteLength(content) }, ttlSeconds);
  }

  delete(f: StoredFile): void {
    if (!this.files.delete(f.id)) return;
    this.stored -= f.bytes;
    // A read under way keeps its open file (POSIX): the bytes go once it is through.
    rmSync(f.path, { force: true });
  }

  /** Files past their expiry are deleted when the next request comes (nothing needs them sooner). */
  expire(): void {
    const now = Date.now();
    for (const f of this.files.values()) if (f.expiresAtMs <= now) this.delete(f);
  }

  get(fileId: string): StoredFile {
    const f = this.files.get(fileId);
    if (!f)
      throw new HttpError(404, `No such File object: ${fileId}`, { param: 'id', code: 'file_not_found' });
    return f;
  }

  /** A file's bytes, whole (a batch's input, read as it is created). */
  content(f: StoredFile): Buffer {
    return readFileSync(f.path);
  }

  /** Oldest first. */
  list(): StoredFile[] {
    return [...this.files.values()];
  }

  /** Deletes every file and the directory (the server is closing). */
  close(): void {
    this.files.clear();
    this.stored = 0;
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
    this.dir = undefined;
  }

  private pathOf(id: string): string {
    this.dir ??= mkdtempSync(join(tmpdir(), 'waver-serve-files-'));
    return join(this.dir, id);
  }

  /** A multipart upload (`file`, `purpose: batch`, optional `expires_after`), written to disk as it arrives. */
  async upload(req: IncomingMessage): Promise<StoredFile> {
    const type = req.headers['content-type'] ?? '';
    if (!type.startsWith('multipart/form-data'))
      throw new HttpError(415, 'Expected a multipart/form-data body with `file` and `purpose`.', {
        code: 'unsupported_media_type',
      });
    const room = this.maxStorage - this.stored;
    if (room <= 0) throw this.full();
    const limit = Math.min(this.maxFile, room);
    const id = newObjectId('file-');
    const path = this.pathOf(id);
    try {
      const form = await readUpload(req, boundaryOf(type), path, {
        fileBytes: limit,
        tooLarge: () => (limit < this.maxFile ? this.full() : this.tooLarge()),
      });
      const file = uploadedFile(form);
      // Another upload may have filled the room meanwhile.
      if (file.bytes > this.maxStorage - this.stored) throw this.full();
      // A file part that was empty has no file on disk yet.
      if (file.bytes === 0) writeFileSync(path, '');
      const ttl = expiresAfter(
        form.fields.get('expires_after[anchor]') ?? null,
        form.fields.get('expires_after[seconds]') ?? null,
      );
      return this.add({ id, purpose: 'batch', path, ...file }, ttl ?? this.ttlSeconds);
    } catch (error) {
      rmSync(path, { force: true });
      throw error;
    }
  }

  private add(f: Omit<StoredFile, 'created_at' | 'expiresAtMs'>, ttlSeconds: number): StoredFile {
    const file = { ...f, created_at: unixSeconds(), expiresAtMs: Date.now() + ttlSeconds * 1000 };
    this.files.set(file.id, file);
    this.stored += file.bytes;
    return file;
  }

  private tooLarge(): HttpError {
    return new HttpError(413, `The file is larger than the limit of ${this.maxFile} bytes.`, {
      code: 'file_too_large',
    });
  }

  private full(): HttpError {
    return new HttpError(
      413,
      `The server's file storage is full (${this.stored} of ${this.maxStorage} bytes held): delete files (DELETE /v1/files/ID) or wait for them to expire.`,
      { code: 'storage_limit_exceeded' },
    );
  }
}

/** The upload's file part, once its purpose is `batch`: its name and size. */
function uploadedFile(form: Upload): { filename: string; bytes: number } {
  const purpose = form.fields.get('purpose');
  if (purpose !== 'batch')
    throw new HttpError(400, `Only purpose 'batch' is supported, got ${JSON.stringify(purpose ?? null)}.`, {
      param: 'purpose',
      code: 'invalid_value',
    });
  if (!form.file)
    throw new HttpError(400, 'Missing the `file` part.', {
      param: 'file',
      code: 'missing_required_parameter',
    });
  return { filename: form.file.filename || 'upload.jsonl', bytes: form.file.bytes };
}

/** The Files routes: upload, list, retrieve, content, delete. */
export function fileRoutes(files: FileStore): Route<Exchange>[] {
  // Expired files go before any request sees the store.
  const withFile = (params: { id?: string }) => {
    files.expire();
    return files.get(decodeId(params.id ?? '', 'file'));
  };
  return [
    {
      method: 'GET',
      path: '/v1/files',
      handle: ({ req, res }) => {
        files.expire();
        const query = searchParams(req);
        const purpose = query.get('purpose');
        const all = files.list().filter((f) => !purpose || f.purpose === purpose);
        // Newest first unless `order=asc`, as OpenAI lists them.
        if (query.get('order') !== 'asc') all.reverse();
        sendJson(res, 200, listPage(all.map(fileObject), query, { fallback: 10_000, max: 10_000 }));
      },
    },
    {
      method: 'POST',
      path: '/v1/files',
      handle: async ({ req, res }) => {
        files.expire();
        sendJson(res, 200, fileObject(await files.upload(req)));
      },
    },
    {
      method: 'GET',
      path: '/v1/files/:id',
      handle: ({ res }, p) => sendJson(res, 200, fileObject(withFile(p))),
    },
    {
      method: 'DELETE',
      path: '/v1/files/:id',
      handle: ({ res }, p) => {
        const f = withFile(p);
        files.delete(f);
        sendJson(res, 200, { id: f.id, object: 'file', deleted: true });
      },
    },
    {
      method: 'GET',
      path: '/v1/files/:id/content',
      handle: ({ res }, p) => {
        const f = withFile(p);
        const stream = createReadStream(f.path);
        // Opened before the answer starts: a file gone meanwhile is the 404 it would have been.
        return new Promise<void>((resolve, reject) => {
          stream.once('error', (e) => {
            if (res.headersSent) res.destroy(e);
            reject(e);
          });
          stream.once('open', () => {
            res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': f.bytes });
            stream.pipe(res);
            res.once('close', () => {
              stream.destroy();
              resolve();
            });
          });
        });
      },
    },
  ];
}

function fileObject(f: StoredFile) {
  return {
    id: f.id,
    object: 'file',
    bytes: f.bytes,
    created_at: f.created_at,
    filename: f.filename,
    purpose: f.purpose,
    expires_at: Math.floor(f.expiresAtMs / 1000),
    status: 'processed',
    status_details: null,
  };
}

export function searchParams(req: IncomingMessage): URLSearchParams {
  return new URL(req.url ?? '/', 'http://localhost').searchParams;
}

/** `expires_after` (`{anchor: 'created_at', seconds}`): its seconds, or undefined when it is not given. */
export function expiresAfter(anchor: unknown, seconds: unknown, param = 'expires_after'): number | undefined {
  if (anchor === null && seconds === null) return undefined;
  if (anchor === undefined && seconds === undefined) return undefined;
  if (anchor !== 'created_at')
    throw new HttpError(400, `Invalid '${param}.anchor': only 'created_at' is supported.`, {
      param: `${param}.anchor`,
      code: 'invalid_value',
    });
  const n = Number(seconds);
  if (!Number.isInteger(n) || n < EXPIRES_AFTER.min || n > EXPIRES_AFTER.max)
    throw new HttpError(
      400,
      `Invalid '${param}.seconds': expected an integer from ${EXPIRES_AFTER.min} to ${EXPIRES_AFTER.max}.`,
      { param: `${param}.seconds`, code: 'invalid_value' },
    );
  return n;
}
