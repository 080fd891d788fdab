import type { ProviderMiddleware } from './middleware.js';

/**
 * Tells the caller's observer about each try: when it goes on the wire and how it ended. Sits
 * inside the retry and rate limit (a try starts once its tokens are granted) and outside the
 * timeout (a try that timed out ends with the timeout error).
 */
export const observeTries: ProviderMiddleware = async (_call, options, next) => {
  const observer = options.observer;
  if (!observer) return next(options);
  observer.beforeTry?.();
  observer.onTryStart?.();
  try {
    const result = await next(options);
    observer.onTryEnd?.({ ok: true, result });
    return result;
  } catch (error) {
    observer.onTryEnd?.({ ok: false, error });
    throw error;
  }
};
