import { activeProviders, type CreateProviderOptions, type ProviderRegistry } from '../models/registry.js';
import { type ModelSpec, specLabel } from '../models/spec.js';
import type { FetchFn, ModelProvider } from '../models/types.js';
import { canonicalJson } from '../util/hash.js';
import { type BudgetLimits, budgetOf, type CallBudget } from './budget.js';
import { callPath } from './call-path/call-path.js';
import { type CallClock, type CallLimits, mergeLimits } from './call-path/limits.js';
import { wrapProvider } from './call-path/wrap-provider.js';

/**
 * A run's models: one provider instance per model, whichever role asks for it and however
 * many suites and aux calls use it, so a gguf file is loaded once and a model's limits (slots,
 * rate-limit buckets) hold across all its calls. Each instance comes wrapped in its call path
 * (`call-path/`).
 */
export interface ProviderPool {
  /** The run's provider for `spec`, created (and so checked: key, file) on the first ask. */
  get(spec: ModelSpec): Promise<ModelProvider>;
  /** Closes every instance; the pool gives out none after. */
  closeAll(): Promise<void>;
  /**
   * The command's budget (`maxCalls`, `maxCost` of the defaults), metering every model's tries;
   * undefined when none is set (docs/decisions.md#e37-a-budget-stops-a-command-its-cells-left-pending).
   */
  readonly budget?: CallBudget;
}

/** The run-wide call settings; a spec's own concurrency, rpm, tpm, timeoutMs and maxRetries win (`mergeLimits`). */
export interface CallDefaults extends BudgetLimits {
  concurrency: number;
  timeoutMs: number;
  maxRetries: number;
  backoff?: CallLimits['backoff'];
  /** The most bytes an interactive answer's body may have. */
  maxResponseBytes?: number;
}

export interface ProviderPoolOptions {
  env?: NodeJS.ProcessEnv;
  fetch?: FetchFn;
  /** A WaverConfig will do. */
  defaults: CallDefaults;
  /** The providers its specs may name (default the run's, `activeProviders()`: the built-ins and those registered). */
  registry?: ProviderRegistry;
  /** Builds a bare provider. Default the registry's `create`; tests count creations through their own. */
  create?: (spec: ModelSpec, opts: CreateProviderOptions) => Promise<ModelProvider>;
  clock?: CallClock;
  /** Open API models without a key (CreateProviderOptions.keyOptional): a dry run's pool. */
  keyOptional?: boolean;
  /**
   * A dry run's pool: its models are made (so a spec, a key or a file is checked) and never called;
   * a call throws before anything is sent (docs/decisions.md E39).
   */
  dryRun?: boolean;
}

export function createProviderPool(opts: ProviderPoolOptions): ProviderPool {
  const registry = opts.registry ?? activeProviders();
  const create = opts.create ?? ((spec: ModelSpec, o: CreateProviderOptions) => registry.create(spec, o));
  const bare = new Map<string, Promise<ModelProvider>>();
  const wrapped = new Map<string, Promise<ModelProvider>>();
  const budget = budgetOf(opts.defaults);
  let closed = false;
  return {
    ...(budget && { budget }),
    get(spec) {
      if (closed) return Promise.reject(new Error('the provider pool is closed'));
      // The label and price change no answer (docs/decisions.md E2): a model named twice is one model.
      const { label: _label, price: _price, ...calls } = spec;
      const key = canonicalJson(calls);
      let provider = wrapped.get(key);
      if (!provider) {
        // A model whose price is unknown is refused under --max-cost before it is made.
        const limits = {
          ...mergeLimits(spec, opts.defaults),
          ...(budget && { meter: budget.meter(specLabel(spec), budget.priceOf(spec)) }),
        };
        const made = create(spec, {
          env: opts.env,
          fetch: opts.fetch,
          ...(opts.defaults.maxResponseBytes !== undefined && {
            maxResponseBytes: opts.defaults.maxResponseBytes,
          }),
          ...(opts.keyOptional && { keyOptional: true }),
        });
        bare.set(key, made);
        provider = made.then(
          (p) =>
            wrapProvider(opts.dryRun ? uncallable(p) : p, callPath(limits, opts.clock), { keepOpen: true }),
          (error: unknown) => {
            // A spec that failed may be fixed and asked again; nothing was made to close.
            bare.delete(key);
            wrapped.delete(key);
            throw error;
          },
        );
        wrapped.set(key, provider);
      }
      return provider;
    },
    async closeAll() {
      closed = true;
      const made = await Promise.allSettled(bare.values());
      bare.clear();
      wrapped.clear();
      await Promise.all(made.map((r) => (r.status === 'fulfilled' ? r.value.close?.() : undefined)));
    },
  };
}

/** The provider with every call refused, its identity and capabilities kept: a dry run's model. */
function uncallable(provider: ModelProvider): ModelProvider {
  const refuse = async (): Promise<never> => {
    throw new Error(`a dry run called ${provider.identity}: a dry run calls no model`);
  };
  return {
    provider: provider.provider,
    modelId: provider.modelId,
    identity: provider.identity,
    capabilities: provider.capabilities,
    generate: refuse,
    ...(provider.score && { score: refuse }),
    ...(provider.embed && { embed: refuse }),
  };
}
