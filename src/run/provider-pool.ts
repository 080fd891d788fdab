import { type CreateProviderOptions, type ProviderRegistry, processProviders } from '../models/registry.js';
import type { ModelSpec } from '../models/spec.js';
import type { FetchFn, ModelProvider } from '../models/types.js';
import { canonicalJson } from '../util/hash.js';
import { type CallClock, type CallLimits, callPath } from './call-path/call-path.js';
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
}

/** The run-wide call settings; a spec's own concurrency, rpm, tpm, timeoutMs and maxRetries win. */
export interface CallDefaults {
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
  /** The providers its specs may name (default this process's: the built-ins and those registered). */
  registry?: ProviderRegistry;
  /** Builds a bare provider. Default the registry's `create`; tests count creations through their own. */
  create?: (spec: ModelSpec, opts: CreateProviderOptions) => Promise<ModelProvider>;
  clock?: CallClock;
  /** Open API models without a key (CreateProviderOptions.keyOptional): a dry run's pool. */
  keyOptional?: boolean;
}

export function createProviderPool(opts: ProviderPoolOptions): ProviderPool {
  const registry = opts.registry ?? processProviders;
  const create = opts.create ?? ((spec: ModelSpec, o: CreateProviderOptions) => registry.create(spec, o));
  const bare = new Map<string, Promise<ModelProvider>>();
  const wrapped = new Map<string, Promise<ModelProvider>>();
  let closed = false;
  return {
    get(spec) {
      if (closed) return Promise.reject(new Error('the provider pool is closed'));
      // The label and price change no answer (docs/decisions.md E2): a model named twice is one model.
      const { label: _label, price: _price, ...calls } = spec;
      const key = canonicalJson(calls);
      let provider = wrapped.get(key);
      if (!provider) {
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
          (p) => wrapProvider(p, callPath(limitsOf(spec, opts.defaults), opts.clock), { keepOpen: true }),
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

function limitsOf(spec: ModelSpec, defaults: CallDefaults): CallLimits {
  return {
    timeoutMs: spec.timeoutMs ?? defaults.timeoutMs,
    maxRetries: spec.maxRetries ?? defaults.maxRetries,
    concurrency: spec.concurrency ?? defaults.concurrency,
    ...(defaults.backoff ? { backoff: defaults.backoff } : {}),
    ...(spec.rpm ? { rpm: spec.rpm } : {}),
    ...(spec.tpm ? { tpm: spec.tpm } : {}),
  };
}
