import type { Store } from '../../store/store.js';
import { cacheKey } from '../cache-key.js';
import { type SleepFn, sleep } from '../call-path/retry.js';
import { CellWriter, ModelIdentities } from '../cell-writer.js';
import { ModelStops } from '../engine/run-stop.js';
import type { Cell, Progress, RunSummary, Suite } from '../types.js';
import { BatchQueue } from './batch-queue.js';
import type { BatchRun } from './batch-run.js';
import { BatchTally } from './batch-tally.js';
import { BatchCollector } from './collect-batch.js';
import type { BatchLane } from './lane.js';
import { OpenBatches } from './open-batches.js';
import { pollUntilCollected } from './poll-batches.js';
import { providerCalls } from './provider-calls.js';

export type { BatchLane } from './lane.js';

/**
 * How batching workers on one store share its cells (docs/decisions.md#e25-batches-are-leased-like-chunks-of-cells):
 * a cell goes into a batch only once its chunk is leased to this run, and the chunk stays leased
 * until the batches holding its requests are collected.
 */
export interface BatchLeases {
  /** Whether this run may batch the cell: false leaves it to another worker, out of this run's total. */
  claim(cell: Cell, modelIdentity: string): boolean;
  /** This run's batches are collected (or, not waiting, submitted): the workers waiting on its chunks go on. */
  finish(): void;
  /**
   * The cells (of these models) of chunks other workers held and gave up (stopped, died, let
   * expire) still to be answered, once those still held are through; undefined when none is left
   * to wait for.
   */
  next(labels: ReadonlySet<string>): Promise<readonly Cell[] | undefined>;
}

export interface RunBatchesOptions {
  store: Store;
  runId: string;
  suite: Suite;
  /** The cells of the lanes' models, in run order. */
  cells: Iterable<Cell>;
  total: number;
  /** By label (Cell.model). */
  lanes: Map<string, BatchLane>;
  /** Default true: cells stored already, or whose request's answer is, are not asked again. */
  cache?: boolean;
  /** How often open batches are polled. */
  pollMs: number;
  /** Requests per batch at most, below the provider's limit. */
  maxRequests?: number;
  /** Default true. false: submit, then return with the batches open (their cells pending). */
  wait?: boolean;
  /**
   * Retries of a submission, poll or download after a retryable error, and how many times the
   * requests an expired or cancelled batch left unanswered are submitted again in this run.
   */
  maxRetries: number;
  /** Per submission, poll or download. */
  timeoutMs: number;
  onProgress?: (p: Progress) => void;
  /** Stops polling: open batches stay open in the store, and the same run resumes them. */
  signal?: AbortSignal;
  /** Other workers may batch this suite on this store. */
  leases?: BatchLeases;
  sleep?: SleepFn;
  random?: () => number;
}

/** Cells read between two turns of the event loop at most (as the engine's pump). */
const PUMP_TURN = 4096;

/**
 * Runs cells through their providers' batch APIs (docs/batch.md): fills batches within the
 * provider's limits, records each in the store as soon as it is accepted, polls every open batch
 * (those a killed run left included) and stores its answers as ordinary cells under the same
 * cache keys as interactive calls. A request that errored is a failed cell with its reason; one
 * an expired or cancelled batch left unanswered is submitted again, up to `maxRetries` times.
 */
export async function runBatches(opts: RunBatchesOptions): Promise<RunSummary> {
  const run = startRun(opts);
  const { signal, open, tally, cells } = run;
  checkIdentities(run.lanes);
  // Batches a killed run left: polled, never submitted again (docs/batch.md#resume).
  for (const lane of run.lanes.values())
    for (const record of run.store.batches.open(run.suiteHash, lane.identity)) open.found(record, lane);

  const queue = new BatchQueue(run, opts.maxRequests);
  const collector = new BatchCollector(run, queue);
  try {
    tally.emit();
    await readCells(run, queue, opts.cells, opts.leases);
    cells.flush();
    if (!signal.aborted) await queue.submitAll();
    tally.emit();
    await pollUntilCollected(run, queue, collector);
    if (opts.leases) await runGivenUp(run, queue, collector, opts.leases);
  } finally {
    cells.flush();
  }
  if (!signal.aborted) open.noteStillOpen(run.lanes.values());
  tally.emit();
  return { ...tally.summary(signal.aborted, open.notes), ...run.stops.summary() };
}

