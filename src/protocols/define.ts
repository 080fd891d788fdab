import type { WaverConfig } from '../config/schema.js';
import type { LoadContext } from '../report/load-context.js';
import type { ModelEstimate } from '../run/estimate.js';
import { createProviderPool, type ProviderPool } from '../run/provider-pool.js';
import type { Store } from '../store/store.js';
import { withNotices } from '../util/notices.js';
import type { PooledOptions, Protocol, ProtocolOptions, RunOutcome } from './types.js';

/**
 * A protocol's code behind its module (protocols/<name>/protocol.ts): imported on first use, so a
 * command loads its own protocol's code and no other's (docs/protocols.md#loading).
 */
export interface ProtocolCode<Plan, SectionData, Outcome extends RunOutcome> {
  build(config: WaverConfig, opts: PooledOptions): Promise<Plan>;
  estimate(config: WaverConfig, plan: Plan, opts: PooledOptions): Promise<ModelEstimate[]>;
  run(config: WaverConfig, plan: Plan, opts: PooledOptions): Promise<Outcome>;
  summary(outcome: Outcome, plan: Plan, format: WaverConfig['format']): string | undefined;
  /** Its report section, of which the protocol reads only the loader. */
  section: { load(store: Store, suiteHash: string, ctx: LoadContext): SectionData };
}

export interface ProtocolDefinition<Plan, SectionData, Outcome extends RunOutcome>
  extends Pick<
    Protocol<Plan, SectionData, Outcome>,
    'name' | 'title' | 'config' | 'suites' | 'thresholds' | 'designs' | 'adapters'
  > {
  code(): Promise<ProtocolCode<Plan, SectionData, Outcome>>;
}

/**
 * A shard's metrics are of its part of the suite, short of the whole by construction: a shard is
 * complete when its runs are, so a finished shard exits 0 (docs/decisions.md#e19-shards-deal-tests-round-robin).
 * The roles' runs are counted where the caller accounts for them (the CLI's exit code).
 */
function shardOutcome<Outcome extends RunOutcome>(config: WaverConfig, outcome: Outcome): Outcome {
  if (config.shard === undefined) return outcome;
  return { ...outcome, complete: !outcome.aborted && outcome.runs.every((r) => r.complete) };
}

/**
 * `f` with the caller's pool, else with one made for this call and closed after it: each model of
 * a protocol's call is one instance, whichever stages and roles use it (docs/protocols.md#models).
 */
export async function withPool<T>(
  config: WaverConfig,
  opts: ProtocolOptions,
  f: (opts: PooledOptions) => Promise<T>,
  { keyOptional = config.dryRun === true }: { keyOptional?: boolean } = {},
): Promise<T> {
  if (opts.pool) return f(pooled(opts, opts.pool));
  // An estimate calls nothing, so it needs no API key (the run checks it); a dry run's models refuse every call.
  const pool = createProviderPool({
    env: opts.env,
    fetch: opts.fetch,
    defaults: config,
    ...(keyOptional && { keyOptional: true }),
    ...(config.dryRun && { dryRun: true }),
  });
  try {
    return await f(pooled(opts, pool));
  } finally {
    await pool.closeAll();
  }
}

/**
 * The options with the pool, their signal also stopped by the pool's budget once it is reached
 * and its calls in flight are through: a protocol's stages stop where they look, as at a Ctrl-C
 * (docs/decisions.md#e37-a-budget-stops-a-command-its-cells-left-pending).
 */
function pooled(opts: ProtocolOptions, pool: ProviderPool): PooledOptions {
  const spent = pool.budget?.signal;
  if (!spent) return { ...opts, pool };
  return { ...opts, pool, signal: opts.signal ? AbortSignal.any([opts.signal, spent]) : spent };
}

/**
 * A protocol: what it is (name, title, config section, suites) at once, its code when first used.
 * Its calls' notices go to `opts.onNotice` when given, else where the process shows them (the
 * CLI: stderr; a library: nowhere).
 */
export function defineProtocol<Plan, SectionData, Outcome extends RunOutcome>(
  definition: ProtocolDefinition<Plan, SectionData, Outcome>,
): Protocol<Plan, SectionData, Outcome> {
  const { code, ...about } = definition;
  const noticed = <T>(opts: ProtocolOptions, f: () => Promise<T>) =>
    opts.onNotice ? withNotices(opts.onNotice, f) : f();
  return {
    ...about,
    build: async (config, opts = {}) => {
      const own = await code();
      return noticed(opts, () => withPool(config, opts, (o) => own.build(config, o)));
    },
    estimate: async (config, plan, opts = {}) => {
      const own = await code();
      return withPool(config, opts, (o) => own.estimate(config, plan, o), { keyOptional: true });
    },
    run: async (config, plan, opts = {}) => {
      const own = await code();
      const outcome = await noticed(opts, () => withPool(config, opts, (o) => own.run(config, plan, o)));
      return shardOutcome(config, outcome);
    },
    summary: async (outcome, plan, format) => (await code()).summary(outcome, plan, format),
    load: async (store, suiteHash, ctx) => (await code()).section.load(store, suiteHash, ctx),
  };
}
