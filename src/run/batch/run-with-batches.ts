import { type ModelEntry, type RunCellsOptions, runCells } from '../engine.js';
import type { Cell, Progress, RunSummary } from '../types.js';
import { type BatchLane, type BatchLeases, runBatches } from './run-batches.js';

export interface RunWithBatchesOptions extends Omit<RunCellsOptions, 'cells' | 'total'> {
  /** The cells of these models (labels), in run order. */
  cellsOf: (labels: ReadonlySet<string>) => Iterable<Cell>;
  /** Cells each model owes the suite. */
  cellsPerModel: number;
  pollMs: number;
  maxRequests?: number;
  /** false: submit the batches and return with them open. */
  wait?: boolean;
  /** Other workers may batch this suite on this store (the batched models' cells only). */
  batchLeases?: BatchLeases;
}

/**
 * `batch` on (docs/batch.md): the models whose provider has a batch API are run through it, the
 * others through the engine as usual, both at once; progress and the summary are their sums.
 */
export async function runWithBatches(opts: RunWithBatchesOptions): Promise<RunSummary> {
  const { cellsOf, cellsPerModel, pollMs, maxRequests, wait, batchLeases, ...engine } = opts;
  const lanes = new Map<string, BatchLane>();
  const interactive = new Map<string, ModelEntry>();
  for (const [label, entry] of opts.providers) {
    const api = entry.provider.batch;
    if (api) lanes.set(label, { label, identity: entry.provider.identity, api });
    else interactive.set(label, entry);
  }
  const parts: Progress[] = [];
  const onPart = (i: number) => (p: Progress) => {
    parts[i] = p;
    if (opts.onProgress) opts.onProgress(sumProgress(parts.filter(Boolean)));
  };
  const runs: Promise<RunSummary>[] = [];
  if (lanes.size > 0)
    runs.push(
      runBatches({
        store: opts.store,
        runId: opts.runId,
        suite: opts.suite,
        cells: cellsOf(new Set(lanes.keys())),
        total: cellsPerModel * lanes.size,
        lanes,
        cache: opts.cache,
        pollMs,
        maxRequests,
        ...(wait !== undefined && { wait }),
        maxRetries: opts.defaults.maxRetries,
        timeoutMs: opts.defaults.timeoutMs,
        onProgress: onPart(0),
        signal: opts.signal,
        ...(batchLeases && { leases: batchLeases }),
        ...(opts.sleep ? { sleep: opts.sleep } : {}),
        ...(opts.random ? { random: opts.random } : {}),
      }),
    );
  if (interactive.size > 0)
    runs.push(
      runCells({
        ...engine,
        providers: interactive,
        cells: cellsOf(new Set(interactive.keys())),
        total: cellsPerModel * interactive.size,
        onProgress: onPart(1),
      }),
    );
  return sumSummaries(await Promise.all(runs));
}

function sumKinds(all: Record<string, number>[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const kinds of all) for (const [k, n] of Object.entries(kinds)) out[k] = (out[k] ?? 0) + n;
  return out;
}

function sumProgress(parts: Progress[]): Progress {
  const sum = (f: (p: Progress) => number) => parts.reduce((n, p) => n + f(p), 0);
  const batches = parts.find((p) => p.batches)?.batches;
  return {
    total: sum((p) => p.total),
    done: sum((p) => p.done),
    failed: sum((p) => p.failed),
    cached: sum((p) => p.cached),
    pending: sum((p) => p.pending),
    inFlight: sum((p) => p.inFlight),
    tokensIn: sum((p) => p.tokensIn),
    tokensOut: sum((p) => p.tokensOut),
    errorsByKind: sumKinds(parts.map((p) => p.errorsByKind)),
    retries: sum((p) => p.retries),
    elapsedMs: Math.max(0, ...parts.map((p) => p.elapsedMs)),
    ...(batches ? { batches } : {}),
  };
}

function sumSummaries(all: RunSummary[]): RunSummary {
  const sum = (f: (s: RunSummary) => number) => all.reduce((n, s) => n + f(s), 0);
  return {
    coverage: {
      total: sum((s) => s.coverage.total),
      done: sum((s) => s.coverage.done),
      failed: sum((s) => s.coverage.failed),
      pending: sum((s) => s.coverage.pending),
      cached: sum((s) => s.coverage.cached),
      errorsByKind: sumKinds(all.map((s) => s.coverage.errorsByKind)),
    },
    calls: sum((s) => s.calls),
    retries: sum((s) => s.retries),
    elapsedMs: Math.max(0, ...all.map((s) => s.elapsedMs)),
    tokensIn: sum((s) => s.tokensIn),
    tokensOut: sum((s) => s.tokensOut),
    refusals: sum((s) => s.refusals),
    contentFiltered: sum((s) => s.contentFiltered),
    implausibleUsage: sum((s) => s.implausibleUsage),
    ...(all.some((s) => s.stoppedModels) && {
      stoppedModels: Object.assign({}, ...all.map((s) => s.stoppedModels)),
    }),
    aborted: all.some((s) => s.aborted),
    ...(all.some((s) => s.batchNotes) && { batchNotes: all.flatMap((s) => s.batchNotes ?? []) }),
  };
}
