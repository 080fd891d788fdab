import type { BatchApi, BatchItem, BatchOutcome, BatchStatus, GenerateResult } from '../../models/types.js';
import type { AttemptRecord, BatchCell, BatchRecord, CellWrite, Store } from '../../store/store.js';
import { cacheKey } from '../cache-key.js';
import { newProgress } from '../progress.js';
import { DEFAULT_RETRY_POLICY, retryDelayMs, type SleepFn, sleep, toCellError } from '../retry.js';
import type { Cell, CellError, Progress, RunSummary, Suite } from '../types.js';

/** A model whose cells go through its provider's batch API. */
export interface BatchLane {
  label: string;
  identity: string;
  api: BatchApi;
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
  sleep?: SleepFn;
  random?: () => number;
}

/** The due time of a batch this run does not poll (again). */
const NEVER = Number.POSITIVE_INFINITY;

/** Cells read between two turns of the event loop at most (as the engine's pump). */
const PUMP_TURN = 4096;

/** Cells written together at most. */
const WRITE_CHUNK = 256;

interface OpenBatch {
  record: BatchRecord;
  lane: BatchLane;
  /** Requests the provider has answered so far. */
  answered: number;
  /** When it is polled next (performance.now() ms). */
  dueAt: number;
  /** Its poll or download failed past the retries: left open for a later run. */
  unreachable?: true;
}

/** The batch being filled for a lane. */
interface Filling {
  items: BatchItem[];
  cells: BatchCell[];
  /** Custom id by cache key: cells asking the same request share one (with the cache on). */
  byKey: Map<string, string>;
  bytes: number;
}

/**
 * Runs cells through their providers' batch APIs (docs/batch.md): fills batches within the
 * provider's limits, records each in the store as soon as it is accepted, polls every open batch
 * (those a killed run left included) and stores its answers as ordinary cells under the same
 * cache keys as interactive calls. A request that errored is a failed cell with its reason; one
 * an expired or cancelled batch left unanswered is submitted again, up to `maxRetries` times.
 */
