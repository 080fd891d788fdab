import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ModelProvider } from '../models/types.js';
import { decodeId, HttpError, readBody, readJsonBody, sendJson, toHttpError } from './http-util.js';
import { answerChat, answerCompletion } from './openai-answers.js';
import { parseChatRequest, parseCompletionRequest } from './openai-requests.js';
import { type ResponseMeta, unixSeconds } from './openai-responses.js';

/**
 * OpenAI's Files and Batch API over the served model (docs/batch.md#waver-serve): a JSONL file
 * uploaded with purpose `batch` (the same lines as vLLM's `run_batch` input: `{custom_id, method,
 * url, body}`), a batch over it processed in the background one request at a time through the
 * server's own generation path, and its output and error files. Kept in memory: a restarted
 * server knows no batch. Memory is bounded: a file is at most `maxFileBytes`, all files together
 * at most `maxStorageBytes` (an upload past it is refused until files are deleted or expire), and
 * every file expires (`expires_after` at upload, else `fileTtlSeconds`).
 */

/** OpenAI's limit on a batch input file. */
export const MAX_BATCH_FILE_BYTES = 200 * 1024 * 1024;
/** What all stored files may hold together by default. */
export const MAX_STORAGE_BYTES = 1024 * 1024 * 1024;
/** OpenAI's default life of a batch file: 30 days. */
export const FILE_TTL_SECONDS = 30 * 24 * 3600;
/** OpenAI's bounds on `expires_after.seconds`: an hour to 30 days. */
const EXPIRES_AFTER = { min: 3600, max: 30 * 24 * 3600 };
/** OpenAI's limit on requests per batch. */
export const MAX_BATCH_REQUESTS = 50_000;

const ENDPOINTS = new Set(['/v1/chat/completions', '/v1/completions']);

type BatchStatus =
  | 'validating'
  | 'failed'
  | 'in_progress'
  | 'finalizing'
  | 'completed'
  | 'cancelling'
  | 'cancelled';

interface StoredFile {
  id: string;
  bytes: number;
  created_at: number;
  filename: string;
  purpose: string;
  content: Buffer;
  /** Unix milliseconds after which the file is gone. */
  expiresAtMs: number;
}

interface BatchLine {
  custom_id: string;
  body: unknown;
}

interface Batch {
  id: string;
  endpoint: string;
  input_file_id: string;
  completion_window: string;
  status: BatchStatus;
  created_at: number;
  metadata: Record<string, string> | null;
  errors: {
    object: 'list';
    data: { code: string; message: string; line: number | null; param: null }[];
  } | null;
  output_file_id: string | null;
  error_file_id: string | null;
  request_counts: { total: number; completed: number; failed: number };
  times: Partial<
    Record<`${'in_progress' | 'finalizing' | 'completed' | 'failed' | 'cancelling' | 'cancelled'}_at`, number>
  >;
  lines: BatchLine[];
  stop: AbortController;
  /** The life of its output and error files (`output_expires_after`), seconds. */
  outputTtlSeconds: number;
}

export interface BatchServiceOptions {
  provider: ModelProvider;
  meta: (prefix: 'chatcmpl' | 'cmpl') => ResponseMeta;
  /** Largest file accepted (default OpenAI's 200 MB). */
  maxFileBytes?: number;
  /** What all files may hold together (default 1 GiB). */
  maxStorageBytes?: number;
  /** The life of a file uploaded without `expires_after`, and of a batch's output (default 30 days). */
  fileTtlSeconds?: number;
  /** Largest JSON body of the other routes. */
  maxBodyBytes: number;
}

export interface BatchService {
  /** Answers the request when it is one of the Files or Batch routes; false when it is not. */
  route(req: IncomingMessage, res: ServerResponse, method: string, path: string): Promise<boolean>;
  /** Stops the background work (the server is closing). */
  close(): void;
}

const id = (prefix: string) => `${prefix}${randomUUID().replaceAll('-', '')}`;

