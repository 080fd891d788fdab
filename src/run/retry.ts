import { ProviderError } from '../models/errors.js';
import type { CellError } from './types.js';

/** Exponential backoff with full jitter (AWS architecture blog): delay = random * min(cap, base * 2^n). */
export interface RetryPolicy {
  /** Retries after the first call (so at most maxRetries + 1 calls per cell). */
  maxRetries: number;
  baseMs: number;
  capMs: number;
  /**
   * A server's Retry-After is honoured up to this long; beyond it we wait this long and try
   * anyway, so one odd header cannot park a run for hours.
   */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 4,
  baseMs: 500,
  capMs: 30_000,
  maxRetryAfterMs: 120_000,
};

/** Full-jitter backoff for the retry after failed attempt number `retry` (0-based). */
export function backoffMs(
  retry: number,
  policy: Pick<RetryPolicy, 'baseMs' | 'capMs'>,
  random: () => number,
): number {
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** Math.min(retry, 52));
  return Math.floor(random() * ceiling);
}

/**
 * How long to wait before retrying after `error`, or undefined when the cell must fail now:
 * the error is not retryable (auth, client, internal...) or the retries are used up.
 * `retry` is the 0-based index of the retry about to happen.
 */
export function retryDelayMs(
  error: unknown,
  retry: number,
  policy: RetryPolicy,
  random: () => number,
): number | undefined {
  if (!(error instanceof ProviderError) || !error.retryable) return undefined;
  if (retry >= policy.maxRetries) return undefined;
  const jittered = backoffMs(retry, policy, random);
  if (error.retryAfterMs !== undefined) {
    // The server said when: never sooner than that, but keep the jitter so a burst of 429s
    // answered with the same Retry-After does not come back as the same burst.
    return Math.min(policy.maxRetryAfterMs, error.retryAfterMs) + Math.floor(random() * policy.baseMs);
  }
  return jittered;
}

/** What a failed call is stored as. Anything that is not a ProviderError is a bug somewhere: 'internal'. */
export function toCellError(error: unknown): CellError {
  if (error instanceof ProviderError) {
    return {
      kind: error.kind,
      message: error.message,
      ...(error.status !== undefined ? { status: error.status } : {}),
    };
  }
  const message =
    error instanceof Error ? `${error.name}: ${error.message}` : `non-error thrown: ${String(error)}`;
  return { kind: 'internal', message };
}

/** setTimeout as a promise that rejects with the signal's reason when aborted. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export type SleepFn = (ms: number, signal?: AbortSignal) => Promise<void>;
