import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import type { WaverConfig } from '../config/schema.js';
import { InputError } from '../errors.js';
import type { FetchFn, ModelProvider } from '../models/types.js';
import { type FailedKind, openStore, type Store, storeFailure } from '../store/store.js';
import { withoutSecrets } from '../util/secrets.js';
import { WAVER_VERSION } from '../version.js';
import { requirePrices } from './budget.js';
import { cacheKey } from './cache-key.js';
import { type RunCellsOptions, runCells } from './engine.js';
import { type EstimateStage, estimateRun, type ModelEstimate } from './estimate.js';
import { expectedCells, type PlannedModel, paramsCap, planCells, plannedModels } from './plan.js';
import { createProviderPool, type ProviderPool } from './provider-pool.js';
import { checkReachable } from './reachability.js';
import { shardOf } from './shard.js';
import { checkRepeats } from './suite.js';
import type { Cell, CellError, Coverage, Progress, RunSummary, Shard, Suite } from './types.js';
import { leaseOptions, WorkerLeases } from './worker-leases.js';

export interface RunSuiteOptions {
  env?: NodeJS.ProcessEnv;
  fetch?: FetchFn;
  onProgress?: (p: Progress) => void;
  signal?: AbortSignal;
  /**
   * The run's models, for a caller that runs several suites (roles, protocol stages) so each model
   * is created once and its limits hold across them; its call settings then apply, and the caller
   * closes it. Default: a pool of this call's own, with the config's settings.
   */
  pool?: ProviderPool;
  /**
   * Told of the run once it ends, stopped or not: for a caller that accounts for every run a
   * command makes, the roles' too (the CLI's exit code, docs/decisions.md#e8-exit-codes).
   */
  onRunEnd?: (run: RunResult) => void;
  /** Called once the providers are ready and before any call (e.g. to print what will run). */
  onStart?: (info: { runId: string; models: { label: string; identity: string }[]; cells: number }) => void;
}

export interface ModelOutcome {
  label: string;
  identity: string;
  coverage: Coverage;
  /** Its failed cells by kind, each with the message of the first. */
  failures: FailedKind[];
  /**
   * Done share of this model's cells >= `minCoverage`: its metrics are shown as complete. Whether
   * the run is complete is RunResult.complete (no failed or pending cell).
   */
  complete: boolean;
  /**
   * The error that stopped the run calling this model (a refused key, a spent quota): the command
   * exits 2 naming it (docs/decisions.md#e35-a-refused-key-or-a-spent-quota-stops-the-model).
   */
  stopped?: CellError;
}

export interface RunResult {
  runId: string;
  store: string;
  suite: { name: string; hash: string; tests: number };
  /** The part of the suite this run ran (`--shard`): coverage and `suite.tests` count its tests only. */
  shard?: Shard;
  repeats: number;
  models: ModelOutcome[];
  summary: RunSummary;
  /** No cell failed or is pending (docs/decisions.md#e8-exit-codes: else exit 3). */
  complete: boolean;
}

/**
 * Runs a suite against the config's models and stores every request, response and error.
 * Bad input (unknown provider, missing key or model file, unreachable endpoint) is found before
 * the store is opened, so a failed start writes nothing.
 */
export async function runSuite(
  config: WaverConfig,
  suite: Suite,
  opts: RunSuiteOptions = {},
): Promise<RunResult> {
  // Before a provider is made or an endpoint reached (docs/decisions.md E39).
  if (config.dryRun)
    throw new InputError('a dry run calls no model: estimate the plan instead of running it', {
      field: 'dryRun',
    });
  const models = plannedModels(config);
  const pool = opts.pool ?? createProviderPool({ env: opts.env, fetch: opts.fetch, defaults: config });
  try {
    const plan = await planRun(config, suite, models, pool, opts);
    const leaseOpts = leaseOptions(opts.env ?? process.env);
    const store = openStore(config.store);
    let stopped = true;
    let held: WorkerLeases | undefined;
    try {
      const runId = beginRun(store, config, suite, models);
      // Other workers may run this suite on this store: each calls the chunks of cells it leases
      // (docs/decisions.md#e14-workers-share-a-store-by-leasing-chunks-of-cells).
      const leases = new WorkerLeases(store, suite, { ...leaseOpts, owner: runId });
      held = leases;
      opts.onStart?.({
        runId,
        models: models.map((m) => ({ label: m.label, identity: plan.identities.get(m.label) as string })),
        cells: plan.total,
      });
      const run: LeasedRun = { config, suite, models, plan, store, runId, leases, opts };
      const summary = config.batch ? await batchedPasses(run) : await enginePasses(run);
      stopped = summary.aborted;
      const result = finishRun(run, summary);
      opts.onRunEnd?.(result);
      return result;
    } finally {
      held?.close(stopped);
      store.close();
    }
  } catch (e) {
    // A full disk or a damaged page met mid-run: the user's to fix, named (exit 2).
    throw storeFailure(e, config.store) ?? e;
  } finally {
    if (!opts.pool) await pool.closeAll();
  }
}

