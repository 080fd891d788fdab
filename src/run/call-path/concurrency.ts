import PQueue from 'p-queue';
import type { ProviderMiddleware } from './middleware.js';

/**
 * At most `limit` tries of the wrapped provider on the wire at once, whoever asks (the engine's
 * cells, a protocol's scores and embeddings). A backoff wait holds no slot. A caller stopped while
 * queued leaves the queue.
 */
export function concurrency(limit: number): ProviderMiddleware {
  const queue = new PQueue({ concurrency: Math.max(1, limit) });
  return (_call, options, next) =>
    queue.add(() => next(options), { ...(options.signal ? { signal: options.signal } : {}) });
}
