import { setMaxListeners } from 'node:events';
import type { GenerateResult, ModelProvider } from '../models/types.js';
import type { AttemptRecord, CellWrite, LeaseFence, Store } from '../store/store.js';
import { cacheKey } from './cache-key.js';
import { callPath } from './call-path/call-path.js';
import type { CallObserver, PathCallOptions } from './call-path/middleware.js';
import { isWrapped, wrapProvider } from './call-path/wrap-provider.js';
import { newProgress } from './progress.js';
import { type RetryPolicy, type SleepFn, sleep, toCellError } from './retry.js';
import type { Cell, Progress, RunSummary, Suite } from './types.js';

/**
 * How one model (by label) is called. A bare provider is wrapped here in the call path
 * (`call-path/`) built from these limits, unset ones falling back to the run's defaults. A provider
 * that is already wrapped (a ProviderPool's) brings its own path, shared with the model's other
 * calls, and only `concurrency` (cells in progress at once) applies.
 */
export interface ModelEntry {
  provider: ModelProvider;
  concurrency?: number;
  /** Requests per minute (token bucket). */
  rpm?: number;
  /** Tokens per minute (token bucket; estimated before a call, corrected with usage after). */
  tpm?: number;
  timeoutMs?: number;
  maxRetries?: number;
}

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
   * pending and their tries are stored as stopped attempts (the last one 'aborted').
   */
  signal?: AbortSignal;
  /** Injectable for tests: the backoff sleep, jitter source and monotonic clock. */
  sleep?: SleepFn;
  random?: () => number;
  now?: () => number;
}

/** How a run shares a store's cells with other workers. */
export interface CellLeases {
  /**
   * Whether this run may call a cell the store does not answer: false leaves it to another worker
   * sharing the store, out of this run's total.
   */
  claim(cell: Cell, modelIdentity: string): boolean;
  /** Whether the cell is still this run's just before its call (a stalled run's may have passed on). */
  holds(cell: Cell, modelIdentity: string): boolean;
  /** The lease the cell's write is fenced by (docs/decisions.md#e24-a-write-is-fenced-by-its-lease). */
  fence(cell: Cell): LeaseFence;
}

interface Lane {
  label: string;
  identity: string;
  concurrency: number;
  /** Cells read for this lane and not started yet. */
  waiting: Work[];
  /** Cells of this lane in progress. */
  active: number;
  /** The entry's provider in its call path. */
  provider: ModelProvider;
}

interface Work {
  cell: Cell;
  lane: Lane;
  key: string;
}

/** Thrown inside a cell when the run itself was stopped: the cell is left pending, not stored. */
class RunStopped extends Error {}

/** Cells written together at most: a batch is committed at once at this size. */
const MAX_BATCH = 256;
/** How long a finished cell waits for others to be committed with (docs/decisions.md E17). */
const COMMIT_MS = 25;
/** Cells the pump reads in one turn of the event loop at most. */
const PUMP_TURN = 4096;

/**
 * Runs cells (test x model x repeat) against their providers and writes each one to the store
 * as it finishes (cells finishing within `commitMs` share one transaction): a killed run loses at
 * most the cells in flight or finished within the last `commitMs`, and never stores one twice
 * (cells are unique per suite, model identity, test, repeat).
 * Every cell ends done or failed (with its reason) unless the run is stopped, when the cells
 * not finished stay pending.
 *
 * Memory does not grow with the suite (docs/decisions.md E16): cells are read from `cells` only
 * while their lane has room (a few times its concurrency waiting), whether a cell is stored is
 * asked of the store cell by cell, and identical requests in flight are remembered only until
 * their answer is committed.
 */