export function batchService(opts: BatchServiceOptions): BatchService {
  const files = new Map<string, StoredFile>();
  const batches = new Map<string, Batch>();
  const queue: Batch[] = [];
  let working = false;
  let closed = false;
  const maxFile = opts.maxFileBytes ?? MAX_BATCH_FILE_BYTES;
  const maxStorage = opts.maxStorageBytes ?? MAX_STORAGE_BYTES;
  const fileTtl = opts.fileTtlSeconds ?? FILE_TTL_SECONDS;
  let stored = 0;

  const fileObject = (f: StoredFile) => ({
    id: f.id,
    object: 'file',
    bytes: f.bytes,
    created_at: f.created_at,
    filename: f.filename,
    purpose: f.purpose,
    expires_at: Math.floor(f.expiresAtMs / 1000),
    status: 'processed',
    status_details: null,
  });
  const batchObject = (b: Batch) => ({
    id: b.id,
    object: 'batch',
    endpoint: b.endpoint,
    errors: b.errors,
    input_file_id: b.input_file_id,
    completion_window: b.completion_window,
    status: b.status,
    output_file_id: b.output_file_id,
    error_file_id: b.error_file_id,
    created_at: b.created_at,
    in_progress_at: b.times.in_progress_at ?? null,
    expires_at: b.created_at + 24 * 3600,
    finalizing_at: b.times.finalizing_at ?? null,
    completed_at: b.times.completed_at ?? null,
    failed_at: b.times.failed_at ?? null,
    expired_at: null,
    cancelling_at: b.times.cancelling_at ?? null,
    cancelled_at: b.times.cancelled_at ?? null,
    request_counts: b.request_counts,
    metadata: b.metadata,
  });
  const saveFile = (filename: string, purpose: string, content: Buffer, ttlSeconds: number): StoredFile => {
    const f = {
      id: id('file-'),
      bytes: content.length,
      created_at: unixSeconds(),
      filename,
      purpose,
      content,
      expiresAtMs: Date.now() + ttlSeconds * 1000,
    };
    files.set(f.id, f);
    stored += f.bytes;
    return f;
  };
  const deleteFile = (f: StoredFile) => {
    if (files.delete(f.id)) stored -= f.bytes;
  };
  /** Files past their expiry are deleted when the next request comes (nothing needs them sooner). */
  const expire = () => {
    const now = Date.now();
    for (const f of files.values()) if (f.expiresAtMs <= now) deleteFile(f);
  };
  const fileOf = (fileId: string) => {
    const f = files.get(fileId);
    if (!f)
      throw new HttpError(404, `No such File object: ${fileId}`, { param: 'id', code: 'file_not_found' });
    return f;
  };
  const batchOf = (batchId: string) => {
    const b = batches.get(batchId);
    if (!b)
      throw new HttpError(404, `No batch found with id '${batchId}'.`, { param: 'id', code: 'not_found' });
    return b;
  };
  const onlyMethod = (method: string, allowed: string, path: string) => {
    if (method !== allowed)
      throw new HttpError(405, `Method ${method} is not allowed on ${path}; use ${allowed}.`, {
        code: 'method_not_allowed',
        headers: { allow: allowed },
      });
  };

  async function upload(req: IncomingMessage): Promise<StoredFile> {
    const type = req.headers['content-type'] ?? '';
    if (!type.startsWith('multipart/form-data'))
      throw new HttpError(415, 'Expected a multipart/form-data body with `file` and `purpose`.', {
        code: 'unsupported_media_type',
      });
    const room = maxStorage - stored;
    const full = () =>
      new HttpError(
        413,
        `The server's file storage is full (${stored} of ${maxStorage} bytes held): delete files (DELETE /v1/files/ID) or wait for them to expire.`,
        { code: 'storage_limit_exceeded' },
      );
    if (room <= 0) throw full();
    // The form's own lines add a little to the file's bytes.
    const raw = await readBody(req, Math.min(maxFile, room) + 64 * 1024).catch((error: unknown) => {
      throw error instanceof HttpError && error.status === 413 && room < maxFile ? full() : error;
    });
    let form: FormData;
    try {
      form = await new Response(raw, { headers: { 'content-type': type } }).formData();
    } catch (error) {
      throw new HttpError(400, `The multipart body could not be read (${(error as Error).message}).`, {
        code: 'invalid_request',
      });
    }
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
    if (content.length > maxFile)
      throw new HttpError(413, `The file is larger than the limit of ${maxFile} bytes.`, {
        code: 'file_too_large',
      });
    if (content.length > maxStorage - stored) throw full();
    const ttl = expiresAfter(form.get('expires_after[anchor]'), form.get('expires_after[seconds]'));
    return saveFile(file.name || 'upload.jsonl', 'batch', content, ttl ?? fileTtl);
  }

  /** The input file's lines, or the errors OpenAI would fail the batch with. */
  function readLines(content: Buffer, endpoint: string): { lines: BatchLine[]; errors: Batch['errors'] } {
    const lines: BatchLine[] = [];
    const data: NonNullable<Batch['errors']>['data'] = [];
    const seen = new Set<string>();
    const texts = content.toString('utf8').split('\n');
    for (const [i, text] of texts.entries()) {
      if (text.trim() === '') continue;
      const read = readLine(text, endpoint, seen);
      if ('code' in read) data.push({ ...read, line: i + 1, param: null });
      else lines.push(read);
    }
    if (lines.length + data.length === 0)
      data.push({ code: 'empty_file', message: 'The input file has no requests.', line: null, param: null });
    if (lines.length > MAX_BATCH_REQUESTS)
      data.push({
        code: 'too_many_requests',
        message: `A batch holds at most ${MAX_BATCH_REQUESTS} requests.`,
        line: null,
        param: null,
      });
    return { lines, errors: data.length > 0 ? { object: 'list', data } : null };
  }

  async function create(req: IncomingMessage): Promise<Batch> {
    const body = (await readJsonBody(req, opts.maxBodyBytes)) as Record<string, unknown>;
    const endpoint = body?.endpoint;
    if (typeof endpoint !== 'string' || !ENDPOINTS.has(endpoint))
      throw new HttpError(
        400,
        `Unsupported endpoint ${JSON.stringify(endpoint)}; use one of ${[...ENDPOINTS].join(', ')}.`,
        {
          param: 'endpoint',
          code: 'invalid_value',
        },
      );
    if (body.completion_window !== '24h')
      throw new HttpError(400, "completion_window must be '24h'.", {
        param: 'completion_window',
        code: 'invalid_value',
      });
    if (typeof body.input_file_id !== 'string')
      throw new HttpError(400, 'Missing input_file_id.', {
        param: 'input_file_id',
        code: 'missing_required_parameter',
      });
    const input = fileOf(body.input_file_id);
    if (input.purpose !== 'batch')
      throw new HttpError(400, `The file ${input.id} was not uploaded with purpose 'batch'.`, {
        param: 'input_file_id',
        code: 'invalid_value',
      });
    const outputTtl = isRecord(body.output_expires_after)
      ? expiresAfter(
          body.output_expires_after.anchor,
          body.output_expires_after.seconds,
          'output_expires_after',
        )
      : undefined;
    const { lines, errors } = readLines(input.content, endpoint);
    const now = unixSeconds();
    const b: Batch = {
      id: id('batch_'),
      endpoint,
      input_file_id: input.id,
      completion_window: '24h',
      status: errors ? 'failed' : 'in_progress',
      created_at: now,
      metadata: isStringRecord(body.metadata) ? body.metadata : null,
      errors,
      output_file_id: null,
      error_file_id: null,
      request_counts: { total: errors ? 0 : lines.length, completed: 0, failed: 0 },
      times: errors ? { failed_at: now } : { in_progress_at: now },
      lines: errors ? [] : lines,
      stop: new AbortController(),
      outputTtlSeconds: outputTtl ?? fileTtl,
    };
    batches.set(b.id, b);
    if (!errors) {
      queue.push(b);
      void work();
    }
    return b;
  }

  /** One request of a batch, as its own route would answer it: status and body. */
  async function answer(b: Batch, line: BatchLine): Promise<{ status: number; body: unknown }> {
    try {
      if (b.endpoint === '/v1/chat/completions') {
        const call = parseChatRequest(line.body);
        if (call.stream) throw new HttpError(400, 'stream is not supported in a batch.', { param: 'stream' });
        return {
          status: 200,
          body: await answerChat(opts.provider, call, opts.meta('chatcmpl'), b.stop.signal),
        };
      }
      const call = parseCompletionRequest(line.body);
      if (call.stream) throw new HttpError(400, 'stream is not supported in a batch.', { param: 'stream' });
      return {
        status: 200,
        body: await answerCompletion(opts.provider, call, opts.meta('cmpl'), b.stop.signal),
      };
    } catch (error) {
      const e = toHttpError(error);
      return { status: e.status, body: e.body() };
    }
  }

  /** The background worker: batches in order, one request at a time (the model is one). */
  async function work(): Promise<void> {
    if (working) return;
    working = true;
    try {
      for (let b = queue.shift(); b && !closed; b = queue.shift()) {
        const output: string[] = [];
        const errors: string[] = [];
        for (const line of b.lines) {
          if (b.stop.signal.aborted) break;
          const { status, body } = await answer(b, line);
          if (b.stop.signal.aborted && status !== 200) break; // cut short by the cancel: not answered
          const entry = JSON.stringify({
            id: id('batch_req_'),
            custom_id: line.custom_id,
            response: { status_code: status, request_id: id('req_'), body },
            error: null,
          });
          if (status === 200) {
            output.push(entry);
            b.request_counts.completed++;
          } else {
            errors.push(entry);
            b.request_counts.failed++;
          }
        }
        if (closed) return;
        const cancelled = b.status === 'cancelling';
        if (!cancelled) {
          b.status = 'finalizing';
          b.times.finalizing_at = unixSeconds();
        }
        const jsonl = (entries: string[]) => Buffer.from(entries.map((e) => `${e}\n`).join(''));
        if (output.length > 0)
          b.output_file_id = saveFile(
            `${b.id}_output.jsonl`,
            'batch_output',
            jsonl(output),
            b.outputTtlSeconds,
          ).id;
        if (errors.length > 0)
          b.error_file_id = saveFile(
            `${b.id}_error.jsonl`,
            'batch_output',
            jsonl(errors),
            b.outputTtlSeconds,
          ).id;
        b.status = cancelled ? 'cancelled' : 'completed';
        b.times[cancelled ? 'cancelled_at' : 'completed_at'] = unixSeconds();
        b.lines = [];
      }
    } finally {
      working = false;
    }
  }

  return {
    async route(req, res, method, path) {
      expire();
      const query = new URL(req.url ?? '/', 'http://localhost').searchParams;
      if (path === '/v1/files') {
        if (method === 'GET') {
          const purpose = query.get('purpose');
          const all = [...files.values()].filter((f) => !purpose || f.purpose === purpose);
          // Newest first unless `order=asc`, as OpenAI lists them.
          if (query.get('order') !== 'asc') all.reverse();
          sendJson(res, 200, page(all.map(fileObject), query, { fallback: 10_000, max: 10_000 }));
          return true;
        }
        onlyMethod(method, 'POST', path);
        sendJson(res, 200, fileObject(await upload(req)));
        return true;
      }
      const file = /^\/v1\/files\/([^/]+)(\/content)?$/.exec(path);
      if (file) {
        const f = fileOf(decodeId(file[1] as string, 'file'));
        if (!file[2] && method === 'DELETE') {
          deleteFile(f);
          sendJson(res, 200, { id: f.id, object: 'file', deleted: true });
          return true;
        }
        onlyMethod(method, 'GET', path);
        if (!file[2]) sendJson(res, 200, fileObject(f));
        else {
          res.writeHead(200, {
            'content-type': 'application/octet-stream',
            'content-length': f.content.length,
          });
          res.end(f.content);
        }
        return true;
      }
      if (path === '/v1/batches') {
        if (method === 'GET') {
          // Newest first, as OpenAI lists them.
          const all = [...batches.values()].reverse().map(batchObject);
          sendJson(res, 200, page(all, query, { fallback: 20, max: 100 }));
          return true;
        }
        onlyMethod(method, 'POST', path);
        sendJson(res, 200, batchObject(await create(req)));
        return true;
      }
      const batch = /^\/v1\/batches\/([^/]+)(\/cancel)?$/.exec(path);
      if (batch) {
        const b = batchOf(decodeId(batch[1] as string, 'batch'));
        if (!batch[2]) {
          onlyMethod(method, 'GET', path);
          sendJson(res, 200, batchObject(b));
          return true;
        }
        onlyMethod(method, 'POST', path);
        if (b.status === 'in_progress' || b.status === 'validating') {
          b.status = 'cancelling';
          b.times.cancelling_at = unixSeconds();
          b.stop.abort(new Error('batch cancelled'));
          // Not started yet: nothing to wait for.
          const waiting = queue.indexOf(b);
          if (waiting >= 0) {
            queue.splice(waiting, 1);
            b.status = 'cancelled';
            b.times.cancelled_at = unixSeconds();
          }
        }
        sendJson(res, 200, batchObject(b));
        return true;
      }
      return false;
    },
    close() {
      closed = true;
      for (const b of batches.values()) b.stop.abort(new Error('server closing'));
    },
  };
}

