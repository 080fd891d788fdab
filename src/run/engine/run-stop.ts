import { setMaxListeners } from 'node:events';
import type { CellError, RunSummary } from '../types.js';

/** Thrown inside a cell when the run itself was stopped: the cell is left pending, not stored. */
class RunStopped extends Error {}

/**
 * What stops a run: the caller's signal, or a store failure (a run that cannot record must not go
 * on). Its signal reaches every call in flight.
 */
export class RunStop {
  private readonly controller = new AbortController();
  readonly signal: AbortSignal = this.controller.signal;
  /** The first store failure, rethrown once the run has wound down. */
  private fatal: unknown;
  private readonly onOuterAbort = () => this.controller.abort(new RunStopped('run stopped'));

  constructor(private readonly outer: AbortSignal | undefined) {
    if (outer?.aborted) this.onOuterAbort();
    else outer?.addEventListener('abort', this.onOuterAbort, { once: true });
    // Every call in flight listens to it: one listener per call is expected, not a leak.
    setMaxListeners(0, this.signal);
  }

  /** A write failed: the run stops, and rejects with the error once its calls are through. */
  readonly fail = (error: unknown): void => {
    if (this.fatal === undefined) this.fatal = error;
    this.controller.abort(new RunStopped('store write failed'));
  };

  /** Stops listening to the caller's signal. */
  detach(): void {
    this.outer?.removeEventListener('abort', this.onOuterAbort);
  }

  throwIfFailed(): void {
    if (this.fatal !== undefined) throw this.fatal;
  }
}

/**
 * The models a run stopped calling, by label, each with the error that stopped it: a refused key or
 * a spent quota (docs/decisions.md#e35-a-refused-key-or-a-spent-quota-stops-the-model). A stopped
 * model's cells not yet called stay pending; the other models go on.
 */
export class ModelStops {
  private readonly byLabel = new Map<string, CellError>();

  /** The first error that stopped the model is the one kept. */
  stop(label: string, error: CellError): void {
    if (!this.byLabel.has(label)) this.byLabel.set(label, error);
  }

  has(label: string): boolean {
    return this.byLabel.has(label);
  }

  /** The summary's part: `stoppedModels` when any model was stopped. */
  summary(): Pick<RunSummary, 'stoppedModels'> {
    return this.byLabel.size > 0 ? { stoppedModels: Object.fromEntries(this.byLabel) } : {};
  }
}