/** What a run is sized and called with, known before the store is opened. */
interface RunPlan {
  providers: Map<string, ModelProvider>;
  /** The part of the suite this run runs (`--shard`). */
  part: Suite;
  /** Cells each model owes the part. */
  owed: number;
  total: number;
  identities: Map<string, string>;
}

/**
 * The providers, the shard and its size; then every model with something to call is reached,
 * before the store is created, so an unreachable endpoint leaves nothing behind.
 */
async function planRun(
  config: WaverConfig,
  suite: Suite,
  models: readonly PlannedModel[],
  pool: ProviderPool,
  opts: RunSuiteOptions,
): Promise<RunPlan> {
  checkRepeats(suite, config);
  requirePrices(config);
  const providers = await providersOf(models, pool);
  // A shard runs its tests only; the suite stored is the whole one (docs/decisions.md E19).
  const part = shardOf(suite, config.shard);
  const owed = expectedCells(part, config.repeats);
  const identities = new Map(models.map((m) => [m.label, providers.get(m.label)?.identity ?? m.label]));
  // A warm re-run makes no request at all.
  const stored = storedCounts(config, suite, models, identities);
  const toCall = models.filter((m) => !config.cache || (stored.get(m.label) ?? 0) < owed);
  await Promise.all(toCall.map((m) => checkReachable(m.spec, opts)));
  return { providers, part, owed, total: owed * models.length, identities };
}

/** Stores the suite and opens the run; its id. */
function beginRun(store: Store, config: WaverConfig, suite: Suite, models: readonly PlannedModel[]): string {
  store.suites.save(suite);
  // Recorded with the cap its cells are sent where a test has none of its own (the report reads it).
  const params = { ...config.params, maxTokens: paramsCap(config.params) };
  const runId = store.runs.begin({
    suiteHash: suite.hash,
    config: withoutSecrets({ ...config, models: models.map((m) => m.spec), params }),
    waverVersion: WAVER_VERSION,
  });
  // A run is its leases' owner, so a later run that finds it dead marks it stopped.
  store.leases.sweepDeadWorkers(hostname());
  return runId;
}

/** A run begun in the store, with the chunk leases it calls under. */
interface LeasedRun {
  config: WaverConfig;
  suite: Suite;
  models: readonly PlannedModel[];
  plan: RunPlan;
  store: Store;
  runId: string;
  leases: WorkerLeases;
  opts: RunSuiteOptions;
}

/** What the engine (and the batch runner) are handed for every pass of the run. */
function engineOptions(run: LeasedRun): Omit<RunCellsOptions, 'cells' | 'total'> {
  const { config, plan, opts } = run;
  return {
    store: run.store,
    runId: run.runId,
    suite: run.suite,
    providers: new Map(
      run.models.map((m) => [
        m.label,
        // The pool's provider carries the model's timeout, retries and rate limits.
        { provider: plan.providers.get(m.label) as ModelProvider, concurrency: m.spec.concurrency },
      ]),
    ),
    cache: config.cache,
    defaults: {
      concurrency: config.concurrency,
      timeoutMs: config.timeoutMs,
      maxRetries: config.maxRetries,
    },
    onProgress: opts.onProgress,
    signal: opts.signal,
  };
}

/**
 * The cells of the chunks just taken over from other workers, of the given models, that are still
 * to be answered. A cell stored done under its request (found in the store when this run first
 * read it and counted then, or answered by the worker that held the chunk after this run left it
 * to that worker), or one this run itself wrote before the chunk passed to another and back, is
 * left out: the pass over the rest counts each cell of the run once, so its progress never passes
 * the cells it owes (docs/scaling.md#what-a-workers-progress-counts).
 */
function takenOverCells(
  run: LeasedRun,
  taken: ReturnType<WorkerLeases['takeOver']>,
  models: readonly PlannedModel[],
): Cell[] {
  const { config, plan, leases, store, suite, runId } = run;
  return models.flatMap((m) => {
    const identity = plan.identities.get(m.label) as string;
    const tests = leases.testsIn(plan.part, taken, identity);
    const own = new Set<string>();
    for (const t of tests.tests)
      for (const c of store.cells.all({
        suiteHash: suite.hash,
        modelIdentity: identity,
        testId: t.id,
        runId,
      }))
        own.add(`${c.testId}\u0000${c.repeat}`);
    const answered = (cell: Cell) =>
      own.has(`${cell.testId}\u0000${cell.repeat}`) ||
      (config.cache &&
        store.cells.doneKey(suite.hash, identity, cell.testId, cell.repeat) ===
          cacheKey(identity, cell.request, cell.repeat));
    return [...planCells(tests, [m], config)].filter((cell) => !answered(cell));
  });
}

