import { InputError } from '../errors.js';
import type { CreateProviderOptions, ProviderDescriptor, ProviderFactory } from './descriptor.js';
import { addPrefix, isBuiltinPrefix, PREFIX_PATTERN, removePrefix } from './prefixes.js';
import { anthropicProvider } from './providers/anthropic.js';
import { ggufProvider } from './providers/gguf.js';
import { openaiProvider } from './providers/openai.js';
import { replayProvider } from './providers/replay.js';
import type { ModelSpec } from './spec.js';
import type { ModelProvider } from './types.js';

export type { CreateProviderOptions, ProviderDescriptor, ProviderFactory } from './descriptor.js';

/** The built-in providers, one descriptor each (src/models/providers/). */
export const BUILTIN_DESCRIPTORS: readonly ProviderDescriptor[] = [
  openaiProvider,
  anthropicProvider,
  ggufProvider,
  replayProvider,
];

/**
 * The providers a run can use, by spec prefix: the built-ins, then those registered (from the
 * library or waver.yaml's `providers:`). Everything outside src/models/ asks it about a provider
 * (its endpoint, cost, batch API, whether it runs in process) instead of naming one.
 */
export class ProviderRegistry {
  readonly #byName = new Map<string, ProviderDescriptor>();
  readonly #announce?: { add(name: string): void; remove(name: string): void };

  constructor(
    builtins: readonly ProviderDescriptor[] = BUILTIN_DESCRIPTORS,
    /** Tells the spec parser which prefixes exist (the process registry only). */
    announce?: { add(name: string): void; remove(name: string): void },
  ) {
    for (const d of builtins) this.#byName.set(d.name, d);
    this.#announce = announce;
  }

  /**
   * Adds a provider (docs/decisions.md E33). Returns the call that removes it again. A built-in
   * prefix cannot be taken, nor one registered already.
   */
  register(descriptor: ProviderDescriptor): () => void {
    const { name } = descriptor;
    if (typeof name !== 'string' || !PREFIX_PATTERN.test(name))
      throw new TypeError(
        `provider prefix '${name}' must match ${PREFIX_PATTERN} (it ends at the spec's first colon)`,
      );
    if (typeof descriptor.create !== 'function')
      throw new TypeError(`provider '${name}' has no create(spec, opts) function`);
    if (this.#byName.has(name))
      throw new TypeError(
        `provider prefix '${name}' is taken (${isBuiltinPrefix(name) ? 'built in' : 'registered already'})`,
      );
    this.#byName.set(name, descriptor);
    this.#announce?.add(name);
    return () => {
      if (this.#byName.get(name) !== descriptor) return;
      this.#byName.delete(name);
      this.#announce?.remove(name);
    };
  }

  get(name: string): ProviderDescriptor | undefined {
    return this.#byName.get(name);
  }

  names(): string[] {
    return [...this.#byName.keys()];
  }

  /** Builds the provider a spec names. */
  async create(spec: ModelSpec, opts: CreateProviderOptions = {}): Promise<ModelProvider> {
    const descriptor = this.#byName.get(spec.provider);
    if (!descriptor)
      throw new InputError(
        `unknown model provider '${spec.provider}': expected one of ${this.names()
          .map((p) => `${p}:`)
          .join(', ')}`,
      );
    const provider = await descriptor.create(spec, opts);
    // Its identity keys every stored answer: a provider without one would share a cache with others.
    if (
      typeof provider?.identity !== 'string' ||
      provider.identity === '' ||
      typeof provider.generate !== 'function'
    )
      throw new TypeError(
        `the '${spec.provider}' provider factory returned no provider with an identity and generate()`,
      );
    return provider;
  }
}

/** This process's providers: the ones model specs may name (the spec parser knows their prefixes). */
export const processProviders = new ProviderRegistry(BUILTIN_DESCRIPTORS, {
  add: addPrefix,
  remove: removePrefix,
});

/**
 * Registers a provider for this process (docs/decisions.md E33): from then on `PREFIX:MODEL` is a
 * model spec the config, `runSuite` and every protocol accept, for any role. Takes a descriptor,
 * or a prefix and a factory (a descriptor with nothing else known: not local, no batch API, no
 * list prices). Returns the call that registers it no more.
 */
export function registerProvider(descriptor: ProviderDescriptor): () => void;
export function registerProvider(prefix: string, factory: ProviderFactory): () => void;
export function registerProvider(what: string | ProviderDescriptor, factory?: ProviderFactory): () => void {
  if (typeof what === 'string') {
    if (typeof factory !== 'function') throw new TypeError(`provider '${what}' has no factory`);
    return processProviders.register({ name: what, create: factory });
  }
  return processProviders.register(what);
}

/** Builds the provider a spec names, built in or registered. */
export function createProvider(spec: ModelSpec, opts: CreateProviderOptions = {}): Promise<ModelProvider> {
  return processProviders.create(spec, opts);
}

/** What this process knows of a provider (undefined for one another process registered). */
export function describeProvider(name: string): ProviderDescriptor | undefined {
  return processProviders.get(name);
}
