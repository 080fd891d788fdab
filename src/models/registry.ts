import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { InputError } from '../errors.js';
import type { DownloadProgress } from './download.js';
import type { ModelSpec } from './spec.js';
import type { FetchFn, ModelProvider } from './types.js';

export interface CreateProviderOptions {
  /** Where API keys, base URLs and HF settings are read from (default process.env). */
  env?: NodeJS.ProcessEnv;
  fetch?: FetchFn;
  /** Model download cache (default: see download.ts). */
  cacheDir?: string;
  onDownloadProgress?: (p: DownloadProgress) => void;
  /** An API model without a key opens (its calls would fail): for estimates, which call nothing. */
  keyOptional?: boolean;
}

/**
 * Builds the provider a spec names. Each provider module is imported on demand, so an API-only
 * run never loads node-llama-cpp and a gguf-only run never loads the HTTP SDKs.
 */
export async function createProvider(
  spec: ModelSpec,
  opts: CreateProviderOptions = {},
): Promise<ModelProvider> {
  const common = {
    env: opts.env,
    fetch: opts.fetch,
    label: spec.label,
    ...(opts.keyOptional && { keyOptional: true }),
  };
  switch (spec.provider) {
    case 'openai': {
      const { createOpenAIProvider } = await import('./openai.js');
      return createOpenAIProvider({
        ...common,
        model: spec.model,
        baseURL: spec.baseURL,
        apiKeyEnv: spec.apiKeyEnv,
        reasoning: spec.reasoning,
      });
    }
    case 'anthropic': {
      const { createAnthropicProvider } = await import('./anthropic.js');
      return createAnthropicProvider({
        ...common,
        model: spec.model,
        baseURL: spec.baseURL,
        apiKeyEnv: spec.apiKeyEnv,
        apiVersion: spec.apiVersion,
      });
    }
    case 'replay': {
      const { createReplayProvider } = await import('./replay.js');
      return createReplayProvider({ file: spec.model, label: spec.label });
    }
    case 'gguf': {
      const modelPath = await resolveGgufPath(spec.model, opts);
      const { createGgufProvider } = await import('./gguf.js');
      return createGgufProvider({
        modelPath,
        contextSize: spec.contextSize,
        chatTemplate: spec.chatTemplate,
        threads: spec.threads,
        label: spec.label,
      });
    }
    default: {
      const unknown: never = spec.provider;
      throw new InputError(`unknown model provider '${String(unknown)}'`);
    }
  }
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
