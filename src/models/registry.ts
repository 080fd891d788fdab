import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { InputError } from '../errors.js';
import type { DownloadProgress } from './download.js';
import {
  addPrefix,
  type BuiltinProviderName,
  isBuiltinPrefix,
  isKnownPrefix,
  knownPrefixes,
  PREFIX_PATTERN,
  removePrefix,
} from './prefixes.js';
import type { ModelSpec } from './spec.js';
import type { FetchFn, ModelProvider } from './types.js';

export interface CreateProviderOptions {
  /** Where API keys, base URLs and HF settings are read from (default process.env). */
  env?: NodeJS.ProcessEnv;
  fetch?: FetchFn;
  /** The most bytes an interactive answer's body may have (API providers). */
  maxResponseBytes?: number;
  /** Model download cache (default: see download.ts). */
  cacheDir?: string;
  onDownloadProgress?: (p: DownloadProgress) => void;
  /** An API model without a key opens (its calls would fail): for estimates, which call nothing. */
  keyOptional?: boolean;
}

/**
 * Builds the provider of a spec whose prefix it was registered under. It is handed the spec as
 * parsed (`model` is everything after the prefix) and the run's env and fetch. What it returns is
 * sent through waver's call path (timeout, retries, rate limits, cache) like a built-in provider:
 * its `identity` keys the stored answers, so it must say everything that changes an answer and
 * hold no secret.
 */
export type ProviderFactory = (spec: ModelSpec, opts: CreateProviderOptions) => Promise<ModelProvider>;

/**
 * The built-in providers. Each module is imported on demand, so an API-only run never loads
 * node-llama-cpp and a gguf-only run never loads the HTTP SDKs.
 */
const BUILTIN: Record<BuiltinProviderName, ProviderFactory> = {
  async openai(spec, opts) {
    const { createOpenAIProvider } = await import('./openai.js');
    return createOpenAIProvider({
      ...commonOf(spec, opts),
      model: spec.model,
      baseURL: spec.baseURL,
      apiKeyEnv: spec.apiKeyEnv,
      reasoning: spec.reasoning,
    });
  },
  async anthropic(spec, opts) {
    const { createAnthropicProvider } = await import('./anthropic.js');
    return createAnthropicProvider({
      ...commonOf(spec, opts),
      model: spec.model,
      baseURL: spec.baseURL,
      apiKeyEnv: spec.apiKeyEnv,
      apiVersion: spec.apiVersion,
    });
  },
  async replay(spec) {
    const { createReplayProvider } = await import('./replay.js');
    return createReplayProvider({ file: spec.model, label: spec.label });
  },
  async gguf(spec, opts) {
    const modelPath = await resolveGgufPath(spec.model, opts);
    const { createGgufProvider } = await import('./gguf.js');
    return createGgufProvider({
      modelPath,
      contextSize: spec.contextSize,
      chatTemplate: spec.chatTemplate,
      threads: spec.threads,
      label: spec.label,
    });
  },
};

function commonOf(spec: ModelSpec, opts: CreateProviderOptions) {
  return {
    env: opts.env,
    fetch: opts.fetch,
    label: spec.label,
    ...(opts.maxResponseBytes !== undefined && { maxResponseBytes: opts.maxResponseBytes }),
    ...(opts.keyOptional && { keyOptional: true }),
  };
}

/** The providers library users registered, by prefix (docs/providers.md). */
const plugged = new Map<string, ProviderFactory>();

/**
 * Registers a provider under a spec prefix for this process (docs/decisions.md E33): from then
 * on `PREFIX:MODEL` is a model spec the config, `runSuite` and every protocol accept, for any
 * role. Returns the call that registers it no more. A built-in prefix cannot be taken: waver reads
 * those names (batch APIs, list prices, reasoning models).
 */
export function registerProvider(prefix: string, factory: ProviderFactory): () => void {
  if (!PREFIX_PATTERN.test(prefix))
    throw new TypeError(
      `provider prefix '${prefix}' must match ${PREFIX_PATTERN} (it ends at the spec's first colon)`,
    );
  if (isKnownPrefix(prefix))
    throw new TypeError(
      `provider prefix '${prefix}' is taken (${isBuiltinPrefix(prefix) ? 'built in' : 'registered already'})`,
    );
  plugged.set(prefix, factory);
  addPrefix(prefix);
  return () => {
    if (plugged.get(prefix) !== factory) return;
    plugged.delete(prefix);
    removePrefix(prefix);
  };
}

/** Builds the provider a spec names, built in or registered. */
export async function createProvider(
  spec: ModelSpec,
  opts: CreateProviderOptions = {},
): Promise<ModelProvider> {
  if (isBuiltinPrefix(spec.provider)) return BUILTIN[spec.provider](spec, opts);
  const factory = plugged.get(spec.provider);
  if (!factory)
    throw new InputError(
      `unknown model provider '${spec.provider}': expected one of ${knownPrefixes()
        .map((p) => `${p}:`)
        .join(', ')}`,
    );
  const provider = await factory(spec, opts);
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

/** An `hf:` URI becomes a cached download; anything else is a local file (relative to the cwd). */
export async function resolveGgufPath(model: string, opts: CreateProviderOptions = {}): Promise<string> {
  if (model.startsWith('hf:')) {
    const { resolveHfModel } = await import('./download.js');
    return resolveHfModel(model, {
      cacheDir: opts.cacheDir,
      fetch: opts.fetch,
      env: opts.env,
      onProgress: opts.onDownloadProgress,
    });
  }
  const path = resolve(process.cwd(), model);
  if (!existsSync(path) || !statSync(path).isFile()) {
    throw new InputError(
      `gguf model file not found: ${path}; pass a local path (gguf:./model.gguf) or a Hugging Face file (gguf:hf:OWNER/REPO/FILE.gguf)`,
      { field: 'model' },
    );
  }
  return path;
}
