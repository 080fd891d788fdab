import { ProviderError } from '../../models/errors.js';
import type { ProviderMiddleware } from './middleware.js';

/**
 * A deadline per try. The provider gets a signal that fires on the deadline or when the caller's
 * signal does; the race makes sure a provider that ignores its signal cannot hang the caller.
 * A try past its deadline fails with a retryable ProviderError `timeout`.
 */
export function timeout(ms: number): ProviderMiddleware {
  return async (_call, options, next) => {
    const outer = options.signal;
    const controller = new AbortController();
    // Made only when the deadline passes: building an Error (its stack) on every call is not free.
    let expired: ProviderError | undefined;
    let timer: NodeJS.Timeout | undefined;
    let onOuterAbort: (() => void) | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        expired = new ProviderError('timeout', `no answer within ${ms} ms`);
        controller.abort(expired);
        reject(expired);
      }, ms);
      onOuterAbort = () => {
        controller.abort(outer?.reason);
        reject(outer?.reason);
      };
      if (outer?.aborted) onOuterAbort();
      else outer?.addEventListener('abort', onOuterAbort, { once: true });
    });
    const answer = next({ ...options, signal: controller.signal });
    // The loser of the race may still settle later; nobody is listening then.
    answer.catch(() => {});
    deadline.catch(() => {});
    try {
      return await Promise.race([answer, deadline]);
    } catch (error) {
      // Whatever the provider threw on being aborted, the reason is ours: the caller's or the deadline.
      if (outer?.aborted) throw outer.reason;
      if (expired) throw expired;
      throw error;
    } finally {
      clearTimeout(timer);
      if (onOuterAbort) outer?.removeEventListener('abort', onOuterAbort);
    }
  };
}
