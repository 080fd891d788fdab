import type { Route } from '../http/route-table.js';
import type { ModelProvider } from '../models/types.js';
import {
  blamingParam,
  decodeId,
  type Exchange,
  HttpError,
  readJsonBody,
  sendJson,
  toHttpError,
} from './http-util.js';
import { ensureServedModel } from './model-name.js';
import { answerChat, answerCompletion } from './openai-answers.js';
import {
  expiresAfter,
  type FileLimits,
  FileStore,
  fileRoutes,
  type StoredFile,
  searchParams,
} from './openai-files.js';
import { parseChatRequest, parseCompletionRequest } from './openai-requests.js';
import { listPage, newObjectId, type ResponseMeta, unixSeconds } from './openai-responses.js';

/**
 * OpenAI's Files and Batch API over the served model (docs/batch.md#waver-serve): a JSONL file
 * uploaded with purpose `batch` (the same lines as vLLM's `run_batch` input: `{custom_id, method,
 * url, body}`), a batch over it processed in the background one request at a time through the
 * server's own generation path, and its output and error files. Batches are kept in memory and
 * files on disk (`openai-files.ts`), both gone when the server stops: a restarted server knows no
 * batch. A batch holds its input's lines while it runs: memory is bounded by the file limits.
 */

/** OpenAI's limit on requests per batch. */
const MAX_BATCH_REQUESTS = 50_000;

const ENDPOINTS = new Set(['/v1/chat/completions', '/v1/completions']);

type BatchStatus =
  | 'validating'
  | 'failed'
  | 'in_progress'
  | 'finalizing'
  | 'completed'
  | 'cancelling'
  | 'cancelled';

interface BatchLine {
  custom_id: string;
  body: unknown;
}

type BatchErrors = {
  object: 'list';
  data: { code: string; message: string; line: number | null; param: null }[];
} | null;

interface Batch {
  id: string;
  endpoint: string;
  input_file_id: string;
  completion_window: string;
  status: BatchStatus;
  created_at: number;
  metadata: Record<string, string> | null;
  errors: BatchErrors;
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

export interface BatchServiceOptions extends FileLimits {
  provider: ModelProvider;
  meta: (prefix: 'chatcmpl' | 'cmpl') => ResponseMeta;
  /** Largest JSON body of the other routes. */
  maxBodyBytes: number;
}

/** The files and batches of one server, and the background worker that answers the batches. */
export class BatchService {
  private readonly files: FileStore;
  private readonly batches = new Map<string, Batch>();
  /** Batches waiting for the worker, in order. */
  private readonly queue: Batch[] = [];
  private working = false;
  private closed = false;

  constructor(private readonly opts: BatchServiceOptions) {
    this.files = new FileStore(opts);
  }

  /** The Files and Batch routes. */
  routes(): Route<Exchange>[] {
    const batchOf = (params: { id?: string }) => {
      this.files.expire();
      return this.get(decodeId(params.id ?? '', 'batch'));
    };
    return [
      ...fileRoutes(this.files),
      {
        method: 'GET',
        path: '/v1/batches',
        handle: ({ req, res }) => {
          this.files.expire();
          // Newest first, as OpenAI lists them.
          const all = [...this.batches.values()].reverse().map(batchObject);
          sendJson(res, 200, listPage(all, searchParams(req), { fallback: 20, max: 100 }));
        },
      },
      {
        method: 'POST',
        path: '/v1/batches',
        handle: async ({ req, res }) => {
          this.files.expire();
          const body = await readJsonBody(req, this.opts.maxBodyBytes);
          sendJson(res, 200, batchObject(this.create(body)));
        },
      },
      {
        method: 'GET',
        path: '/v1/batches/:id',
        handle: ({ res }, p) => sendJson(res, 200, batchObject(batchOf(p))),
      },
      {
        method: 'POST',
        path: '/v1/batches/:id/cancel',
        handle: ({ res }, p) => sendJson(res, 200, batchObject(this.cancel(batchOf(p)))),
      },
    ];
  }

  /** Stops the background work and deletes the files (the server is closing). */
  close(): void {
    this.closed = true;
    for (const b of this.batches.values()) b.stop.abort(new Error('server closing'));
    this.files.close();
  }

  private get(batchId: string): Batch {
    const b = this.batches.get(batchId);
    if (!b)
      throw new HttpError(404, `No batch found with id '${batchId}'.`, { param: 'id', code: 'not_found' });
    return b;
  }

  /** A batch over an uploaded file: failed at once when its lines are not valid, else queued. */
  private create(body: unknown): Batch {
    const b = newBatch(
      parseCreate(
        body,
        (id) => this.files.get(id),
        (f) => this.files.content(f),
      ),
      this.files.ttlSeconds,
    );
    this.batches.set(b.id, b);
    if (b.status === 'in_progress') {
      this.queue.push(b);
      void this.work();
    }
    return b;
  }

  /** `cancelling`, then `cancelled` once the request in progress stops (at once when none has started). */
  private cancel(b: Batch): Batch {
    if (b.status !== 'in_progress' && b.status !== 'validating') return b;
    b.status = 'cancelling';
    b.times.cancelling_at = unixSeconds();
    b.stop.abort(new Error('batch cancelled'));
    const waiting = this.queue.indexOf(b);
    if (waiting >= 0) {
      this.queue.splice(waiting, 1);
      b.status = 'cancelled';
      b.times.cancelled_at = unixSeconds();
    }
    return b;
  }

