import { type RetryPolicy, retryDelayMs, type SleepFn, sleep } from '../retry.js';
import type { ProviderMiddleware } from './middleware.js';

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