/**
 * One page of a list, as OpenAI's cursor pages are: the items after the one named by `after`, at
 * most `limit` of them, and whether more follow (the SDKs' auto-pagination reads `has_more` and
 * asks again with `after` = the last id).
 */
function page<T extends { id: string }>(
  all: T[],
  query: URLSearchParams,
  limits: { fallback: number; max: number },
): { object: 'list'; data: T[]; first_id: string | null; last_id: string | null; has_more: boolean } {
  const limitText = query.get('limit');
  const limit = limitText === null ? limits.fallback : Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > limits.max)
    throw new HttpError(
      400,
      `Invalid 'limit': expected an integer from 1 to ${limits.max}, got ${limitText}.`,
      {
        param: 'limit',
        code: 'invalid_value',
      },
    );
  const after = query.get('after');
  let start = 0;
  if (after !== null) {
    const at = all.findIndex((x) => x.id === after);
    if (at < 0)
      throw new HttpError(400, `Invalid 'after': no object with id ${JSON.stringify(after)}.`, {
        param: 'after',
        code: 'invalid_value',
      });
    start = at + 1;
  }
  const data = all.slice(start, start + limit);
  return {
    object: 'list',
    data,
    first_id: data[0]?.id ?? null,
    last_id: data.at(-1)?.id ?? null,
    has_more: start + limit < all.length,
  };
}

