import type { Store } from '../store/store.js';
import { monotonicMs } from '../util/monotonic.js';
import { type RetryPolicy, type SleepFn, sleep } from './call-path/retry.js';
import { CellWriter } from './cell-writer.js';
import type { CellLeases, EngineRun } from './engine/engine-run.js';
import { InFlightRequests } from './engine/in-flight-requests.js';
import { Lanes, type ModelEntry } from './engine/lanes.js';
import { Pump } from './engine/pump.js';
import { ModelStops, RunStop } from './engine/run-stop.js';
import { RunTally } from './tally.js';
import type { Cell, Progress, RunSummary, Suite } from './types.js';

export type { CellLeases } from './engine/engine-run.js';
export type { ModelEntry } from './engine/lanes.js';

export interface RunCellsOptions {
  store: Store;
  /** From store.runs.begin. */
  runId: string;
  suite: Suite;
  /**
   * The cells, in the order to run them. They are read as the lanes have room, so a generator
   * (`planCells`) keeps the run's memory bounded by its concurrency, not by the suite
   * (docs/decisions.md E16). An array is checked for a cell listed twice before any call; a
   * generator must not yield one.
   */
  cells: Iterable<Cell>;
  /** How many cells `cells` yields (the progress total); required unless it is an array. */
  total?: number;
  /** Keyed by model label (Cell.model). */
  providers: Map<string, ModelEntry>;
  /** Default true. false: call even when stored, and overwrite the stored answer. */
  cache?: boolean;
  defaults: { concurrency: number; timeoutMs: number; maxRetries: number };
  /** Backoff tuning (base 500 ms, cap 30 s by default). */
  retry?: Partial<Omit<RetryPolicy, 'maxRetries'>>;
  /**
   * How long finished cells wait to be committed together (default 25 ms; 0: at the next turn of
   * the event loop). A process killed meanwhile loses them, and a resumed run calls them again.
   */
  commitMs?: number;
  onProgress?: (p: Progress) => void;
  /** The chunk leases of workers sharing the store (docs/decisions.md#e14-workers-share-a-store-by-leasing-chunks-of-cells). */
  leases?: CellLeases;
  /**
   * Stops the run: queued cells stay pending; calls in flight are aborted, their cells stay
   * pending and their tries are stored as stopped attempts (the last one 'aborted'). A call the
   * providers' path refuses (CallsHalted: a budget reached) halts the run instead: no cell starts,
   * the calls in flight finish and are stored (docs/decisions.md E37).
   */
  signal?: AbortSignal;
  /** Injectable for tests: the backoff sleep, jitter source and monotonic clock. */
  sleep?: SleepFn;
  random?: () => number;
  now?: () => number;
}

/** How long a finished cell waits for others to be committed with (docs/decisions.md E17). */
const COMMIT_MS = 25;

/**
 * Runs cells (test x model x repeat) against their providers and writes each one to the store
 * as it finishes (cells finishing within `commitMs` share one transaction): a killed run loses at
 * most the cells in flight or finished within the last `commitMs`, and never stores one twice
 * (cells are unique per suite, model identity, test, repeat).
 * Every cell ends done or failed (with its reason) unless the run is stopped, when the cells
 * not finished stay pending.
 *
 * Memory does not grow with the suite (docs/decisions.md E16): cells are read from `cells` only
 * while their lane has room (a few times its concurrency waiting), a model's done cells are held
 * up to a bound, else asked of the store cell by cell (`engine/done-cells.ts`, E45), and identical
 * requests in flight are remembered only until their answer is committed.
 *
 * The parts (`engine/`): the lanes (one per model, its call path under the store's cache), the
 * pump that reads cells into them, the model's done cells, a cell's run (an identical request in
 * flight, or its call, which the store's cache may answer), the
 * run's stop, and, shared with the batch runner, the cell writer (group commit) and the tally.
 */
export async function runCells(opts: RunCellsOptions): Promise<RunSummary> {
  const now = opts.now ?? monotonicMs;
  const clock = { now, sleep: opts.sleep ?? sleep, random: opts.random ?? Math.random };
  const cache = opts.cache ?? true;
  const { store, suite, leases } = opts;
  const total = opts.total ?? (Array.isArray(opts.cells) ? opts.cells.length : undefined);
  if (total === undefined) throw new Error('runCells: `total` is required when `cells` is not an array');
  const tally = new RunTally(total, opts.onProgress, now);

  if (!store.suites.has(suite.hash)) store.suites.save(suite);
  const lanes = new Lanes(
    opts.providers,
    { ...opts.defaults, backoff: opts.retry },
    clock,
    cache ? { store, suiteHash: suite.hash, settled: leases === undefined } : undefined,
  );
  if (Array.isArray(opts.cells)) lanes.checkListedOnce(opts.cells);

  const stop = new RunStop(opts.signal);
  const writer = new CellWriter({
    store,
    suiteHash: suite.hash,
    runId: opts.runId,
    tally,
    replace: !cache,
    ...(leases && { fence: (cell: Cell) => leases.fence(cell) }),
    groupCommit: { ms: opts.commitMs ?? COMMIT_MS, onError: stop.fail },
  });
  const run: EngineRun = {
    cache,
    requests: new InFlightRequests(),
    ...(leases && { leases }),
    signal: stop.signal,
    stops: new ModelStops(),
    stop,
    writer,
    tally,
    now,
  };
  try {
    tally.emit();
    await new Pump(run, lanes, opts.cells, stop.fail).drain();
    writer.flush();
  } finally {
    stop.detach();
  }
  stop.throwIfFailed();
  tally.emit();
  const summary = { ...tally.summary(stop.stopped), ...run.stops.summary() };
  return stop.reason === undefined ? summary : { ...summary, stopReason: stop.reason };
}
