import type { ProviderMiddleware } from './middleware.js';

/**
 * At most `limit` tries of the wrapped provider on the wire at once, whoever asks (the engine's
 * cells, a protocol's scores and embeddings), served in the order they asked. A backoff wait holds
 * no slot. A caller stopped while queued leaves the queue. A counter and a queue of waiters: this
 * runs once per try, and a general task queue cost a fifth of a cell against a fast endpoint.
 */
export function concurrency(limit: number): ProviderMiddleware {
  const max = Math.max(1, limit);
  let running = 0;
  const waiting: (() => void)[] = [];
  const release = () => {
    const next = waiting.shift();
    if (next)
      next(); // the slot passes to the next in line
    else running--;
  };
  const slot = (signal: AbortSignal | undefined): Promise<void> | undefined => {
    signal?.throwIfAborted();
    if (running < max) {
      running++;
      return undefined;
    }
    return new Promise<void>((resolve, reject) => {
      const start = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = () => {
        const i = waiting.indexOf(start);
        if (i >= 0) waiting.splice(i, 1);
        reject(signal?.reason);
      };
      waiting.push(start);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  };
  return async (_call, options, next) => {
    const wait = slot(options.signal);
    if (wait) await wait;
    try {
      return await next(options);
    } finally {
      release();
    }
  };
}
