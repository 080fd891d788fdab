import type { Progress } from './types.js';

/** A run's progress before any cell: every one of `total` pending. */
export function newProgress(total: number): Progress {
  return {
    total,
    done: 0,
    failed: 0,
    cached: 0,
    pending: total,
    inFlight: 0,
    tokensIn: 0,
    tokensOut: 0,
    errorsByKind: {},
    retries: 0,
    elapsedMs: 0,
  };
}