  /** The background worker: batches in order, one request at a time (the model is one). */
  private async work(): Promise<void> {
    if (this.working) return;
    this.working = true;
    try {
      for (let b = this.queue.shift(); b && !this.closed; b = this.queue.shift()) {
        const { output, errors } = await this.answerAll(b);
        if (this.closed) return;
        this.finish(b, output, errors);
      }
    } finally {
      this.working = false;
    }
  }

  /** The batch's requests answered in order, as output and error lines, until it is cancelled. */
  private async answerAll(b: Batch): Promise<{ output: string[]; errors: string[] }> {
    const output: string[] = [];
    const errors: string[] = [];
    for (const line of b.lines) {
      if (b.stop.signal.aborted) break;
      const { status, body } = await this.answer(b, line);
      if (b.stop.signal.aborted && status !== 200) break; // cut short by the cancel: not answered
      const entry = JSON.stringify({
        id: newObjectId('batch_req_'),
        custom_id: line.custom_id,
        response: { status_code: status, request_id: newObjectId('req_'), body },
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
    return { output, errors };
  }

  /** One request of a batch, as its own route would answer it: status and body. */
  private async answer(b: Batch, line: BatchLine): Promise<{ status: number; body: unknown }> {
    const { provider, meta } = this.opts;
    const signal = b.stop.signal;
    try {
      ensureServedModel(meta('cmpl').model, line.body);
      if (b.endpoint === '/v1/chat/completions') {
        const call = noStream(parseChatRequest(line.body));
        const body = await blamingParam('messages', answerChat(provider, call, meta('chatcmpl'), signal));
        return { status: 200, body };
      }
      const call = noStream(parseCompletionRequest(line.body));
      return {
        status: 200,
        body: await blamingParam('prompt', answerCompletion(provider, call, meta('cmpl'), signal)),
      };
    } catch (error) {
      const e = toHttpError(error);
      return { status: e.status, body: e.body() };
    }
  }

  /** Its output and error files written, the batch is completed (or cancelled). */
  private finish(b: Batch, output: string[], errors: string[]): void {
    const cancelled = b.status === 'cancelling';
    if (!cancelled) {
      b.status = 'finalizing';
      b.times.finalizing_at = unixSeconds();
    }
    const save = (kind: 'output' | 'error', entries: string[]) =>
      this.files.save(
        `${b.id}_${kind}.jsonl`,
        'batch_output',
        entries.map((e) => `${e}\n`).join(''),
        b.outputTtlSeconds,
      ).id;
    if (output.length > 0) b.output_file_id = save('output', output);
    if (errors.length > 0) b.error_file_id = save('error', errors);
    b.status = cancelled ? 'cancelled' : 'completed';
    b.times[cancelled ? 'cancelled_at' : 'completed_at'] = unixSeconds();
    b.lines = [];
  }
}

/** What a create asks for, checked: the endpoint, the input file's lines (or their errors) and metadata. */
interface CreateRequest {
  endpoint: string;
  inputFileId: string;
  lines: BatchLine[];
  errors: BatchErrors;
  metadata: Record<string, string> | null;
  outputTtlSeconds: number | undefined;
}

function parseCreate(
  raw: unknown,
  fileOf: (id: string) => StoredFile,
  contentOf: (f: StoredFile) => Buffer,
): CreateRequest {
  const body: Record<string, unknown> = isRecord(raw) ? raw : {};
  const endpoint = body.endpoint;
  if (typeof endpoint !== 'string' || !ENDPOINTS.has(endpoint))
    throw new HttpError(
      400,
      `Unsupported endpoint ${JSON.stringify(endpoint)}; use one of ${[...ENDPOINTS].join(', ')}.`,
      { param: 'endpoint', code: 'invalid_value' },
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
  const expiry = body.output_expires_after;
  const outputTtlSeconds = isRecord(expiry)
    ? expiresAfter(expiry.anchor, expiry.seconds, 'output_expires_after')
    : undefined;
  return {
    endpoint,
    inputFileId: input.id,
    ...readLines(contentOf(input), endpoint),
    metadata: isStringRecord(body.metadata) ? body.metadata : null,
    outputTtlSeconds,
  };
}

function newBatch(c: CreateRequest, fileTtlSeconds: number): Batch {
  const now = unixSeconds();
  const failed = c.errors !== null;
  return {
    id: newObjectId('batch_'),
    endpoint: c.endpoint,
    input_file_id: c.inputFileId,
    completion_window: '24h',
    status: failed ? 'failed' : 'in_progress',
    created_at: now,
    metadata: c.metadata,
    errors: c.errors,
    output_file_id: null,
    error_file_id: null,
    request_counts: { total: failed ? 0 : c.lines.length, completed: 0, failed: 0 },
    times: failed ? { failed_at: now } : { in_progress_at: now },
    lines: failed ? [] : c.lines,
    stop: new AbortController(),
    outputTtlSeconds: c.outputTtlSeconds ?? fileTtlSeconds,
  };
}

function batchObject(b: Batch) {
  return {
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
  };
}

/** A batch's request may not stream: its answer goes in a file. */
function noStream<T extends { stream: boolean }>(call: T): T {
  if (call.stream) throw new HttpError(400, 'stream is not supported in a batch.', { param: 'stream' });
  return call;
}

/** The input file's lines, or the errors OpenAI would fail the batch with. */
function readLines(content: Buffer, endpoint: string): { lines: BatchLine[]; errors: BatchErrors } {
  const lines: BatchLine[] = [];
  const data: NonNullable<BatchErrors>['data'] = [];
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

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function isStringRecord(x: unknown): x is Record<string, string> {
  return typeof x === 'object' && x !== null && Object.values(x).every((v) => typeof v === 'string');
}
