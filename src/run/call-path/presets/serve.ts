import { type CallClock, type CallLimits, retryPolicy } from '../limits.js';
import type { ProviderMiddleware } from '../middleware.js';
import { retry } from '../retry.js';
import { timeout } from '../timeout.js';

/**
 * The "serve" path, `waver serve`'s generations, scores and embeddings (docs/serve.md#calls): retry
 * (none by default: the client retries, and would multiply the tries) and a timeout that frees the
 * model. No slots, rate limits or budget: the server's clients pace themselves. Not the run path's
 * dedupe: a shared call runs under the first asker's signal, and one client hanging up must not
 * fail another's request. No store: a served answer is the client's to keep.
 */
export function servePath(limits: CallLimits, clock: CallClock = {}): ProviderMiddleware[] {
  return [retry(retryPolicy(limits), clock), timeout(limits.timeoutMs)];
}
