import type Anthropic from '@anthropic-ai/sdk';
import { batchLineError, unreadableLine } from './batch.js';
import type { ProviderError, ProviderErrorKind } from './errors.js';
import { badResponse, isObject } from './http-errors.js';
import type {
  BatchApi,
  BatchItem,
  BatchOutcome,
  BatchStatus,
  GenerateRequest,
  GenerateResult,
} from './types.js';

/** Anthropic's limits on one Message Batch (docs/batch.md#limits). */
export const ANTHROPIC_BATCH_LIMITS = { maxRequests: 100_000, maxBytes: 256 * 1024 * 1024 };

/** What the provider (anthropic.ts) hands over: its client, and how it writes and reads a body. */
export interface AnthropicBatchContext {
  client: Anthropic;
  identity: string;
  /** The Messages body an interactive call would send (throws a ProviderError when it cannot). */
  body: (request: GenerateRequest) => Anthropic.Messages.MessageCreateParamsNonStreaming;
  read: (body: unknown) => GenerateResult;
  fail: (err: unknown, signal?: AbortSignal) => ProviderError;
}

/** The kind of an errored result, by the API's error type (as its HTTP statuses map, http-errors.ts). */
const ERROR_KINDS: Record<string, ProviderErrorKind> = {
  invalid_request_error: 'client',
  not_found_error: 'client',
  request_too_large: 'client',
  authentication_error: 'auth',
  permission_error: 'auth',
  billing_error: 'quota',
  rate_limit_error: 'rate_limit',
  api_error: 'server',
  overloaded_error: 'server',
  timeout_error: 'timeout',
};

/** Anthropic's Message Batches through the official SDK: create, retrieve, and the results JSONL. */
export function anthropicBatchApi(ctx: AnthropicBatchContext): BatchApi {
  const { client, identity, fail } = ctx;
  const entry = (item: BatchItem) => ({ custom_id: item.customId, params: ctx.body(item.request) });
  const call = async <T>(signal: AbortSignal | undefined, fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (err) {
      throw fail(err, signal);
    }
  };
  return {
    limits: ANTHROPIC_BATCH_LIMITS,
    // Its part of the create body: the entry and a comma.
    size: (item) => Buffer.byteLength(JSON.stringify(entry(item))) + 1,

    submit: (items, options = {}) =>
      call(options.signal, async () => {
        const batch = await client.messages.batches.create(
          { requests: items.map(entry) },
          { signal: options.signal },
        );
        return batch.id;
      }),

    status: (id, options = {}) =>
      call(options.signal, async (): Promise<BatchStatus> => {
        const batch = await client.messages.batches.retrieve(id, {}, { signal: options.signal });
        const c = batch.request_counts;
        const finished = c.succeeded + c.errored + c.canceled + c.expired;
        const total = finished + c.processing;
        if (batch.processing_status !== 'ended') return { state: 'running', finished, total };
        const short = [c.expired && `${c.expired} expired`, c.canceled && `${c.canceled} cancelled`]
          .filter(Boolean)
          .join(', ');
        return {
          state: 'ended',
          finished,
          total,
          ...(short && { message: `the batch ended with ${short}` }),
        };
      }),

    async *results(id, options = {}) {
      const lines = await call(options.signal, () =>
        client.messages.batches.results(id, {}, { signal: options.signal }),
      );
      try {
        for await (const line of lines) yield outcomeOf(line, identity, ctx.read);
      } catch (err) {
        throw fail(err, options.signal);
      }
    },
  };
}

/** One results line: `{custom_id, result: {type: succeeded | errored | canceled | expired, ...}}`. */
export function outcomeOf(
  value: unknown,
  where: string,
  read: (body: unknown) => GenerateResult,
): BatchOutcome {
  if (!isObject(value) || typeof value.custom_id !== 'string' || !isObject(value.result))
    throw badResponse('a batch results line has no custom_id and result');
  const customId = value.custom_id;
  const result = value.result;
  switch (result.type) {
    case 'succeeded':
      // A `stop_reason: refusal` is an answer here as in an interactive call (docs/decisions.md#e34-a-refusal-is-an-answer).
      try {
        return { customId, ok: true, result: read(result.message) };
      } catch (err) {
        return { customId, ok: false, error: unreadableLine(where, err) };
      }
    case 'errored': {
      // `error` is the API's error response: {type: 'error', error: {type, message}}.
      const outer = isObject(result.error) ? result.error : {};
      const inner = isObject(outer.error) ? outer.error : outer;
      const type = typeof inner.type === 'string' ? inner.type : 'api_error';
      const message = typeof inner.message === 'string' ? inner.message : type;
      return { customId, ok: false, error: batchLineError(where, ERROR_KINDS[type] ?? 'server', message) };
    }
    case 'canceled':
    case 'expired':
      return {
        customId,
        ok: false,
        missing: `the request ${result.type === 'canceled' ? 'was cancelled' : 'expired'}`,
      };
    default:
      throw badResponse(`a batch result of unknown type ${JSON.stringify(result.type)}`);
  }
}
