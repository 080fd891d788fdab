import type { BatchOutcome, BatchStatus } from '../../models/types.js';
import type { Store } from '../../store/store.js';
import { cacheKey } from '../cache-key.js';
import { type SleepFn, sleep, toCellError } from '../retry.js';
import type { Cell, CellError, Progress, RunSummary, Suite } from '../types.js';
import { BatchQueue } from './batch-queue.js';
import type { BatchRun } from './batch-run.js';
import { BatchTally } from './batch-tally.js';
import { CellWriter } from './cell-writer.js';
import type { BatchLane } from './lane.js';
import { type OpenBatch, OpenBatches } from './open-batches.js';
import { providerCalls } from './provider-calls.js';

export type { BatchLane } from './lane.js';

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
    for (const record of run.store.openBatches(run.suiteHash, lane.identity)) open.found(record, lane);

  const queue = new BatchQueue(run, opts.maxRequests);

  const made = async (b: OpenBatch): Promise<void> => {
    const { inputRef } = b.record;
    const resubmit = b.lane.api.resubmit;
    if (inputRef === undefined || !resubmit)
      throw new Error(`batch ${b.record.id} has neither a provider id nor an input to make it from`);
    const providerId = await run.call.submission((s) => resubmit(inputRef, { signal: s }));
    run.store.markBatchSubmitted(b.record.id, providerId);
    b.record = { ...b.record, providerId, state: 'submitted' };
  };

  /** Stores an ended batch's answers; the cells it left unanswered are asked again or failed. */
  const resubmitted = new Map<string, number>();
  const collect = async (b: OpenBatch, status: BatchStatus): Promise<void> => {
    const { store } = run;
    const { record, lane } = b;
    const latencyMs = Date.now() - Date.parse(record.submittedAt);
    const answered = new Set<string>();
    if (status.state === 'ended') {
      const outcomes = await run.call.query(async (s) => {
        // Read whole before anything is written: a download cut off is read again from the start.
        const all: BatchOutcome[] = [];
        for await (const o of lane.api.results(record.providerId as string, { signal: s })) all.push(o);
        return all;
      });
      for (const o of outcomes) {
        if (!o.ok && 'missing' in o) continue;
        answered.add(o.customId);
        for (const c of store.batchCells(record.id, o.customId)) {
          // Stored by an earlier collection that was cut short.
          if (run.cache && store.doneCellKey(run.suiteHash, lane.identity, c.testId, c.repeat) === c.key)
            continue;
          const started = { attempt: 1, startedAt: record.submittedAt, latencyMs };
          if (o.ok) cells.done(lane, c, o.result, [{ ...started, outcome: 'ok' }], latencyMs);
          else {
            const err = toCellError(o.error);
            cells.failed(lane, c, err, [{ ...started, outcome: err.kind, message: err.message }]);
          }
        }
      }
    }
    const left = store.batchCells(record.id).filter((c) => !answered.has(c.customId));
    const again = resubmitted.get(lane.label) ?? 0;
    for (const c of left) {
      if (status.state === 'failed') {
        const err: CellError = { kind: 'client', message: `${lane.identity}: ${status.message}` };
        cells.failed(lane, c, err, [
          { attempt: 1, startedAt: record.submittedAt, latencyMs, outcome: err.kind, message: err.message },
        ]);
      } else if (again < opts.maxRetries) await queue.add(lane, c);
      // Else it stays pending: a later run asks again.
    }
    if (left.length > 0 && status.state !== 'failed') resubmitted.set(lane.label, again + 1);
    cells.flush();
    store.endBatch(record.id, status.state === 'failed' ? 'failed' : 'collected', status.message);
    tally.batches.ended++;
    tally.emit();
  };

  try {
    tally.emit();
    await readCells(run, queue, opts.cells);
    cells.flush();
    if (!signal.aborted) await queue.submitAll();
    tally.emit();

    // Poll until every batch is collected (or the run is stopped: they stay open in the store).
    // Not waiting, batches found open are polled once (what has ended is collected), new ones never.
    while (open.due().length > 0 && !signal.aborted) {
      for (const b of open.all()) {
        if (signal.aborted) break;
        if (b.dueAt > performance.now()) continue;
        open.polling(b);
        let status: BatchStatus;
        try {
          // A killed run's batch whose input the provider holds: the batch made over it, or one made now.
          if (b.record.providerId === undefined) await made(b);
          const id = b.record.providerId as string;
          status = await run.call.query((s) => b.lane.api.status(id, { signal: s }));
        } catch (error) {
          if (signal.aborted) break;
          open.unreachable(b, 'polled', error);
          continue;
        }
        open.answered(b, status.finished);
        tally.emit();
        if (status.state === 'running') continue;
        try {
          await collect(b, status);
        } catch (error) {
          if (signal.aborted) break;
          open.unreachable(b, 'collected', error);
          continue;
        }
        open.collected(b);
      }
      if (signal.aborted) break;
      await queue.submitAll();
      const next = Math.min(...open.due().map((b) => b.dueAt));
      if (Number.isFinite(next))
        await run.sleep(Math.max(0, next - performance.now()), signal).catch(() => {});
    }
  } finally {
    cells.flush();
  }
  if (!signal.aborted) open.noteStillOpen(run.lanes.values());
  tally.emit();
  return tally.summary(signal.aborted, open.notes);
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
    cells: new CellWriter(opts.store, opts.suite.hash, opts.runId, tally),
    open: new OpenBatches(tally.batches, wait, opts.pollMs),
  };
}

function checkIdentities(lanes: ReadonlyMap<string, BatchLane>): void {
  const identities = new Map<string, string>();
  for (const lane of lanes.values()) {
    const other = identities.get(lane.identity);
    if (other !== undefined)
      throw new Error(`models "${other}" and "${lane.label}" share the identity ${lane.identity}`);
    identities.set(lane.identity, lane.label);
  }
}

/** Reads the cells in run order: stored ones are counted, the rest fill batches. */
async function readCells(run: BatchRun, queue: BatchQueue, cells: Iterable<Cell>): Promise<void> {
  const { store, suiteHash, cache, signal } = run;
  let read = 0;
  for (const cell of cells) {
    // A long run of stored cells (a warm re-run) lets timers and a Ctrl-C in now and then.
    if (++read % PUMP_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
    if (signal.aborted) break;
    const lane = run.lanes.get(cell.model);
    if (!lane) throw new Error(`no batch lane for model "${cell.model}"`);
    const key = cacheKey(lane.identity, cell.request, cell.repeat);
    if (cache && store.doneCellKey(suiteHash, lane.identity, cell.testId, cell.repeat) === key) {
      run.tally.countCached();
      continue;
    }
    if (cache && store.hasResponse(key)) {
      run.cells.cached(lane, cell, key);
      continue;
    }
    // Its answer is on its way in a batch found open: counted when that batch is collected.
    if (store.cellInOpenBatch(suiteHash, lane.identity, cell.testId, cell.repeat, key)) continue;
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
