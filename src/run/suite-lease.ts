import { hostname } from 'node:os';
import { InputError } from '../errors.js';
import { LEASE_TTL_MS, type Lease, type Store } from '../store/store.js';
import type { Suite } from './types.js';

/** A suite's lease held for a run: renewed in the background until released. */
export interface SuiteLease {
  /** Aborted when another process took the lease over (this one stalled past its time to live). */
  readonly lost: AbortSignal;
  release(): void;
}

/**
 * Takes the store's lease on `suite` for this process, or throws an InputError naming the holder:
 * two processes running one suite on one store would each call every cell (docs/decisions.md#e14-one-run-per-suite-and-store).
 */
export function holdSuiteLease(store: Store, suite: Suite): SuiteLease {
  const outcome = store.acquireLease(suite.hash, { pid: process.pid, host: hostname() });
  if (!outcome.acquired) throw new InputError(heldBy(suite, outcome.holder), { file: store.path });
  const lease = outcome.lease;
  const lost = new AbortController();
  const beat = setInterval(() => {
    try {
      if (!store.renewLease(lease)) {
        clearInterval(beat);
        lost.abort(
          new InputError(`another run took over suite ${suite.name} on this store`, { file: store.path }),
        );
      }
    } catch {
      // A store busy past its timeout: the next beat tries again, well within the time to live.
    }
  }, LEASE_TTL_MS / 3);
  beat.unref();
  return {
    lost: lost.signal,
    release() {
      clearInterval(beat);
      if (!lost.signal.aborted) store.releaseLease(lease);
    },
  };
}

function heldBy(suite: Suite, holder: Lease): string {
  const ago = Math.max(0, Math.round((Date.now() - holder.heartbeatMs) / 1000));
  return (
    `another run holds suite ${suite.name} (${suite.hash.slice(0, 12)}) on this store: pid ${holder.pid} on ${holder.host}, ` +
    `started ${holder.startedAt}, last heartbeat ${ago} s ago; wait for it to end or stop it (the lease of a process that is gone is taken over)`
  );
}
