import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { InputError } from '../../errors.js';
import type { CreateProviderOptions, ProviderDescriptor } from '../descriptor.js';
import { type GgufSpec, ggufSpec } from './gguf-spec.js';

/** A GGUF file run in this process by llama.cpp (node-llama-cpp loaded only for it). */
export const ggufProvider: ProviderDescriptor<GgufSpec> = {
  name: 'gguf',
  spec: ggufSpec,
  async create(spec, opts) {
    const modelPath = await resolveGgufPath(spec.model, opts);
    const { createGgufProvider } = await import('../gguf.js');
    return createGgufProvider({
      modelPath,
      contextSize: spec.contextSize,
      chatTemplate: spec.chatTemplate,
      threads: spec.threads,
      label: spec.label,
    });
  },
  local: true,
  inProcess: true,
  // A Hugging Face file is downloaded when the model is made; a path must be there already.
  localFile: (spec) => (spec.model.startsWith('hf:') ? undefined : spec.model),
};

/** An `hf:` URI becomes a cached download; anything else is a local file (relative to the cwd). */
export async function resolveGgufPath(model: string, opts: CreateProviderOptions = {}): Promise<string> {
  if (model.startsWith('hf:')) {
    const { resolveHfModel } = await import('../download.js');
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
