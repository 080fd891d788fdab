import { AsyncLocalStorage } from 'node:async_hooks';
import { InputError } from '../errors.js';
import type { CreateProviderOptions, ProviderDescriptor, ProviderFactory } from './descriptor.js';
import { anthropicProvider } from './providers/anthropic.js';
import { ggufProvider } from './providers/gguf.js';
import { openaiProvider } from './providers/openai.js';
import { replayProvider } from './providers/replay.js';
import { expectedProviders, parseSpecObject, parseSpecString } from './spec-parse.js';
import { type ModelSpec, PREFIX_PATTERN, type SpecWhere } from './spec-shape.js';
import type { ModelProvider } from './types.js';

export type { CreateProviderOptions, ProviderDescriptor, ProviderFactory } from './descriptor.js';

/** The built-in providers, one descriptor each (src/models/providers/). */
export const BUILTIN_DESCRIPTORS: readonly ProviderDescriptor[] = [
  openaiProvider,
  anthropicProvider,
  ggufProvider,
  replayProvider,
] as readonly ProviderDescriptor[];

/**
 * The providers a run can use, by spec prefix: the built-ins, then those registered (from the
 * library or waver.yaml's `providers:`). It parses the specs that name them (each by its
 * descriptor's shape) and builds their providers; everything outside src/models/ asks it about a
 * provider (its endpoint, cost, batch API, whether it runs in process) instead of naming one.
 */
export class ProviderRegistry {
  readonly #byName = new Map<string, ProviderDescriptor>();
  readonly #builtins: ReadonlySet<string>;

  constructor(builtins: readonly ProviderDescriptor[] = BUILTIN_DESCRIPTORS) {
    for (const d of builtins) this.#byName.set(d.name, d);
    this.#builtins = new Set(builtins.map((d) => d.name));
  }

  /**
   * Adds a provider (docs/decisions.md E33). Returns the call that removes it again. A built-in
   * prefix cannot be taken, nor one registered already.
   */
  register<S extends ModelSpec>(descriptor: ProviderDescriptor<S>): () => void {
    const { name } = descriptor;
    if (typeof name !== 'string' || !PREFIX_PATTERN.test(name))
      throw new TypeError(
        `provider prefix '${name}' must match ${PREFIX_PATTERN} (it ends at the spec's first colon)`,
      );
    if (typeof descriptor.create !== 'function')
      throw new TypeError(`provider '${name}' has no create(spec, opts) function`);
    if (this.#byName.has(name))
      throw new TypeError(
        `provider prefix '${name}' is taken (${this.#builtins.has(name) ? 'built in' : 'registered already'})`,
      );
    const held = descriptor as unknown as ProviderDescriptor;
    this.#byName.set(name, held);
    return () => {
      if (this.#byName.get(name) === held) this.#byName.delete(name);
    };
  }

  get(name: string): ProviderDescriptor | undefined {
    return this.#byName.get(name);
  }

  names(): string[] {
    return [...this.#byName.keys()];
  }

  /** Either form of a spec, parsed by its provider's shape; an InputError names `where` when it is bad. */
  parse(spec: string | Record<string, unknown>, where: SpecWhere = {}): ModelSpec {
    return typeof spec === 'string' ? parseSpecString(this, spec, where) : parseSpecObject(this, spec, where);
  }

  /** Builds the provider a spec names. */
  async create(spec: ModelSpec, opts: CreateProviderOptions = {}): Promise<ModelProvider> {
    const descriptor = this.#byName.get(spec.provider);
    if (!descriptor)
      throw new InputError(`unknown model provider '${spec.provider}': ${expectedProviders(this)}`);
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

/** This process's providers: a run's, unless it runs with its own (`withProviders`). */
export const processProviders = new ProviderRegistry();

const runProviders = new AsyncLocalStorage<ProviderRegistry>();

/**
 * Runs `fn` with `registry` as its providers (docs/decisions.md E43): every spec it parses, every
 * provider its pools build and every descriptor its run asks for come from `registry`, and what is
 * registered in it is seen nowhere else, a run beside it included.
 */
export function withProviders<T>(registry: ProviderRegistry, fn: () => T): T {
  return runProviders.run(registry, fn);
}

/** The providers of the run this code is part of: its own (`withProviders`), else the process's. */
export function activeProviders(): ProviderRegistry {
  return runProviders.getStore() ?? processProviders;
}

/**
 * Registers a provider with the active registry (docs/decisions.md E33): from then on
 * `PREFIX:MODEL` is a model spec the config, `runSuite` and every protocol accept, for any role.
 * Takes a descriptor, or a prefix and a factory (a descriptor with nothing else known: an HTTP
 * endpoint's spec, not local, no batch API, no list prices). Returns the call that removes it.
 */
export function registerProvider<S extends ModelSpec>(descriptor: ProviderDescriptor<S>): () => void;
export function registerProvider(prefix: string, factory: ProviderFactory): () => void;
export function registerProvider(what: string | ProviderDescriptor, factory?: ProviderFactory): () => void {
  if (typeof what === 'string') {
    if (typeof factory !== 'function') throw new TypeError(`provider '${what}' has no factory`);
    return activeProviders().register({ name: what, create: factory });
  }
  return activeProviders().register(what);
}

/** Builds the provider a spec names, built in or registered, from the active registry. */
export function createProvider(spec: ModelSpec, opts: CreateProviderOptions = {}): Promise<ModelProvider> {
  return activeProviders().create(spec, opts);
}

/** What the active registry knows of a provider (undefined for one another run registered). */
export function describeProvider(name: string): ProviderDescriptor | undefined {
  return activeProviders().get(name);
}
