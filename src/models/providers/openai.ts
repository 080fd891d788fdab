import { z } from 'zod';
import type { CreateProviderOptions, ProviderDescriptor } from '../descriptor.js';
import { endpointSpec, type ModelSpec } from '../spec-shape.js';
import { listPriceOf } from './list-prices.js';

/** The settings every HTTP provider takes from the spec and the run. */
export function apiCommonOf(spec: ModelSpec, opts: CreateProviderOptions) {
  return {
    env: opts.env,
    fetch: opts.fetch,
    label: spec.label,
    ...(opts.maxResponseBytes !== undefined && { maxResponseBytes: opts.maxResponseBytes }),
    ...(opts.keyOptional && { keyOptional: true }),
  };
}

const openaiSpec = endpointSpec({
  /**
   * A reasoning model (o-series, gpt-5 family), sent `max_completion_tokens` and no temperature,
   * top_p or log-probs. Unset: guessed from the model id (docs/decisions.md E12).
   */
  reasoning: z.boolean().optional(),
});

export type OpenAISpec = ModelSpec & { apiKeyEnv?: string; reasoning?: boolean };

/** OpenAI and every OpenAI-compatible server (`openai:MODEL@URL`). */
export const openaiProvider: ProviderDescriptor<OpenAISpec> = {
  name: 'openai',
  spec: openaiSpec,
  // Imported on demand, so a gguf-only run never loads the HTTP SDK.
  async create(spec, opts) {
    const { createOpenAIProvider } = await import('../openai.js');
    return createOpenAIProvider({
      ...apiCommonOf(spec, opts),
      model: spec.model,
      baseURL: spec.baseURL,
      apiKeyEnv: spec.apiKeyEnv,
      reasoning: spec.reasoning,
    });
  },
  endpoint: { defaultBaseURL: 'https://api.openai.com/v1', baseURLEnv: 'OPENAI_BASE_URL' },
  batch: true,
  listPrice: listPriceOf(
    {
      'gpt-4o': { input: 2.5, output: 10 },
      'gpt-4o-mini': { input: 0.15, output: 0.6 },
      'gpt-4.1': { input: 2, output: 8 },
      'gpt-4.1-mini': { input: 0.4, output: 1.6 },
      'gpt-4.1-nano': { input: 0.1, output: 0.4 },
      'o4-mini': { input: 1.1, output: 4.4 },
    },
    /api\.openai\.com/,
  ),
};
