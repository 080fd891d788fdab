/**
 * Errors a model call can end with. The run engine decides on retries from `retryable`
 * and stores `kind` + `message` with the failed cell, so every failure is counted by reason.
 */

import type { ProviderErrorKind } from '../domain/calls.js';

export type { ProviderErrorKind } from '../domain/calls.js';

/** A client error's exact cause, where a client can act on it. */
export type ProviderErrorReason = 'context_length_exceeded' | 'invalid_json_schema';

const RETRYABLE: ReadonlySet<ProviderErrorKind> = new Set([
  'rate_limit',
  'server',
  'timeout',
  'network',
  'bad_response',
]);

/**
 * Kinds no retry or later call of the same model can mend until someone acts (a key, a bill): the
 * first stops the model (docs/decisions.md#e35-a-refused-key-or-a-spent-quota-stops-the-model).
 */
const STOPS_MODEL: ReadonlySet<ProviderErrorKind> = new Set(['auth', 'quota']);

export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  readonly kind: ProviderErrorKind;
  readonly status?: number;
  /** From a Retry-After header, when the server sent one. */
  readonly retryAfterMs?: number;
  /** What exactly is wrong, where a client can act on it (`waver serve` answers with it as OpenAI's `code`). */
  readonly reason?: ProviderErrorReason;

  constructor(
    kind: ProviderErrorKind,
    message: string,
    opts: {
      status?: number;
      retryAfterMs?: number;
      cause?: unknown;
      reason?: ProviderErrorReason;
    } = {},
  ) {
    super(message, { cause: opts.cause });
    this.kind = kind;
    this.status = opts.status;
    this.retryAfterMs = opts.retryAfterMs;
    this.reason = opts.reason;
  }

  get retryable(): boolean {
    return RETRYABLE.has(this.kind);
  }

  /** No further call to this model can succeed: the run stops calling it. */
  get stopsModel(): boolean {
    return STOPS_MODEL.has(this.kind);
  }
}

/** Parses a Retry-After header (seconds or HTTP date) into milliseconds. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