function startRun(opts: RunBatchesOptions): BatchRun {
  const signal = opts.signal ?? new AbortController().signal;
  const pause = opts.sleep ?? sleep;
  const wait = opts.wait ?? true;
  const tally = new BatchTally(opts.total, opts.onProgress);
  return {
    store: opts.store,
    suiteHash: opts.suite.hash,
    runId: opts.runId,
    lanes: opts.lanes,
    cache: opts.cache ?? true,
    maxRetries: opts.maxRetries,
    signal,
    stops: new ModelStops(),
    sleep: pause,
    call: providerCalls({
      maxRetries: opts.maxRetries,
      timeoutMs: opts.timeoutMs,
      signal,
      sleep: pause,
      random: opts.random ?? Math.random,
      onRetry: () => tally.countRetry(),
    }),
    tally,
    cells: new CellWriter({
      store: opts.store,
      suiteHash: opts.suite.hash,
      runId: opts.runId,
      tally,
      replace: opts.cache === false,
    }),
    open: new OpenBatches(tally.batches, wait, opts.pollMs),
  };
}

function checkIdentities(lanes: ReadonlyMap<string, BatchLane>): void {
  const identities = new ModelIdentities();
  for (const lane of lanes.values()) identities.add(lane.label, lane.identity);
}

/**
 * Once this run's batches are collected (or, not waiting, submitted): its chunks are through, and
 * it waits for the others' the same way, running the chunks a worker gave up (stopped, died) and
 * following the batches that worker left open.
 */
async function runGivenUp(
  run: BatchRun,
  queue: BatchQueue,
  collector: BatchCollector,
  leases: BatchLeases,
): Promise<void> {
  const labels = new Set(run.lanes.keys());
  while (!run.signal.aborted) {
    leases.finish();
    const more = await leases.next(labels);
    if (!more) return;
    // They were left to the worker that gave them up, out of this run's total.
    run.tally.takeBack(more.length);
    const followed = new Set(run.open.all().map((b) => b.record.id));
    for (const lane of run.lanes.values())
      for (const record of run.store.batches.open(run.suiteHash, lane.identity))
        if (!followed.has(record.id)) run.open.found(record, lane);
    await readCells(run, queue, more, leases);
    run.cells.flush();
    if (!run.signal.aborted) await queue.submitAll();
    await pollUntilCollected(run, queue, collector);
  }
}

/** Reads the cells in run order: stored ones are counted, the rest fill batches. */
async function readCells(
  run: BatchRun,
  queue: BatchQueue,
  cells: Iterable<Cell>,
  leases?: BatchLeases,
): Promise<void> {
  const { store, suiteHash, cache, signal } = run;
  let read = 0;
  for (const cell of cells) {
    // A long run of stored cells (a warm re-run) lets timers and a Ctrl-C in now and then.
    if (++read % PUMP_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
    if (signal.aborted) break;
    const lane = run.lanes.get(cell.model);
    if (!lane) throw new Error(`no batch lane for model "${cell.model}"`);
    const key = cacheKey(lane.identity, cell.request, cell.repeat);
    if (cache && store.cells.doneKey(suiteHash, lane.identity, cell.testId, cell.repeat) === key) {
      run.tally.countCached();
      continue;
    }
    if (cache && store.responses.has(key)) {
      run.cells.cached(lane, cell, key);
      continue;
    }
    // Its answer is on its way in a batch found open: counted when that batch is collected.
    if (store.batches.cellInOpen(suiteHash, lane.identity, cell.testId, cell.repeat, key)) continue;
    if (leases && !leases.claim(cell, lane.identity)) {
      run.tally.leaveToOther();
      continue;
    }
    await queue.add(lane, {
      customId: '',
      testId: cell.testId,
      model: cell.model,
      repeat: cell.repeat,
      key,
      request: cell.request,
    });
  }
}
