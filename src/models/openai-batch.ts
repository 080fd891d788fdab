import type OpenAI from 'openai';
import {
  batchLineError,
  customIdIn,
  type JsonLine,
  jsonLines,
  statusErrorKind,
  unreadableLine,
} from './batch.js';
import type { ProviderError } from './errors.js';
import { badResponse, isObject } from './http-errors.js';
import type {
  BatchApi,
  BatchItem,
  BatchOutcome,
  BatchStatus,
  GenerateRequest,
  GenerateResult,
} from './types.js';

/** OpenAI's limits on one batch's input file (docs/batch.md#limits). */
export const OPENAI_BATCH_LIMITS = { maxRequests: 50_000, maxBytes: 200 * 1024 * 1024 };

const ENDPOINT = '/v1/chat/completions';

/** Error codes of a line the batch never got to (expired or cancelled first): asked again. */
const NOT_ANSWERED = new Set(['batch_expired', 'batch_cancelled']);

const RUNNING = new Set(['validating', 'in_progress', 'finalizing', 'cancelling']);

/** The official SDK, loaded on a batch's first call: interactive runs never need it (docs/decisions.md#e10). */
export interface OpenAISdk {
  client: OpenAI;
  toFile: typeof import('openai').toFile;
  fail: (err: unknown, signal?: AbortSignal) => ProviderError;
}

/** What the provider (openai.ts) hands over: its SDK, and how it writes and reads a chat body. */
export interface OpenAIBatchContext {
  sdk: () => Promise<OpenAISdk>;
  identity: string;
  /** The chat-completions body an interactive call would send (throws a ProviderError when it cannot). */
  body: (request: GenerateRequest) => unknown;
  /** An answer's body read as an interactive call reads it. */
  read: (body: unknown) => GenerateResult;
}

/**
 * OpenAI's Batch API through the official SDK: a JSONL file of chat-completion requests (the same
 * lines as vLLM's `run_batch` input) uploaded with purpose `batch`, a batch over it, and its output
 * and error files read back line by line.
 */
export function openAIBatchApi(ctx: OpenAIBatchContext): BatchApi {
  const { identity } = ctx;
  const line = (item: BatchItem) =>
    JSON.stringify({ custom_id: item.customId, method: 'POST', url: ENDPOINT, body: ctx.body(item.request) });
  const call = async <T>(signal: AbortSignal | undefined, fn: (sdk: OpenAISdk) => Promise<T>): Promise<T> => {
    const sdk = await ctx.sdk();
    try {
      return await fn(sdk);
    } catch (err) {
      throw sdk.fail(err, signal);
    }
  };

  return {
    limits: OPENAI_BATCH_LIMITS,
    size: (item) => Buffer.byteLength(line(item)) + 1,

    submit: (items, options = {}) =>
      call(options.signal, async (sdk) => {
        const { client, toFile } = sdk;
        const jsonl = `${items.map(line).join('\n')}\n`;
        const file = await client.files.create(
          { file: await toFile(Buffer.from(jsonl), 'waver-batch.jsonl'), purpose: 'batch' },
          { signal: options.signal },
        );
        options.onInput?.(file.id);
        return createBatch(sdk, file.id, options.signal);
      }),

    resubmit: (inputRef, options = {}) =>
      call(
        options.signal,
        async (sdk) =>
          (await batchMadeOver(sdk, inputRef, options.signal)) ?? createBatch(sdk, inputRef, options.signal),
      ),

    status: (id, options = {}) =>
      call(options.signal, async ({ client }) =>
        statusOf(await client.batches.retrieve(id, { signal: options.signal })),
      ),

    async *results(id, options = {}) {
      const batch = await call(options.signal, ({ client }) =>
        client.batches.retrieve(id, { signal: options.signal }),
      );
      for (const fileId of [batch.output_file_id, batch.error_file_id]) {
        if (!fileId) continue;
        const content = await call(options.signal, ({ client }) =>
          client.files.content(fileId, { signal: options.signal }),
        );
        for await (const line of jsonLines(content.body)) {
          const outcome = lineOutcome(line, identity, ctx.read);
          if (outcome) yield outcome;
        }
      }
    },
  };
}

