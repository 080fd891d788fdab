import { redact } from '../util/secrets.js';
import { ProviderError, parseRetryAfter } from './errors.js';
import { HttpStatusError } from './json-api.js';
import type { GenerateRequest } from './types.js';

/**
 * Maps whatever an HTTP provider's client throws to a ProviderError, so the run engine retries and
 * counts failures the same way for every provider: waver's own JSON client (json-api.ts) or an
 * official SDK. Both SDKs (openai, @anthropic-ai/sdk) are Stainless-generated and share error
 * shapes; a caller that uses one hands in its classes so this module loads neither SDK itself.
 */
export interface SdkErrorClasses {
  APIError: abstract new (...args: never[]) => Error;
  APIConnectionError: abstract new (...args: never[]) => Error;
  APIConnectionTimeoutError: abstract new (...args: never[]) => Error;
  APIUserAbortError: abstract new (...args: never[]) => Error;
}

export interface ErrorContext {
  /** Prefix naming the model and endpoint, e.g. `openai:gpt-4o-mini@https://api.openai.com/v1`. */
  where: string;
  /** Secrets to scrub from every message (the API key). */
  secrets: readonly (string | undefined)[];
  /** The caller's signal: an abort it caused is a timeout, whatever the SDK calls it. */
  signal?: AbortSignal;
}

/** `toProviderError` bound to one provider's SDK classes, identity and key; the signal varies per call. */
export function sdkErrorMapper(
  classes: SdkErrorClasses | undefined,
  where: string,
  secrets: readonly (string | undefined)[],
): (err: unknown, signal?: AbortSignal) => ProviderError {
  return (err, signal) => toProviderError(err, classes, { where, secrets, signal });
}

/** Longest server-provided text kept in a message: error pages can be whole HTML documents. */
const MAX_DETAIL = 300;

export function toProviderError(
  err: unknown,
  classes: SdkErrorClasses | undefined,
  ctx: ErrorContext,
): ProviderError {
  // Already mapped (our own validation of a body, or our fetch's cap, which an SDK wraps as a
  // connection error); still scrub, the message may quote the body.
  const mapped = providerErrorIn(err);
  if (mapped) {
    const message = mapped.message.startsWith(ctx.where) ? mapped.message : `${ctx.where}: ${mapped.message}`;
    return new ProviderError(mapped.kind, redact(message, ctx.secrets), {
      status: mapped.status,
      retryAfterMs: mapped.retryAfterMs,
    });
  }
  const make = (kind: ConstructorParameters<typeof ProviderError>[0], detail: string, extra = {}) =>
    new ProviderError(kind, redact(`${ctx.where}: ${clip(detail)}`, ctx.secrets), extra);

  if (ctx.signal?.aborted || (classes && err instanceof classes.APIUserAbortError) || isAbortError(err)) {
    const reason = ctx.signal?.reason;
    const why =
      reason instanceof Error && reason.name === 'TimeoutError' ? 'request timed out' : 'request aborted';
    return make('timeout', why);
  }
  if (classes && err instanceof classes.APIConnectionTimeoutError)
    return make('timeout', 'request timed out');
  if (classes && err instanceof classes.APIConnectionError)
    return make('network', `connection failed (${causeChain(err)})`);
  if (err instanceof HttpStatusError || (classes && err instanceof classes.APIError)) {
    const status = (err as { status?: unknown }).status;
    const headers = (err as { headers?: unknown }).headers;
    if (typeof status === 'number') {
      const retryAfterMs = retryAfterFrom(headers instanceof Headers ? headers : undefined);
      const opts = { status, retryAfterMs };
      const detail = `HTTP ${err.message}`;
      // A spent quota is no rate limit: waiting does not refill it (docs/decisions.md E35).
      if (status === 402 || (status === 429 && errorCodes(err).includes('insufficient_quota')))
        return make('quota', `${detail} (the account's quota or credit is spent)`, opts);
      if (status === 429) return make('rate_limit', detail, opts);
      if (status === 401 || status === 403) return make('auth', `${detail} (check the API key)`, opts);
      // 408 is the server saying it gave up waiting: the same as our own timeout.
      if (status === 408) return make('timeout', detail, opts);
      if (status >= 500) return make('server', detail, opts);
      if (status >= 400) return make('client', detail, opts);
      return make('bad_response', detail, opts);
    }
    return make('network', err.message);
  }
  if (err instanceof SyntaxError) return make('bad_response', `malformed response body (${err.message})`);
  // A socket error from waver's own client (refused, reset, DNS): the SDKs wrap these as connection errors.
  if (isSocketError(err)) return make('network', `connection failed (${causeChain(err)})`);
  // fetch (undici inside Node): a body cut off mid-read ("terminated") or a socket error surfacing outside the SDK.
  if (
    err instanceof TypeError &&
    /terminated|fetch failed|socket|ECONN/i.test(`${err.message} ${causeChain(err)}`)
  ) {
    return make('network', `connection failed (${causeChain(err)})`);
  }
  return make('bad_response', err instanceof Error ? err.message : String(err));
}