/**
 * The engine's passes: this worker's own cells, then the chunks other workers held, each done by
 * its holder or taken over when it stopped or died (docs/decisions.md E14), until none is left.
 */
async function enginePasses(run: LeasedRun): Promise<RunSummary> {
  const { config, plan, leases, opts } = run;
  const engine = engineOptions(run);
  const pass = (cells: Iterable<Cell>, total: number, before?: RunSummary) => {
    const onProgress = opts.onProgress;
    return runCells({
      ...engine,
      cells,
      total,
      onProgress: onProgress && before ? (p) => onProgress(progressAfter(before, p)) : onProgress,
      leases,
    });
  };
  // Cells are made as the engine reads them; only their number is known up front.
  let summary = await pass(planCells(plan.part, run.models, config), plan.total);
  if (!summary.aborted) leases.finish();
  while (!summary.aborted && leases.waiting) {
    const taken = leases.takeOver();
    if (taken.length === 0) {
      summary = { ...summary, aborted: !(await pauseUnlessStopped(opts.signal)) };
      continue;
    }
    const more = takenOverCells(run, taken, run.models);
    summary = addSummaries(summary, await pass(more, more.length, summary));
    if (!summary.aborted) leases.finish();
  }
  return summary;
}

/**
 * Batched cells are leased like the engine's, until their batches are collected
 * (docs/decisions.md#e25-batches-are-leased-like-chunks-of-cells). The batch runner's modules are
 * loaded only by a batched run: a run without `--batch` starts without them.
 */
async function batchedPasses(run: LeasedRun): Promise<RunSummary> {
  const { config, plan, leases, opts } = run;
  const { runWithBatches } = await import('./batch/run-with-batches.js');
  const cellsOf = (labels: ReadonlySet<string>, tests = plan.part) =>
    planCells(
      tests,
      run.models.filter((m) => labels.has(m.label)),
      config,
    );
  return runWithBatches({
    ...engineOptions(run),
    cellsOf,
    cellsPerModel: plan.owed,
    pollMs: config.batchPollMs,
    ...(config.batchMaxRequests !== undefined && { maxRequests: config.batchMaxRequests }),
    wait: config.batchWait,
    batchLeases: {
      claim: leases.claim,
      finish: () => leases.finish(),
      next: async (labels) => {
        while (leases.waiting) {
          const taken = leases.takeOver();
          if (taken.length > 0)
            return takenOverCells(
              run,
              taken,
              run.models.filter((m) => labels.has(m.label)),
            );
          if (!(await pauseUnlessStopped(opts.signal))) return undefined;
        }
        return undefined;
      },
    },
  });
}

/** Each model's coverage of the run's part, the run's status in the store, and the result. */
function finishRun(run: LeasedRun, summary: RunSummary): RunResult {
  const { config, suite, store, runId, plan } = run;
  const { shard } = config;
  const outcomes = run.models.map((m): ModelOutcome => {
    const identity = plan.identities.get(m.label) as string;
    const coverage = store.coverage.of(suite.hash, [{ identity, repeats: config.repeats }], {
      runId,
      shard,
    });
    const share = coverage.total === 0 ? 1 : coverage.done / coverage.total;
    const stopped = summary.stoppedModels?.[m.label];
    return {
      label: m.label,
      identity,
      coverage,
      failures: store.coverage.failedKinds(suite.hash, identity, config.repeats, shard),
      complete: share >= config.minCoverage,
      ...(stopped && { stopped }),
    };
  });
  const complete = outcomes.every((o) => o.coverage.failed === 0 && o.coverage.pending === 0);
  store.runs.finish(runId, summary.aborted ? 'aborted' : complete ? 'complete' : 'incomplete');
  return {
    runId,
    store: config.store,
    suite: { name: suite.name, hash: suite.hash, tests: plan.part.tests.length },
    ...(shard && { shard }),
    repeats: config.repeats,
    models: outcomes,
    summary,
    complete,
  };
}

/** How often a run whose own cells are through looks at the chunks other workers hold. */
const POLL_MS = 250;

/** Waits a poll's time; false when the run was stopped meanwhile. */
async function pauseUnlessStopped(signal: AbortSignal | undefined): Promise<boolean> {
  try {
    await delay(POLL_MS, undefined, { signal });
    return true;
  } catch {
    return false;
  }
}

