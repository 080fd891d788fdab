import { InFlight } from '../../util/in-flight.js';

/** How a cell's turn at `InFlightRequests.call` ended. */
export type SharedOutcome = 'called' | 'answered-earlier' | 'stopped';

/**
 * With the cache on, cells whose requests are identical (same cache key) share one call: the first
 * calls, the others wait for it and link its answer. A key is remembered from its call's start
 * until its answer is committed, when the store itself has it (`store.responses.has`); a call that
 * brought no answer is forgotten at once, so the next cell with its key calls again.
 */
export class InFlightRequests {
  /** Per key, whether its call was answered. */
  private readonly calls = new InFlight<boolean>();

  /** Whether a call for `key` is in flight, or answered and not committed yet. */
  has(key: string): boolean {
    return this.calls.has(key);
  }

  /**
   * Makes the cell's call unless an identical one is in flight: then waits for it, and leaves the
   * cell to be linked when it was answered. `call` gets what its answer's write must run once
   * committed, and resolves to whether it was answered.
   */
  async call(
    key: string,
    signal: AbortSignal,
    call: (onCommitted: () => void) => Promise<boolean>,
  ): Promise<SharedOutcome> {
    for (let earlier = this.calls.get(key); earlier; earlier = this.calls.get(key)) {
      const answered = await earlier;
      if (signal.aborted) return 'stopped';
      if (answered) return 'answered-earlier';
      this.calls.forget(key, earlier);
    }
    const mine: Promise<boolean> = call(() => this.calls.forget(key, mine));
    this.calls.hold(key, mine);
    if (!(await mine)) this.calls.forget(key, mine);
    return 'called';
  }
}