/** The ProviderError `err` is, or wraps (an SDK wraps what its fetch threw in a connection error). */
function providerErrorIn(err: unknown): ProviderError | undefined {
  let cur: unknown = err;
  for (let depth = 0; cur instanceof Error && depth < 4; depth++) {
    if (cur instanceof ProviderError) return cur;
    cur = cur.cause;
  }
  return undefined;
}

/**
 * The error codes and types an HTTP error names: waver's JSON client's `code`, the OpenAI SDK's
 * `code` and `type`, the Anthropic SDK's `error.error.type`.
 */
function errorCodes(err: Error): string[] {
  const e = err as { code?: unknown; type?: unknown; error?: { type?: unknown; error?: { type?: unknown } } };
  return [e.code, e.type, e.error?.type, e.error?.error?.type].filter(
    (c): c is string => typeof c === 'string',
  );
}

/** Retry-After as the OpenAI/Anthropic APIs send it: `retry-after-ms` (float ms) wins over `retry-after`. */
export function retryAfterFrom(headers: Headers | undefined): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms !== null) {
    const n = Number.parseFloat(ms);
    if (Number.isFinite(n) && n >= 0) return n;
  }
  return parseRetryAfter(headers.get('retry-after'));
}

function clip(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_DETAIL ? `${flat.slice(0, MAX_DETAIL)}…` : flat;
}

function isSocketError(err: unknown): err is Error {
  const code = (err as { code?: unknown })?.code;
  return err instanceof Error && typeof code === 'string' && /^(E[A-Z]+|UND_ERR_\w+)$/.test(code);
}

function isAbortError(err: unknown): boolean {
  return err instanceof Error && (err.name === 'AbortError' || err.name === 'TimeoutError');
}

/** "fetch failed: read ECONNRESET" — the useful part of a connection error is in its causes. */
function causeChain(err: Error): string {
  const parts: string[] = [];
  let cur: unknown = err;
  for (let depth = 0; cur instanceof Error && depth < 4; depth++) {
    const code = (cur as { code?: unknown }).code;
    parts.push(
      typeof code === 'string' && !cur.message.includes(code) ? `${cur.message} [${code}]` : cur.message,
    );
    cur = cur.cause;
  }
  return parts.join(': ');
}

/** A 2xx body that does not fit the API: retryable, since a flaky proxy or server produces these. */
/** A chat API always applies a chat template, which a raw prompt means to bypass: say so instead of guessing. */
export function rejectRawPrompt(where: string, request: GenerateRequest): void {
  if (request.rawPrompt !== undefined)
    throw new ProviderError('unsupported', `${where}: raw prompts are not supported (chat only)`);
}

export function badResponse(detail: string): ProviderError {
  return new ProviderError('bad_response', `malformed response: ${detail}`);
}

export function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** A short description of an unexpected body, for error messages. */
export function describeBody(x: unknown): string {
  if (typeof x === 'string') return `text '${clip(x).slice(0, 60)}'`;
  return x === null ? 'null' : Array.isArray(x) ? 'an array' : typeof x;
}
