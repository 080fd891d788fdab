import type { ProviderMiddleware } from './middleware.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy, type SleepFn } from './retry.js';

/** How one model is called: its own settings over the command's (`mergeLimits`). */
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
  /**
   * The store's answers (`storeCache`), outermost: a call the store answers takes no try, no
   * rate-limit token, no slot and no budget (docs/decisions.md E45).
   */
  cache?: ProviderMiddleware;
}

/** Injectable in tests: the backoff sleep, jitter source and the buckets' clock. */
export interface CallClock {
  sleep?: SleepFn;
  random?: () => number;
  now?: () => number;
}

/** What one model may set of how it is called: its spec's fields (waver.yaml, a library's ModelEntry). */
export interface ModelLimits {
  concurrency?: number | undefined;
  rpm?: number | undefined;
  tpm?: number | undefined;
  timeoutMs?: number | undefined;
  maxRetries?: number | undefined;
}

/**
 * The command's: the config's top-level fields (flags over waver.yaml over the schema's defaults,
 * resolved by the config), or `waver serve`'s flags over its own defaults.
 */
export interface LimitDefaults {
  timeoutMs: number;
  maxRetries: number;
  concurrency?: number | undefined;
  backoff?: CallLimits['backoff'] | undefined;
}

/**
 * The one place a model's limits are assembled, for the provider pool, the engine's lanes and
 * `waver serve`: a setting of the model's own wins over the command's; the backoff is the
 * command's alone, and a rate limit the model's alone (a run-wide rpm would be shared by models
 * that share no server).
 */
export function mergeLimits(model: ModelLimits, defaults: LimitDefaults): CallLimits {
  const concurrency = model.concurrency ?? defaults.concurrency;
  return {
    timeoutMs: model.timeoutMs ?? defaults.timeoutMs,
    maxRetries: model.maxRetries ?? defaults.maxRetries,
    ...(concurrency !== undefined && { concurrency }),
    ...(defaults.backoff && { backoff: defaults.backoff }),
    ...(model.rpm && { rpm: model.rpm }),
    ...(model.tpm && { tpm: model.tpm }),
  };
}

/** The retry policy of a model's limits: the default backoff under the command's tuning. */
export function retryPolicy(limits: CallLimits): RetryPolicy {
  return { ...DEFAULT_RETRY_POLICY, ...limits.backoff, maxRetries: limits.maxRetries };
}
