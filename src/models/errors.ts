/**
 * Errors a model call can end with. The run engine decides on retries from `retryable`
 * and stores `kind` + `message` with the failed cell, so every failure is counted by reason.
 */
export type ProviderErrorKind =
  | 'rate_limit' // 429
  | 'server' // 5xx
  | 'timeout' // no answer within the per-request timeout
  | 'network' // connection refused / reset / DNS
  | 'bad_response' // malformed JSON or a body that does not fit the API
  | 'auth' // 401/403, missing key
  | 'client' // other 4xx: the request itself is wrong
  | 'no_recording' // replay: no recorded answer for this request
  | 'unsupported'; // the provider lacks the capability

/** A client error's exact cause, where a client can act on it. */
export type ProviderErrorReason = 'context_length_exceeded' | 'invalid_json_schema';

const RETRYABLE: ReadonlySet<ProviderErrorKind> = new Set([
  'rate_limit',
  'server',
  'timeout',
  'network',
  'bad_response',
]);

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
}

/** Parses a Retry-After header (seconds or HTTP date) into milliseconds. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
