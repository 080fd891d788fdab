import { hashOf } from '../../util/hash.js';
import { InFlight } from '../../util/in-flight.js';
import type { CallKind, ProviderMiddleware } from './middleware.js';

/**
 * Two identical asks in flight at once make one call: the second gets the first's answer (or
 * error). Only for deterministic kinds: a score or an embedding is a function of its request,
 * while a generation is a sample, and repeats of one request are meant to be separate calls
 * (docs/decisions.md E1; the engine shares calls per cache key itself). The shared call runs under
 * the first caller's signal and observer.
 */
export function dedupe(kinds: readonly CallKind[] = ['score', 'embed']): ProviderMiddleware {
  const inFlight = new InFlight<unknown>();
  return (call, options, next) => {
    if (!kinds.includes(call.kind)) return next(options);
    // One map for every kind of answer: each key's answer is the one its own call made.
    return inFlight.share(hashOf(call), () => next(options)) as ReturnType<typeof next>;
  };
}
