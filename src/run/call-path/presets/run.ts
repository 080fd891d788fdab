import { concurrency } from '../concurrency.js';
import { dedupe } from '../dedupe.js';
import { type CallClock, type CallLimits, retryPolicy } from '../limits.js';
import type { ProviderMiddleware } from '../middleware.js';
import { modelStop } from '../model-stop.js';
import { observeTries } from '../observe.js';
import { rateLimit } from '../rate-limit.js';
import { retry } from '../retry.js';
import { timeout } from '../timeout.js';

/**
 * The "run" path, every call of a command that runs models (cells, judges, generators, scores,
 * embeddings), outermost first: answer from the store when it holds the answer, share identical
 * deterministic asks, retry, wait for a slot and for the rate limit, refuse the try when the
 * model is stopped, meter the try against the budget, report it, time it out. The middleware keep
 * state (slots, buckets, calls in flight, the stop) that every call through them shares, so one
 * list belongs to one provider instance.
 */
export function runPath(limits: CallLimits, clock: CallClock = {}): ProviderMiddleware[] {
  return [
    ...(limits.cache ? [limits.cache] : []),
    dedupe(),
    retry(retryPolicy(limits), clock),
    ...(limits.concurrency !== undefined ? [concurrency(limits.concurrency)] : []),
    ...(limits.rpm || limits.tpm ? [rateLimit(limits, clock)] : []),
    modelStop(),
    ...(limits.meter ? [limits.meter] : []),
    observeTries,
    timeout(limits.timeoutMs),
  ];
}
