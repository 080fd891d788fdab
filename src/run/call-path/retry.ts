import { ProviderError } from '../../models/errors.js';
import type { ProviderMiddleware } from './middleware.js';

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

export interface RetryClock {
  sleep?: SleepFn;
  /** The jitter source. */
  random?: () => number;
}

/**
 * Tries again after a transient error (429, 5xx, resets, timeouts, malformed bodies), with
 * full-jitter backoff and the server's Retry-After (`retryDelayMs`, docs/decisions.md E3). Any
 * other error, or the last retry's, is thrown. A stopped caller is never retried.
 */
export function retry(policy: RetryPolicy, clock: RetryClock = {}): ProviderMiddleware {
  const pause = clock.sleep ?? sleep;
  const random = clock.random ?? Math.random;
  return async (_call, options, next) => {
    for (let retry = 0; ; retry++) {
      options.signal?.throwIfAborted();
      try {
        return await next(options);
      } catch (error) {
        if (options.signal?.aborted) throw error;
        const delay = retryDelayMs(error, retry, policy, random);
        if (delay === undefined) throw error;
        options.observer?.onRetry?.(delay, error);
        await pause(delay, options.signal);
      }
    }
  };
}