/** A later pass's progress, counted on from the passes before it. */
function progressAfter(before: RunSummary, p: Progress): Progress {
  const c = before.coverage;
  return {
    ...p,
    total: c.total + p.total,
    done: c.done + p.done,
    failed: c.failed + p.failed,
    cached: c.cached + p.cached,
    pending: c.pending + p.pending,
    tokensIn: before.tokensIn + p.tokensIn,
    tokensOut: before.tokensOut + p.tokensOut,
    errorsByKind: addCounts(c.errorsByKind, p.errorsByKind),
    retries: before.retries + p.retries,
    elapsedMs: before.elapsedMs + p.elapsedMs,
  };
}

function addSummaries(a: RunSummary, b: RunSummary): RunSummary {
  const coverage: Coverage = {
    total: a.coverage.total + b.coverage.total,
    done: a.coverage.done + b.coverage.done,
    failed: a.coverage.failed + b.coverage.failed,
    pending: a.coverage.pending + b.coverage.pending,
    cached: a.coverage.cached + b.coverage.cached,
    errorsByKind: addCounts(a.coverage.errorsByKind, b.coverage.errorsByKind),
  };
  return {
    coverage,
    calls: a.calls + b.calls,
    retries: a.retries + b.retries,
    elapsedMs: a.elapsedMs + b.elapsedMs,
    tokensIn: a.tokensIn + b.tokensIn,
    tokensOut: a.tokensOut + b.tokensOut,
    refusals: a.refusals + b.refusals,
    contentFiltered: a.contentFiltered + b.contentFiltered,
    implausibleUsage: a.implausibleUsage + b.implausibleUsage,
    ...((a.stoppedModels || b.stoppedModels) && {
      stoppedModels: { ...a.stoppedModels, ...b.stoppedModels },
    }),
    aborted: b.aborted,
    ...(b.stopReason !== undefined && { stopReason: b.stopReason }),
  };
}

function addCounts(a: Record<string, number>, b: Record<string, number>): Record<string, number> {
  const out = { ...a };
  for (const [k, n] of Object.entries(b)) out[k] = (out[k] ?? 0) + n;
  return out;
}

/**
 * `--dry-run`: how many calls, tokens and dollars the run would spend, as the calls of `as` (the
 * systems under test's by default). Calls nothing and writes nothing.
 */
export async function estimateSuite(
  config: WaverConfig,
  suite: Suite,
  opts: RunSuiteOptions = {},
  as: EstimateStage = { role: 'model' },
): Promise<ModelEstimate[]> {
  const models = plannedModels(config);
  // An estimate calls nothing, so an API key is not needed for it (the run checks it).
  const pool =
    opts.pool ??
    createProviderPool({ env: opts.env, fetch: opts.fetch, defaults: config, keyOptional: true });
  try {
    checkRepeats(suite, config);
    requirePrices(config);
    const providers = await providersOf(models, pool);
    const identities = new Map(models.map((m) => [m.label, providers.get(m.label)?.identity ?? m.label]));
    const stored = storedCounts(config, suite, models, identities);
    const part = shardOf(suite, config.shard);
    const repeats = new Map(part.tests.map((t) => [t.id, t.repeats ?? config.repeats]));
    // One repeat of each test is read; the estimate counts the rest (a billion repeats cost nothing to plan).
    const once = { ...part, tests: part.tests.map((t) => ({ ...t, repeats: 1 })) };
    return estimateRun(
      planCells(once, models, config),
      models,
      config,
      (m) => stored.get(m.label) ?? 0,
      (testId) => repeats.get(testId) ?? config.repeats,
      as,
    );
  } finally {
    if (!opts.pool) await pool.closeAll();
  }
}

/** Done cells per model (of the shard's tests) already in the store; reads nothing when the store does not exist yet. */
function storedCounts(
  config: WaverConfig,
  suite: Suite,
  models: readonly PlannedModel[],
  identities: Map<string, string>,
): Map<string, number> {
  const counts = new Map<string, number>();
  if (!existsSync(config.store)) return counts;
  // Read-only: a start that fails after this (an unreachable endpoint) must have written nothing.
  // Not checked page by page: the writer's open that follows checks it.
  const store = openStore(config.store, { readonly: true, check: 'never' });
  try {
    if (!store.hasSchema()) return counts;
    for (const m of models)
      counts.set(
        m.label,
        store.coverage.doneCount(suite.hash, identities.get(m.label) as string, config.shard),
      );
  } finally {
    store.close();
  }
  return counts;
}

/** Each model's provider from the pool, in order (a bad spec fails before any other is asked for). */
async function providersOf(
  models: readonly PlannedModel[],
  pool: ProviderPool,
): Promise<Map<string, ModelProvider>> {
  const providers = new Map<string, ModelProvider>();
  for (const m of models) providers.set(m.label, await pool.get(m.spec));
  return providers;
}