async function createBatch(
  { client }: OpenAISdk,
  inputFileId: string,
  signal?: AbortSignal,
): Promise<string> {
  return (
    await client.batches.create(
      { input_file_id: inputFileId, endpoint: ENDPOINT, completion_window: '24h' },
      { signal },
    )
  ).id;
}

/** The batch over an input file, looked for among those made since the file was (newest first). */
async function batchMadeOver(
  { client }: OpenAISdk,
  inputFileId: string,
  signal?: AbortSignal,
): Promise<string | undefined> {
  const file = await client.files.retrieve(inputFileId, { signal });
  for await (const batch of client.batches.list({ limit: 100 }, { signal })) {
    if (batch.input_file_id === inputFileId) return batch.id;
    if (batch.created_at < file.created_at) return undefined;
  }
  return undefined;
}

type OpenAIBatch = Awaited<ReturnType<OpenAISdk['client']['batches']['retrieve']>>;

/** A batch's state as waver follows it: running, failed (with the lines' errors) or ended. */
function statusOf(batch: OpenAIBatch): BatchStatus {
  const counts = batch.request_counts ?? { total: 0, completed: 0, failed: 0 };
  const finished = counts.completed + counts.failed;
  if (RUNNING.has(batch.status)) return { state: 'running', finished, total: counts.total };
  if (batch.status === 'failed') {
    const why = (batch.errors?.data ?? [])
      .map((e) => `${e.line != null ? `line ${e.line}: ` : ''}${e.message ?? e.code ?? 'error'}`)
      .join('; ');
    return { state: 'failed', finished, total: counts.total, message: why || 'the batch failed' };
  }
  return {
    state: 'ended',
    finished,
    total: counts.total,
    ...(batch.status !== 'completed' && { message: `the batch ${batch.status}` }),
  };
}

/**
 * A line of an output or error file, a broken one included: a line that is not JSON, or has no
 * custom id, is its cell's error when the cell can still be told (its `custom_id` in the text);
 * else it answers no cell, which is then asked again as one the batch left unanswered.
 */
export function lineOutcome(
  line: JsonLine,
  where: string,
  read: (body: unknown) => GenerateResult,
): BatchOutcome | undefined {
  if (line.ok && isObject(line.value) && typeof line.value.custom_id === 'string')
    return outcomeOf(line.value, where, read);
  const text = line.ok ? JSON.stringify(line.value) : line.text;
  const customId = customIdIn(text);
  if (customId === undefined) return undefined;
  const why = line.ok ? 'its custom_id is not a string' : `it is not JSON (${line.error})`;
  return {
    customId,
    ok: false,
    error: batchLineError(where, 'bad_response', `a malformed batch output line: ${why}`),
  };
}

/** One line of an output or error file: `{id, custom_id, response: {status_code, body}, error}`. */
export function outcomeOf(
  value: unknown,
  where: string,
  read: (body: unknown) => GenerateResult,
): BatchOutcome {
  if (!isObject(value) || typeof value.custom_id !== 'string')
    throw badResponse('a batch output line has no custom_id');
  const customId = value.custom_id;
  if (isObject(value.error)) {
    const code = typeof value.error.code === 'string' ? value.error.code : '';
    const message = typeof value.error.message === 'string' ? value.error.message : code || 'error';
    if (NOT_ANSWERED.has(code)) return { customId, ok: false, missing: message };
    return { customId, ok: false, error: batchLineError(where, 'client', message) };
  }
  const response = isObject(value.response) ? value.response : undefined;
  const status = typeof response?.status_code === 'number' ? response.status_code : undefined;
  if (!response || status === undefined)
    return { customId, ok: false, error: batchLineError(where, 'bad_response', 'the line has no response') };
  if (status !== 200) {
    const body = isObject(response.body) ? response.body : {};
    const error = isObject(body.error) ? body.error : {};
    const message = typeof error.message === 'string' ? error.message : `HTTP ${status}`;
    const code = typeof error.code === 'string' ? error.code : undefined;
    return {
      customId,
      ok: false,
      error: batchLineError(where, statusErrorKind(status, code), `HTTP ${status} ${message}`, status),
    };
  }
  try {
    // A refused request is an answer here as in an interactive call (docs/decisions.md#e34-a-refusal-is-an-answer).
    return { customId, ok: true, result: read(response.body) };
  } catch (err) {
    return { customId, ok: false, error: unreadableLine(where, err) };
  }
}