export async function runCells(opts: RunCellsOptions): Promise<RunSummary> {
  const now = opts.now ?? (() => performance.now());
  const random = opts.random ?? Math.random;
  const pause = opts.sleep ?? sleep;
  const cache = opts.cache ?? true;
  const { store, runId, suite } = opts;
  const t0 = now();
  const total = opts.total ?? (Array.isArray(opts.cells) ? opts.cells.length : undefined);
  if (total === undefined) throw new Error('runCells: `total` is required when `cells` is not an array');

  if (!store.suites.has(suite.hash)) store.suites.save(suite);

  const lanes = new Map<string, Lane>();
  const labelOfIdentity = new Map<string, string>();
  const laneFor = (label: string): Lane => {
    const existing = lanes.get(label);
    if (existing) return existing;
    const entry = opts.providers.get(label);
    if (!entry) throw new Error(`no provider for model "${label}"`);
    const identity = entry.provider.identity;
    const other = labelOfIdentity.get(identity);
    if (other !== undefined)
      throw new Error(
        `cell listed twice: models "${other}" and "${label}" share the identity ${identity} (cells are stored per identity)`,
      );
    labelOfIdentity.set(identity, label);
    const concurrency = Math.max(1, entry.concurrency ?? opts.defaults.concurrency);
    const lane: Lane = {
      label,
      identity,
      concurrency,
      waiting: [],
      active: 0,
      provider: isWrapped(entry.provider)
        ? entry.provider
        : wrapProvider(
            entry.provider,
            callPath(
              {
                timeoutMs: entry.timeoutMs ?? opts.defaults.timeoutMs,
                maxRetries: entry.maxRetries ?? opts.defaults.maxRetries,
                ...(opts.retry ? { backoff: opts.retry } : {}),
                concurrency,
                ...(entry.rpm ? { rpm: entry.rpm } : {}),
                ...(entry.tpm ? { tpm: entry.tpm } : {}),
              },
              { now, sleep: pause, random },
            ),
          ),
    };
    lanes.set(label, lane);
    return lane;
  };
  if (Array.isArray(opts.cells)) checkListedOnce(opts.cells, laneFor);

  const p: Progress = newProgress(total);
  let calls = 0;
  const emit = () => {
    if (!opts.onProgress) return;
    p.pending = p.total - p.done - p.failed;
    p.elapsedMs = now() - t0;
    opts.onProgress({ ...p, errorsByKind: { ...p.errorsByKind } });
  };

  // Stopping: the caller's signal, or a store failure (a run that cannot record must not go on).
  const stop = new AbortController();
  let fatal: unknown;
  const onOuterAbort = () => stop.abort(new RunStopped('run stopped'));
  if (opts.signal?.aborted) onOuterAbort();
  else opts.signal?.addEventListener('abort', onOuterAbort, { once: true });
  const signal = stop.signal;
  // Every call in flight listens to it: one listener per call is expected, not a leak.
  setMaxListeners(0, signal);
  const fail = (error: unknown) => {
    if (fatal === undefined) fatal = error;
    stop.abort(new RunStopped('store write failed'));
  };

  // With the cache on, cells whose requests are identical (same key) share one call: the first
  // calls, the others wait for it and link its answer. A key is remembered from its call's start
  // until its answer is committed, when the store itself has it (responses.has).
  const inFlightKeys = new Map<string, Promise<boolean>>();

  // Group commit (docs/decisions.md E17): finished cells wait up to `commitMs` to be written in
  // one transaction with those finishing meanwhile (a commit costs far more than a cell's rows).
  // A write failure stops the run.
  const commitMs = opts.commitMs ?? COMMIT_MS;
  let batch: CellWrite[] = [];
  let answered: string[] = [];
  let timer: NodeJS.Timeout | NodeJS.Immediate | undefined;
  const flush = () => {
    if (timer !== undefined) {
      clearTimeout(timer as NodeJS.Timeout);
      clearImmediate(timer as NodeJS.Immediate);
    }
    timer = undefined;
    const writes = batch;
    const keys = answered;
    batch = [];
    answered = [];
    try {
      store.cells.write(writes);
    } catch (error) {
      fail(error);
    }
    for (const key of keys) inFlightKeys.delete(key);
  };
  const write = (w: CellWrite, answeredKey?: string) => {
    batch.push(w);
    if (answeredKey !== undefined) answered.push(answeredKey);
    if (batch.length >= MAX_BATCH) flush();
    else timer ??= commitMs > 0 ? setTimeout(flush, commitMs) : setImmediate(flush);
  };
  // A write says which lease it was made under and whether it may replace a done cell (E24).
  const guarded = (cell: Cell, lane: Lane) => ({
    ...ref(cell, lane, suite.hash),
    runId,
    ...(opts.leases && { lease: opts.leases.fence(cell) }),
    ...(!cache && { replace: true }),
  });
  const linked = (w: Work) => {
    write({ kind: 'cached', cells: [{ ...guarded(w.cell, w.lane), key: w.key }] });
    p.done++;
    p.cached++;
    emit();
  };

  /** Whether the store answers the cell without a call (counted, and linked when it must be). */
  const fromStore = (w: Work): boolean => {
    const { cell, lane, key } = w;
    if (store.cells.doneKey(suite.hash, lane.identity, cell.testId, cell.repeat) === key) {
      p.done++;
      p.cached++;
      emit();
      return true;
    }
    if (inFlightKeys.has(key) || !store.responses.has(key)) return false;
    linked(w);
    return true;
  };

  const runOne = async (w: Work): Promise<void> => {
    if (signal.aborted) return;
    if (opts.leases && !opts.leases.holds(w.cell, w.lane.identity)) {
      // Its chunk passed to another worker while this run stalled: that one calls it.
      p.total--;
      emit();
      return;
    }
    if (!cache) {
      await callCell(w);
      return;
    }
    for (let earlier = inFlightKeys.get(w.key); earlier; earlier = inFlightKeys.get(w.key)) {
      const answeredEarlier = await earlier;
      if (signal.aborted) return;
      if (answeredEarlier) return linked(w);
      if (inFlightKeys.get(w.key) === earlier) inFlightKeys.delete(w.key);
    }
    const call = callCell(w);
    inFlightKeys.set(w.key, call);
    // Answered: forgotten once committed (flush); not answered: at once, so a later cell calls again.
    if (!(await call) && inFlightKeys.get(w.key) === call) inFlightKeys.delete(w.key);
  };

  /** Calls for a cell and writes what came back; true when it was answered. */
  const callCell = async (w: Work): Promise<boolean> => {
    const { cell, lane } = w;
    // Every try (after its rate-limit wait) is an attempt, recorded with its outcome and latency.
    const attempts: AttemptRecord[] = [];
    let startedAt = '';
    let started = 0;
    let latencyMs = 0;
    const observer: CallObserver = {
      onTryStart: () => {
        startedAt = new Date().toISOString();
        started = now();
        p.inFlight++;
        calls++;
        emit();
      },
      onTryEnd: (outcome) => {
        p.inFlight--;
        latencyMs = now() - started;
        const attempt = attempts.length + 1;
        if (outcome.ok) {
          attempts.push({ attempt, startedAt, latencyMs, outcome: 'ok' });
          return;
        }
        // A try the stop cut short is recorded as such, not as the error the abort made.
        if (signal.aborted) {
          attempts.push({
            attempt,
            startedAt,
            latencyMs,
            outcome: 'aborted',
            message: 'the run was stopped during the call',
          });
          return;
        }
        const err = toCellError(outcome.error);
        attempts.push({
          attempt,
          startedAt,
          latencyMs,
          outcome: err.kind,
          message: err.message,
          ...(err.status !== undefined ? { status: err.status } : {}),
        });
      },
      onRetry: () => {
        p.retries++;
      },
    };
    const options: PathCallOptions = { signal, observer };
    let result: GenerateResult;
    try {
      result = await lane.provider.generate(cell.request, options);
    } catch (error) {
      if (signal.aborted) {
        // Stopped: the cell stays pending, and the tries it made are kept (docs/decisions.md#e13-stopped-calls).
        if (attempts.length > 0)
          write({ kind: 'stopped', cell: { ...ref(cell, lane, suite.hash), runId, attempts } });
        return false;
      }
      const err = toCellError(error);
      write({
        kind: 'failed',
        cell: { ...guarded(cell, lane), request: cell.request, error: err, attempts },
      });
      p.failed++;
      p.errorsByKind[err.kind] = (p.errorsByKind[err.kind] ?? 0) + 1;
      emit();
      return false;
    }
    // An answer that came back as the run was stopped is whole: it is stored like any other.
    const inTokens = result.usage?.inputTokens ?? 0;
    const outTokens = result.usage?.outputTokens ?? 0;
    write(
      {
        kind: 'done',
        cell: {
          ...guarded(cell, lane),
          key: w.key,
          request: cell.request,
          result,
          latencyMs,
          attempts,
        },
      },
      cache ? w.key : undefined,
    );
    p.done++;
    p.tokensIn += inTokens;
    p.tokensOut += outTokens;
    emit();
    return true;
  };

  // The pump: reads cells while the lane of the last one read has room, answers those the store
  // holds at once, and starts the rest up to each lane's concurrency. Each finished cell pumps again.
  const source = opts.cells[Symbol.iterator]();
  let exhausted = false;
  let active = 0;
  let full: Lane | undefined;
  let settle: () => void = () => {};
  const idle = new Promise<void>((resolve) => {
    settle = resolve;
  });
  const roomIn = (lane: Lane) => lane.waiting.length < Math.max(64, 4 * lane.concurrency);
  const start = (lane: Lane) => {
    while (lane.active < lane.concurrency && lane.waiting.length > 0) {
      const w = lane.waiting.shift() as Work;
      lane.active++;
      active++;
      runOne(w)
        .catch(fail) // only the store can throw here (provider errors are caught per call)
        .finally(() => {
          lane.active--;
          active--;
          start(lane);
          pump();
        });
    }
  };
  const pump = () => {
    try {
      for (let read = 0; !exhausted && !signal.aborted; read++) {
        if (full) {
          if (!roomIn(full)) return;
          full = undefined;
        }
        // A long run of stored cells (a warm re-run) lets timers and a Ctrl-C in now and then.
        if (read === PUMP_TURN) {
          setImmediate(pump);
          return;
        }
        const next = source.next();
        if (next.done) {
          exhausted = true;
          break;
        }
        const cell = next.value;
        const lane = laneFor(cell.model);
        const w: Work = { cell, lane, key: cacheKey(lane.identity, cell.request, cell.repeat) };
        if (cache && fromStore(w)) continue;
        if (opts.leases && !opts.leases.claim(cell, lane.identity)) {
          p.total--;
          continue;
        }
        lane.waiting.push(w);
        start(lane);
        if (!roomIn(lane)) full = lane;
      }
    } catch (error) {
      fail(error);
    }
    if (active === 0) settle();
  };

  try {
    emit();
    pump();
    await idle;
    if (batch.length > 0 || timer !== undefined) flush();
  } finally {
    opts.signal?.removeEventListener('abort', onOuterAbort);
  }
  if (fatal !== undefined) throw fatal;

  p.pending = p.total - p.done - p.failed;
  const elapsedMs = now() - t0;
  emit();
  return {
    coverage: {
      total: p.total,
      done: p.done,
      failed: p.failed,
      pending: p.pending,
      cached: p.cached,
      errorsByKind: { ...p.errorsByKind },
    },
    calls,
    retries: p.retries,
    elapsedMs,
    tokensIn: p.tokensIn,
    tokensOut: p.tokensOut,
    aborted: signal.aborted,
  };
}

/** An array of cells may not list one twice (a generator is trusted: memory, docs/decisions.md E16). */
function checkListedOnce(cells: readonly Cell[], laneFor: (label: string) => Lane): void {
  const seen = new Map<string, string>(); // slot -> label
  for (const cell of cells) {
    const lane = laneFor(cell.model);
    const slot = `${lane.identity}\u0000${cell.testId}\u0000${cell.repeat}`;
    if (seen.has(slot))
      throw new Error(
        `cell listed twice: test "${cell.testId}", repeat ${cell.repeat}, model "${cell.model}"`,
      );
    seen.set(slot, cell.model);
  }
}

function ref(cell: Cell, lane: Lane, suiteHash: string) {
  return {
    suiteHash,
    testId: cell.testId,
    model: cell.model,
    modelIdentity: lane.identity,
    repeat: cell.repeat,
  };
}
