import { concurrency } from './concurrency.js';
import { dedupe } from './dedupe.js';
import type { ProviderMiddleware } from './middleware.js';
import { modelStop } from './model-stop.js';
import { observeTries } from './observe.js';
import { rateLimit } from './rate-limit.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy, retry, type SleepFn } from './retry.js';
import { timeout } from './timeout.js';

/** How one model is called: a model spec's own settings over the run's defaults. */
export interface CallLimits {
  timeoutMs: number;
  /** Retries after the first try. */
  maxRetries: number;
  /** Backoff tuning (base 500 ms, cap 30 s by default). */
  backoff?: Partial<Omit<RetryPolicy, 'maxRetries'>>;
  /** Tries on the wire at once (unset: no limit here). */
  concurrency?: number;
  rpm?: number;
  tpm?: number;
  /**
   * The command's budget metering this model's tries (`run/budget.ts`): placed after the waits, so
   * a try counts only as it goes on the wire, and a refused one is no attempt.
   */
  meter?: ProviderMiddleware;
}

/** Injectable in tests: the backoff sleep, jitter source and the buckets' clock. */
export interface CallClock {
  sleep?: SleepFn;
  random?: () => number;
  now?: () => number;
}

/**
 * The standard path, outermost first: share identical deterministic asks, retry, wait for a slot
 * and for the rate limit, refuse the try when the model is stopped, meter the try against the
 * budget, report it, time it out. The middleware keep state (slots, buckets, calls in flight, the
 * stop) that every call through them shares, so one list belongs to one provider instance.
 */
export function callPath(limits: CallLimits, clock: CallClock = {}): ProviderMiddleware[] {
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...limits.backoff, maxRetries: limits.maxRetries };
  return [
    dedupe(),
    retry(policy, clock),
    ...(limits.concurrency !== undefined ? [concurrency(limits.concurrency)] : []),
    ...(limits.rpm || limits.tpm ? [rateLimit(limits, clock)] : []),
    modelStop(),
    ...(limits.meter ? [limits.meter] : []),
    observeTries,
    timeout(limits.timeoutMs),
  ];
}
