import type { IncomingMessage } from 'node:http';
import type { Route } from '../http/route-table.js';
import { decodeId, type Exchange, HttpError, readBody, sendJson } from './http-util.js';
import { listPage, newObjectId, unixSeconds } from './openai-responses.js';

/**
 * OpenAI's Files API over memory, for the Batch API (docs/batch.md#waver-serve): batch input files
 * uploaded, batch output and error files made. Bounded: a file is at most `maxFileBytes`, all
 * files together at most `maxStorageBytes` (an upload past it is refused until files are deleted
 * or expire), and every file expires (`expires_after` at upload, else `ttlSeconds`).
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
  content: Buffer;
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

  constructor(limits: FileLimits) {
    this.maxFile = limits.maxFileBytes ?? MAX_BATCH_FILE_BYTES;
    this.maxStorage = limits.maxStorageBytes ?? MAX_STORAGE_BYTES;
    this.ttlSeconds = limits.ttlSeconds ?? FILE_TTL_SECONDS;
  }

  save(filename: string, purpose: string, content: Buffer, ttlSeconds: number): StoredFile {
    const f = {
      id: newObjectId('file-'),
      bytes: content.length,
      created_at: unixSeconds(),
      filename,
      purpose,
      content,
      expiresAtMs: Date.now() + ttlSeconds * 1000,
    };
    this.files.set(f.id, f);
    this.stored += f.bytes;
    return f;
  }

  delete(f: StoredFile): void {
    if (this.files.delete(f.id)) this.stored -= f.bytes;
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

  /** Oldest first. */
  list(): StoredFile[] {
    return [...this.files.values()];
  }

  /** A multipart upload (`file`, `purpose: batch`, optional `expires_after`), stored. */
  async upload(req: IncomingMessage): Promise<StoredFile> {
    const type = req.headers['content-type'] ?? '';
    if (!type.startsWith('multipart/form-data'))
      throw new HttpError(415, 'Expected a multipart/form-data body with `file` and `purpose`.', {
        code: 'unsupported_media_type',
      });
    const room = this.maxStorage - this.stored;
    if (room <= 0) throw this.full();
    // The form's own lines add a little to the file's bytes.
    const raw = await readBody(req, Math.min(this.maxFile, room) + 64 * 1024).catch((error: unknown) => {
      throw error instanceof HttpError && error.status === 413 && room < this.maxFile ? this.full() : error;
    });
    const form = await readForm(raw, type);
    const purpose = form.get('purpose');
    if (purpose !== 'batch')
      throw new HttpError(400, `Only purpose 'batch' is supported, got ${JSON.stringify(purpose)}.`, {
        param: 'purpose',
        code: 'invalid_value',
      });
    const file = form.get('file');
    if (file === null || typeof file === 'string')
      throw new HttpError(400, 'Missing the `file` part.', {
        param: 'file',
        code: 'missing_required_parameter',
      });
    const content = Buffer.from(await file.arrayBuffer());
    if (content.length > this.maxFile)
      throw new HttpError(413, `The file is larger than the limit of ${this.maxFile} bytes.`, {
        code: 'file_too_large',
      });
    if (content.length > this.maxStorage - this.stored) throw this.full();
    const ttl = expiresAfter(form.get('expires_after[anchor]'), form.get('expires_after[seconds]'));
    return this.save(file.name || 'upload.jsonl', 'batch', content, ttl ?? this.ttlSeconds);
  }

  private full(): HttpError {
    return new HttpError(
      413,
      `The server's file storage is full (${this.stored} of ${this.maxStorage} bytes held): delete files (DELETE /v1/files/ID) or wait for them to expire.`,
      { code: 'storage_limit_exceeded' },
    );
  }
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
        res.writeHead(200, {
          'content-type': 'application/octet-stream',
          'content-length': f.content.length,
        });
        res.end(f.content);
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

async function readForm(raw: Buffer, type: string): Promise<FormData> {
  try {
    return await new Response(raw, { headers: { 'content-type': type } }).formData();
  } catch (error) {
    throw new HttpError(400, `The multipart body could not be read (${(error as Error).message}).`, {
      code: 'invalid_request',
    });
  }
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