export async function runBatches(opts: RunBatchesOptions): Promise<RunSummary> {
  const { store, runId, suite, lanes } = opts;
  const cache = opts.cache ?? true;
  const wait = opts.wait ?? true;
  const pause = opts.sleep ?? sleep;
  const random = opts.random ?? Math.random;
  const signal = opts.signal ?? new AbortController().signal;
  const policy = { ...DEFAULT_RETRY_POLICY, maxRetries: opts.maxRetries };
  const t0 = performance.now();
  const batches = { batches: 0, ended: 0, requests: 0, answered: 0 };
  const p: Progress = { ...newProgress(opts.total), batches };
  let calls = 0;
  const emit = () => {
    p.pending = p.total - p.done - p.failed;
    p.elapsedMs = performance.now() - t0;
    opts.onProgress?.({ ...p, errorsByKind: { ...p.errorsByKind }, batches: { ...batches } });
  };

  let writes: CellWrite[] = [];
  const flush = () => {
    const chunk = writes;
    writes = [];
    store.saveBatch(chunk);
  };
  const write = (w: CellWrite) => {
    writes.push(w);
    if (writes.length >= WRITE_CHUNK) flush();
  };
  const ref = (lane: BatchLane, c: Pick<BatchCell, 'testId' | 'repeat'>) => ({
    suiteHash: suite.hash,
    testId: c.testId,
    model: lane.label,
    modelIdentity: lane.identity,
    repeat: c.repeat,
    runId,
  });
  const failCell = (lane: BatchLane, c: BatchCell, error: CellError, attempts: AttemptRecord[]) => {
    write({ kind: 'failed', cell: { ...ref(lane, c), request: c.request, error, attempts } });
    p.failed++;
    p.errorsByKind[error.kind] = (p.errorsByKind[error.kind] ?? 0) + 1;
  };

  /** A provider call with the run's timeout, retried after retryable errors with backoff. */
  const withRetries = async <T>(fn: (signal: AbortSignal) => Promise<T>, stoppable: boolean): Promise<T> => {
    for (let retry = 0; ; retry++) {
      // A submission is not cut short by a stop: the provider may accept it as the answer is lost.
      const timeout = AbortSignal.timeout(opts.timeoutMs);
      try {
        return await fn(stoppable ? AbortSignal.any([signal, timeout]) : timeout);
      } catch (error) {
        const delay = signal.aborted ? undefined : retryDelayMs(error, retry, policy, random);
        if (delay === undefined) throw error;
        p.retries++;
        await pause(delay, signal);
      }
    }
  };

  const open: OpenBatch[] = [];
  /** Requests of the batches collected so far. */
  let answeredBefore = 0;
  const identities = new Map<string, string>();
  for (const lane of lanes.values()) {
    const other = identities.get(lane.identity);
    if (other !== undefined)
      throw new Error(`models "${other}" and "${lane.label}" share the identity ${lane.identity}`);
    identities.set(lane.identity, lane.label);
    // Batches a killed run left: polled, never submitted again (docs/batch.md#resume).
    for (const record of store.openBatches(suite.hash, lane.identity)) {
      // Polled at once: it may have ended long ago.
      open.push({ record, lane, answered: 0, dueAt: 0 });
      batches.batches++;
      batches.requests += record.requests;
    }
  }

  const filling = new Map<string, Filling>();
  const empty = (): Filling => ({ items: [], cells: [], byKey: new Map(), bytes: 0 });
  const limitsOf = (lane: BatchLane) => ({
    maxRequests: Math.min(lane.api.limits.maxRequests, opts.maxRequests ?? Number.POSITIVE_INFINITY),
    maxBytes: lane.api.limits.maxBytes,
  });

  const submit = async (lane: BatchLane): Promise<void> => {
    const batch = filling.get(lane.label);
    if (!batch || batch.items.length === 0) return;
    filling.delete(lane.label);
    const submittedAt = new Date().toISOString();
    const recorded = (ids: { providerId?: string; inputRef?: string }) =>
      store.recordBatch({
        ...ids,
        modelIdentity: lane.identity,
        suiteHash: suite.hash,
        runId,
        cells: batch.cells,
      });
    // Recorded once the provider holds the input: a lost answer or a kill from here on finds the
    // batch made over it again rather than making a second (docs/batch.md#resume).
    let uploaded: BatchRecord | undefined;
    const onInput = (inputRef: string) => {
      uploaded = recorded({ inputRef });
    };
    let providerId: string;
    try {
      calls += batch.items.length;
      providerId = await withRetries(
        (s) =>
          uploaded?.inputRef !== undefined && lane.api.resubmit
            ? lane.api.resubmit(uploaded.inputRef, { signal: s })
            : lane.api.submit(batch.items, { signal: s, onInput }),
        false,
      );
    } catch (error) {
      if (signal.aborted) return; // its cells stay pending (an uploaded batch is made by the next run)
      // Refused (auth, a bad request, retries spent): each cell fails with the reason.
      const err = toCellError(error);
      const attempts = [{ attempt: 1, startedAt: submittedAt, outcome: err.kind, message: err.message }];
      for (const c of batch.cells) failCell(lane, c, err, attempts);
      flush();
      if (uploaded) store.endBatch(uploaded.id, 'failed', err.message);
      emit();
      return;
    }
    let record: BatchRecord;
    if (uploaded) {
      store.markBatchSubmitted(uploaded.id, providerId);
      record = { ...uploaded, providerId, state: 'submitted' };
    } else record = recorded({ providerId });
    // A batch just accepted has not ended: the first poll waits.
    open.push({ record, lane, answered: 0, dueAt: wait ? performance.now() + opts.pollMs : NEVER });
    batches.batches++;
    batches.requests += batch.items.length;
    emit();
  };

  /** Adds a cell to its lane's batch, submitting the batch first when the cell would not fit. */
  const enqueue = async (lane: BatchLane, c: BatchCell): Promise<void> => {
    let batch = filling.get(lane.label) ?? empty();
    filling.set(lane.label, batch);
    const shared = cache ? batch.byKey.get(c.key) : undefined;
    if (shared !== undefined) {
      batch.cells.push({ ...c, customId: shared });
      return;
    }
    let bytes: number;
    try {
      bytes = lane.api.size({ customId: String(batch.items.length), request: c.request });
    } catch (error) {
      // A request the provider cannot take (a raw prompt): the cell fails, as its call would.
      const err = toCellError(error);
      const startedAt = new Date().toISOString();
      failCell(lane, c, err, [{ attempt: 1, startedAt, outcome: err.kind, message: err.message }]);
      emit();
      return;
    }
    const limits = limitsOf(lane);
    if (batch.items.length >= limits.maxRequests || batch.bytes + bytes > limits.maxBytes) {
      await submit(lane);
      batch = empty();
      filling.set(lane.label, batch);
    }
    const customId = `r${batch.items.length}`;
    batch.items.push({ customId, request: c.request });
    batch.cells.push({ ...c, customId });
    batch.byKey.set(c.key, customId);
    batch.bytes += bytes;
  };

  const notes: string[] = [];
  /** A batch that could not be polled or collected stays open for a later run, and the run says why. */
  const unreachable = (b: OpenBatch, what: string, error: unknown) => {
    b.dueAt = NEVER;
    b.unreachable = true;
    notes.push(
      `${b.lane.label}: batch ${b.record.providerId ?? b.record.id} could not be ${what} (${toCellError(error).message}); it stays open, and the same command tries again`,
    );
  };

  const made = async (b: OpenBatch): Promise<void> => {
    const { inputRef } = b.record;
    const resubmit = b.lane.api.resubmit;
    if (inputRef === undefined || !resubmit)
      throw new Error(`batch ${b.record.id} has neither a provider id nor an input to make it from`);
    const providerId = await withRetries((s) => resubmit(inputRef, { signal: s }), false);
    store.markBatchSubmitted(b.record.id, providerId);
    b.record = { ...b.record, providerId, state: 'submitted' };
  };

  /** Stores an ended batch's answers; the cells it left unanswered are asked again or failed. */
  const resubmitted = new Map<string, number>();
  const collect = async (b: OpenBatch, status: BatchStatus): Promise<void> => {
    const { record, lane } = b;
    const latencyMs = Date.now() - Date.parse(record.submittedAt);
    const answered = new Set<string>();
    if (status.state === 'ended') {
      const outcomes = await withRetries(async (s) => {
        // Read whole before anything is written: a download cut off is read again from the start.
        const all: BatchOutcome[] = [];
        for await (const o of lane.api.results(record.providerId as string, { signal: s })) all.push(o);
        return all;
      }, true);
      for (const o of outcomes) {
        if (!o.ok && 'missing' in o) continue;
        answered.add(o.customId);
        for (const c of store.batchCells(record.id, o.customId)) {
          // Stored by an earlier collection that was cut short.
          if (cache && store.doneCellKey(suite.hash, lane.identity, c.testId, c.repeat) === c.key) continue;
          const started = { attempt: 1, startedAt: record.submittedAt, latencyMs };
          if (o.ok) storeDone(lane, c, o.result, [{ ...started, outcome: 'ok' }], latencyMs);
          else {
            const err = toCellError(o.error);
            failCell(lane, c, err, [{ ...started, outcome: err.kind, message: err.message }]);
          }
        }
      }
    }
    const left = store.batchCells(record.id).filter((c) => !answered.has(c.customId));
    const again = resubmitted.get(lane.label) ?? 0;
    for (const c of left) {
      if (status.state === 'failed') {
        const err: CellError = { kind: 'client', message: `${lane.identity}: ${status.message}` };
        failCell(lane, c, err, [
          { attempt: 1, startedAt: record.submittedAt, latencyMs, outcome: err.kind, message: err.message },
        ]);
      } else if (again < opts.maxRetries) await enqueue(lane, c);
      // Else it stays pending: a later run asks again.
    }
    if (left.length > 0 && status.state !== 'failed') resubmitted.set(lane.label, again + 1);
    flush();
    store.endBatch(record.id, status.state === 'failed' ? 'failed' : 'collected', status.message);
    batches.ended++;
    emit();
  };

  const storeDone = (
    lane: BatchLane,
    c: BatchCell,
    result: GenerateResult,
    attempts: AttemptRecord[],
    latencyMs: number,
  ) => {
    write({
      kind: 'done',
      cell: { ...ref(lane, c), key: c.key, request: c.request, result, latencyMs, attempts },
    });
    p.done++;
    p.tokensIn += result.usage.inputTokens;
    p.tokensOut += result.usage.outputTokens;
  };

  try {
    emit();
    // Read the cells: stored ones are counted, the rest fill batches.
    let read = 0;
    for (const cell of opts.cells) {
      // A long run of stored cells (a warm re-run) lets timers and a Ctrl-C in now and then.
      if (++read % PUMP_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
      if (signal.aborted) break;
      const lane = lanes.get(cell.model);
      if (!lane) throw new Error(`no batch lane for model "${cell.model}"`);
      const key = cacheKey(lane.identity, cell.request, cell.repeat);
      if (cache && store.doneCellKey(suite.hash, lane.identity, cell.testId, cell.repeat) === key) {
        p.done++;
        p.cached++;
        continue;
      }
      if (cache && store.hasResponse(key)) {
        write({ kind: 'cached', cells: [{ ...ref(lane, cell), key }] });
        p.done++;
        p.cached++;
        continue;
      }
      // Its answer is on its way in a batch found open: counted when that batch is collected.
      if (store.cellInOpenBatch(suite.hash, lane.identity, cell.testId, cell.repeat, key)) continue;
      await enqueue(lane, {
        customId: '',
        testId: cell.testId,
        model: cell.model,
        repeat: cell.repeat,
        key,
        request: cell.request,
      });
    }
    flush();
    if (!signal.aborted) for (const lane of lanes.values()) await submit(lane);
    emit();

    // Poll until every batch is collected (or the run is stopped: they stay open in the store).
    // Not waiting, batches found open are polled once (what has ended is collected), new ones never.
    const due = () => open.filter((b) => b.dueAt !== NEVER);
    while (due().length > 0 && !signal.aborted) {
      for (const b of [...open]) {
        if (signal.aborted) break;
        if (b.dueAt > performance.now()) continue;
        b.dueAt = wait ? performance.now() + opts.pollMs : NEVER;
        let status: BatchStatus;
        try {
          // A killed run's batch whose input the provider holds: the batch made over it, or one made now.
          if (b.record.providerId === undefined) await made(b);
          const id = b.record.providerId as string;
          status = await withRetries((s) => b.lane.api.status(id, { signal: s }), true);
        } catch (error) {
          if (signal.aborted) break;
          unreachable(b, 'polled', error);
          continue;
        }
        b.answered = status.finished;
        batches.answered = open.reduce((n, o) => n + o.answered, 0) + answeredBefore;
        emit();
        if (status.state === 'running') continue;
        try {
          await collect(b, status);
        } catch (error) {
          if (signal.aborted) break;
          unreachable(b, 'collected', error);
          continue;
        }
        open.splice(open.indexOf(b), 1);
        answeredBefore += b.record.requests;
      }
      if (signal.aborted) break;
      for (const lane of lanes.values()) await submit(lane);
      const next = Math.min(...due().map((b) => b.dueAt));
      if (Number.isFinite(next)) await pause(Math.max(0, next - performance.now()), signal).catch(() => {});
    }
  } finally {
    flush();
  }
  if (!signal.aborted)
    for (const lane of lanes.values()) {
      const left = open.filter((b) => b.lane === lane && b.dueAt === NEVER && !b.unreachable).length;
      if (left > 0)
        notes.push(
          `${lane.label}: ${left} batch(es) still open at the provider; the same command later collects them`,
        );
    }
  emit();
  return {
    coverage: {
      total: p.total,
      done: p.done,
      failed: p.failed,
      pending: p.total - p.done - p.failed,
      cached: p.cached,
      errorsByKind: { ...p.errorsByKind },
    },
    calls,
    retries: p.retries,
    elapsedMs: performance.now() - t0,
    tokensIn: p.tokensIn,
    tokensOut: p.tokensOut,
    aborted: signal.aborted,
    ...(notes.length > 0 && { batchNotes: notes }),
  };
}
