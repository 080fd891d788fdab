import { WAVER_VERSION } from '../version.js';
import type { FetchFn } from './types.js';

/**
 * One JSON request to an HTTP API, for the calls a run makes per cell (docs/decisions.md#e10): the
 * official SDK built ~20 KB of headers, options and wrappers per call and took ~0.1 s to load,
 * which is more than a small run's calls cost. Retries and timeouts are the call path's, as they
 * were with the SDK (maxRetries 0, the caller's signal).
 */
export interface JsonApi {
  post(path: string, body: unknown, signal?: AbortSignal): Promise<unknown>;
}

/** A non-2xx answer: its status, headers, the server's own message and error code, for the error mapper. */
export class HttpStatusError extends Error {
  override readonly name = 'HttpStatusError';
  constructor(
    readonly status: number,
    readonly headers: Headers,
    detail: string,
    /** `error.code` (else `error.type`) of an OpenAI-style error body, e.g. `insufficient_quota`. */
    readonly code?: string,
  ) {
    super(`${status} ${detail}`);
  }
}

export function jsonApi(opts: { baseURL: string; headers: Record<string, string>; fetch: FetchFn }): JsonApi {
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json',
    'user-agent': `waver/${WAVER_VERSION}`,
    ...opts.headers,
  };
  return {
    async post(path, body, signal) {
      const res = await opts.fetch(`${opts.baseURL}${path}`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        signal: signal ?? null,
      });
      const text = await res.text();
      if (!res.ok) {
        const { detail, code } = errorDetail(text, res.statusText);
        throw new HttpStatusError(res.status, res.headers, detail, code);
      }
      // A body that is not JSON throws a SyntaxError: the mapper's malformed-body case.
      return JSON.parse(text) as unknown;
    },
  };
}

/**
 * The server's message as the OpenAI-style APIs put it (`{"error": {"message", "code", "type"}}`),
 * else the body's text; and its error code, where it names one.
 */
function errorDetail(text: string, statusText: string): { detail: string; code?: string } {
  try {
    const body = JSON.parse(text) as {
      error?: { message?: unknown; code?: unknown; type?: unknown } | string;
      message?: unknown;
    } | null;
    const error = body?.error;
    if (typeof error === 'string') return { detail: error };
    const code = [error?.code, error?.type].find((c): c is string => typeof c === 'string');
    const withCode = code === undefined ? {} : { code };
    if (typeof error?.message === 'string') return { detail: error.message, ...withCode };
    if (typeof body?.message === 'string') return { detail: body.message, ...withCode };
  } catch {
    // Not JSON: an HTML error page or plain text.
  }
  return { detail: text.trim() || statusText || 'status code (no body)' };
}
