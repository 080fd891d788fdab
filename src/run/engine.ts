import { setMaxListeners } from 'node:events';
import PQueue from 'p-queue';
import type { GenerateResult, ModelProvider } from '../models/types.js';
import {
  type AttemptRecord,
  type CellWrite,
  doneCellSlot,
  type SaveCellCached,
  type Store,
} from '../store/store.js';
import { cacheKey } from './cache-key.js';
import { callPath } from './call-path/call-path.js';
import type { CallObserver, PathCallOptions } from './call-path/middleware.js';
import { isWrapped, wrapProvider } from './call-path/wrap-provider.js';
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
  /** From store.beginRun. */
  runId: string;
  suite: Suite;
  cells: Cell[];
  /** Keyed by model label (Cell.model). */
  providers: Map<string, ModelEntry>;
  /** Default true. false: call even when stored, and overwrite the stored answer. */
  cache?: boolean;
  defaults: { concurrency: number; timeoutMs: number; maxRetries: number };
  /** Backoff tuning (base 500 ms, cap 30 s by default). */
  retry?: Partial<Omit<RetryPolicy, 'maxRetries'>>;
  onProgress?: (p: Progress) => void;
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

interface Lane {
  label: string;
  identity: string;
  queue: PQueue;
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

/**
 * Runs cells (test x model x repeat) against their providers and writes each one to the store
 * as it finishes (cells finishing in the same event-loop turn share one transaction): a killed
 * run loses at most the cells in flight or finished within the last turn, and never stores one
 * twice (cells are unique per suite, model identity, test, repeat).
 * Every cell ends done or failed (with its reason) unless the run is stopped, when the cells
 * not finished stay pending.
 */
export async function runCells(opts: RunCellsOptions): Promise<RunSummary> {
  const now = opts.now ?? (() => performance.now());
  const random = opts.random ?? Math.random;
  const pause = opts.sleep ?? sleep;
  const cache = opts.cache ?? true;
  const { store, runId, suite } = opts;
  const t0 = now();

  if (!store.hasSuite(suite.hash)) store.saveSuite(suite);

  const lanes = new Map<string, Lane>();
  const laneFor = (label: string): Lane => {
    const existing = lanes.get(label);
    if (existing) return existing;
    const entry = opts.providers.get(label);
    if (!entry) throw new Error(`no provider for model "${label}"`);
    const concurrency = Math.max(1, entry.concurrency ?? opts.defaults.concurrency);
    const lane: Lane = {
      label,
      identity: entry.provider.identity,
      queue: new PQueue({ concurrency }),
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

  const p: Progress = {
    total: opts.cells.length,
    done: 0,
    failed: 0,
    cached: 0,
    pending: opts.cells.length,
    inFlight: 0,
    tokensIn: 0,
    tokensOut: 0,
    errorsByKind: {},
    retries: 0,
    elapsedMs: 0,
  };
  let calls = 0;
  const emit = () => {
    if (!opts.onProgress) return;
    p.pending = p.total - p.done - p.failed;
    p.elapsedMs = now() - t0;
    opts.onProgress({ ...p, errorsByKind: { ...p.errorsByKind } });
  };

  // Sort the cells: stored for this very cell (no write), stored for another (link), to call.
  const doneSlots = new Map<string, Set<string>>();
  const storedKeys = new Map<string, Set<string>>();
  const seen = new Map<string, string>(); // slot -> label
  const toLink: SaveCellCached[] = [];
  const toCall: Work[] = [];
  for (const cell of opts.cells) {
    const lane = laneFor(cell.model);
    const slot = `${lane.identity}\u0000${cell.testId}\u0000${cell.repeat}`;
    const other = seen.get(slot);
    if (other !== undefined) {
      const why =
        other === cell.model
          ? `model "${cell.model}"`
          : `models "${other}" and "${cell.model}" share the identity ${lane.identity} (cells are stored per identity)`;
      throw new Error(`cell listed twice: test "${cell.testId}", repeat ${cell.repeat}, ${why}`);
    }
    seen.set(slot, cell.model);
    const key = cacheKey(lane.identity, cell.request, cell.repeat);
    if (cache) {
      let done = doneSlots.get(lane.identity);
      if (!done) {
        done = store.doneCellKeys(suite.hash, lane.identity);
        doneSlots.set(lane.identity, done);
      }
      if (done.has(doneCellSlot(cell.testId, cell.repeat, key))) {
        p.done++;
        p.cached++;
        continue;
      }
      let keys = storedKeys.get(lane.identity);
      if (!keys) {
        keys = store.responseKeys(lane.identity);
        storedKeys.set(lane.identity, keys);
      }
      if (keys.has(key)) {
        toLink.push({ ...ref(cell, lane, suite.hash), runId, key });
        continue;
      }
    }
    toCall.push({ cell, lane, key });
  }
  store.saveCellsCached(toLink);
  p.done += toLink.length;
  p.cached += toLink.length;
  emit();

  // Stopping: the caller's signal, or a store failure (a run that cannot record must not go on).
  const stop = new AbortController();
  let fatal: unknown;
  const onOuterAbort = () => stop.abort(new RunStopped('run stopped'));
  if (opts.signal?.aborted) onOuterAbort();
  else opts.signal?.addEventListener('abort', onOuterAbort, { once: true });
  const signal = stop.signal;
  // Every call in flight listens to it: one listener per call is expected, not a leak.
  setMaxListeners(0, signal);

  // Group commit: cells that finish in the same turn of the event loop are written in one
  // transaction at the next turn (see Store.saveBatch). A write failure stops the run.
  let batch: CellWrite[] = [];
  let flushing: Promise<void> | undefined;
  const flush = () => {
    const writes = batch;
    batch = [];
    flushing = undefined;
    try {
      store.saveBatch(writes);
    } catch (error) {
      if (fatal === undefined) fatal = error;
      stop.abort(new RunStopped('store write failed'));
    }
  };
  const write = (w: CellWrite) => {
    batch.push(w);
    flushing ??= new Promise<void>((resolve) =>
      setImmediate(() => {
        flush();
        resolve();
      }),
    );
  };

  // With the cache on, cells whose requests are identical (same key) share one call: the
  // first calls, the others wait for it and reuse its stored answer.
  const inFlightKeys = new Map<string, Promise<void>>();
  const answeredKeys = new Set<string>();

  const runOne = async (w: Work): Promise<void> => {
    if (signal.aborted) return;
    if (cache) {
      const earlier = inFlightKeys.get(w.key);
      if (earlier) {
        await earlier;
        if (signal.aborted) return;
        if (answeredKeys.has(w.key)) {
          write({ kind: 'cached', cells: [{ ...ref(w.cell, w.lane, suite.hash), runId, key: w.key }] });
          p.done++;
          p.cached++;
          emit();
          return;
        }
      }
    }
    const call = callCell(w);
    if (cache && !inFlightKeys.has(w.key)) {
      inFlightKeys.set(
        w.key,
        call.then(
          () => {},
          () => {},
        ),
      );
    }
    await call;
  };

  const callCell = async (w: Work): Promise<void> => {
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
        return;
      }
      const err = toCellError(error);
      write({
        kind: 'failed',
        cell: { ...ref(cell, lane, suite.hash), runId, request: cell.request, error: err, attempts },
      });
      p.failed++;
      p.errorsByKind[err.kind] = (p.errorsByKind[err.kind] ?? 0) + 1;
      emit();
      return;
    }
    // An answer that came back as the run was stopped is whole: it is stored like any other.
    const inTokens = result.usage?.inputTokens ?? 0;
    const outTokens = result.usage?.outputTokens ?? 0;
    write({
      kind: 'done',
      cell: {
        ...ref(cell, lane, suite.hash),
        runId,
        key: w.key,
        request: cell.request,
        result,
        latencyMs,
        attempts,
      },
    });
    answeredKeys.add(w.key);
    p.done++;
    p.tokensIn += inTokens;
    p.tokensOut += outTokens;
    emit();
  };

  const guarded = (w: Work) => async () => {
    try {
      await runOne(w);
    } catch (error) {
      // Only the store can throw here (provider errors are caught per call): stop everything.
      if (fatal === undefined) fatal = error;
      stop.abort(new RunStopped('store write failed'));
    }
  };

  try {
    for (const w of toCall) void w.lane.queue.add(guarded(w));
    await Promise.all([...lanes.values()].map((l) => l.queue.onIdle()));
    await flushing;
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

function ref(cell: Cell, lane: Lane, suiteHash: string) {
  return {
    suiteHash,
    testId: cell.testId,
    model: cell.model,
    modelIdentity: lane.identity,
    repeat: cell.repeat,
  };
}
