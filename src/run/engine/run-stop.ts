import { setMaxListeners } from 'node:events';
import { CallsHalted } from '../call-path/middleware.js';
import type { CellError, RunSummary } from '../types.js';

/** Thrown inside a cell when the run itself was stopped: the cell is left pending, not stored. */
class RunStopped extends Error {}

/**
 * What stops a run: the caller's signal, or a store failure (a run that cannot record must not go
 * on). Its signal reaches every call in flight. A run is halted instead when its call path refuses
 * calls (CallsHalted: a budget reached): no cell starts, and the calls in flight finish and are stored.
 */
export class RunStop {
  private readonly controller = new AbortController();
  readonly signal: AbortSignal = this.controller.signal;
  /** The first store failure, rethrown once the run has wound down. */
  private fatal: unknown;
  /** Why the run was halted, when it was. */
  private halted: CallsHalted | undefined;
  private readonly onOuterAbort = () => {
    // A budget stops the caller's signal too, once its calls in flight are through: its reason stands.
    const reason: unknown = this.outer?.reason;
    if (reason instanceof CallsHalted) this.halt(reason);
    this.controller.abort(new RunStopped('run stopped'));
  };

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

  /** A call was refused: no cell starts from now on; those in flight go on (docs/decisions.md E37). */
  halt(reason: CallsHalted): void {
    this.halted ??= reason;
  }

  /** Whether no cell may start: stopped or halted. */
  get stopped(): boolean {
    return this.signal.aborted || this.halted !== undefined;
  }

  /** What halted the run (`the budget (--max-calls 10)`), for its summary. */
  get reason(): string | undefined {
    return this.halted?.message;
  }

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
