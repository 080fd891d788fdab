import { ProviderError } from '../../models/errors.js';
import type { GenerateResult } from '../../models/types.js';
import type { AttemptRecord } from '../../store/store.js';
import {
  type CallObserver,
  CallsHalted,
  type PathCallOptions,
  type TryOutcome,
} from '../call-path/middleware.js';
import { ModelStopped } from '../call-path/model-stop.js';
import { toCellError } from '../cell-error.js';
import type { RunTally } from '../tally.js';
import type { EngineRun } from './engine-run.js';
import type { Work } from './lanes.js';

/**
 * Calls for a cell and writes what came back: done, failed with its reason, or (stopped during
 * the call, or refused by the call path) its tries alone, the cell staying pending. Resolves to
 * whether it was answered; `onCommitted` runs once an answer is committed.
 */
export async function callCell(run: EngineRun, w: Work, onCommitted?: () => void): Promise<boolean> {
  const { cell, lane } = w;
  const { signal, writer, tally, leases, stops } = run;
  // A stopped model is called no more (E35): its call is cancelled before any try, so only the
  // store can answer it (E45); else its cell stays pending for the run after the fix.
  const stopped = stops.has(lane.label);
  // A worker sharing the store asks again before every try, retries included: a call that waited
  // (a rate limit, a backoff, a stall) must not go out once its chunk is another's (E24).
  const stillHeld = leases
    ? () => {
        if (!leases.holds(cell, lane.identity)) throw new LeasePassedOn();
      }
    : undefined;
  const log = new AttemptLog(run.now, signal, tally, stillHeld);
  const options: PathCallOptions = { signal: stopped ? NOT_CALLED : signal, observer: log, cacheKey: w.key };
  let result: GenerateResult;
  try {
    result = await lane.provider.generate(cell.request, options);
  } catch (error) {
    if (stopped) return false;
    if (error instanceof LeasePassedOn) {
      // The worker the chunk passed to calls it; the tries made before are its own to repeat.
      tally.leaveToOther();
      tally.emit();
      return false;
    }
    if (error instanceof CallsHalted) {
      // Refused (a budget reached): the cell stays pending, its tries kept, and no cell starts after it.
      run.stop.halt(error);
      if (log.attempts.length > 0) writer.stopped(lane, cell, log.attempts);
      return false;
    }
    if (signal.aborted || error instanceof ModelStopped) {
      // Stopped: the cell stays pending, and the tries it made are kept (docs/decisions.md#e13-stopped-calls).
      if (error instanceof ModelStopped) stops.stop(lane.label, toCellError(error.by));
      if (log.attempts.length > 0) writer.stopped(lane, cell, log.attempts);
      return false;
    }
    const failure = toCellError(error);
    writer.failed(lane, cell, failure, log.attempts);
    if (error instanceof ProviderError && error.stopsModel) stops.stop(lane.label, failure);
    tally.emit();
    return false;
  }
  if (log.stored) {
    // The store held the answer (another cell's, of any suite): the cell is linked to it, no call.
    link(run, w);
    return false;
  }
  // An answer that came back as the run was stopped is whole: it is stored like any other.
  writer.done(lane, cell, w.key, result, log.attempts, log.latencyMs, onCommitted);
  tally.emit();
  return true;
}

/** Links the cell to the stored (or just answered) answer of its request. */
export function link(run: EngineRun, w: Work): void {
  run.writer.cached(w.lane, w.cell, w.key);
  run.tally.emit();
}

/** The signal of a stopped model's call: aborted before it starts, it reaches no try. */
const NOT_CALLED = AbortSignal.abort(new Error('not called: the model is stopped'));

/** Thrown before a try whose cell's chunk is no longer this worker's: the call stops untried. */
class LeasePassedOn extends Error {}

/** Every try of a call (after its rate-limit wait) is an attempt, recorded with its outcome and latency. */
class AttemptLog implements CallObserver {
  readonly attempts: AttemptRecord[] = [];
  /** The store held the answer: no try was made. */
  stored = false;
  /** The last try's. */
  latencyMs = 0;
  private startedAt = '';
  private started = 0;

  constructor(
    private readonly now: () => number,
    private readonly signal: AbortSignal,
    private readonly tally: RunTally,
    private readonly stillHeld?: () => void,
  ) {}

  beforeTry(): void {
    this.stillHeld?.();
  }

  onTryStart(): void {
    this.startedAt = new Date().toISOString();
    this.started = this.now();
    this.tally.countTryStart();
    this.tally.emit();
  }

  onTryEnd(outcome: TryOutcome): void {
    this.tally.countTryEnd();
    this.latencyMs = this.now() - this.started;
    const { startedAt, latencyMs } = this;
    const attempt = this.attempts.length + 1;
    if (outcome.ok) {
      this.attempts.push({ attempt, startedAt, latencyMs, outcome: 'ok' });
      return;
    }
    // A try the stop cut short is recorded as such, not as the error the abort made.
    if (this.signal.aborted) {
      this.attempts.push({
        attempt,
        startedAt,
        latencyMs,
        outcome: 'aborted',
        message: 'the run was stopped during the call',
      });
      return;
    }
    const err = toCellError(outcome.error);
    this.attempts.push({
      attempt,
      startedAt,
      latencyMs,
      outcome: err.kind,
      message: err.message,
      ...(err.status !== undefined ? { status: err.status } : {}),
    });
  }

  onRetry(): void {
    this.tally.countRetry();
  }

  onStored(): void {
    this.stored = true;
  }
}