/** `expires_after` (`{anchor: 'created_at', seconds}`): its seconds, or undefined when it is not given. */
function expiresAfter(anchor: unknown, seconds: unknown, param = 'expires_after'): number | undefined {
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

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function isStringRecord(x: unknown): x is Record<string, string> {
  return typeof x === 'object' && x !== null && Object.values(x).every((v) => typeof v === 'string');
}

/** One line of an input file: `{custom_id, method: POST, url: the endpoint, body}`, or what is wrong with it. */
function readLine(
  text: string,
  endpoint: string,
  seen: Set<string>,
): BatchLine | { code: string; message: string } {
  let v: Record<string, unknown>;
  try {
    v = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return { code: 'invalid_json', message: 'The line is not valid JSON.' };
  }
  if (typeof v !== 'object' || v === null || typeof v.custom_id !== 'string' || v.custom_id === '')
    return { code: 'missing_required_parameter', message: 'The line has no custom_id.' };
  if (seen.has(v.custom_id))
    return { code: 'duplicate_custom_id', message: `The custom_id '${v.custom_id}' is used more than once.` };
  seen.add(v.custom_id);
  if (v.method !== 'POST') return { code: 'invalid_method', message: 'Only method POST is supported.' };
  if (v.url !== endpoint)
    return {
      code: 'mismatched_endpoint',
      message: `The url ${JSON.stringify(v.url)} is not the batch's endpoint ${endpoint}.`,
    };
  if (typeof v.body !== 'object' || v.body === null)
    return { code: 'missing_required_parameter', message: 'The line has no body.' };
  return { custom_id: v.custom_id, body: v.body };
}
