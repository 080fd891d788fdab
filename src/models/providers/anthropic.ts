import { z } from 'zod';
import type { ProviderDescriptor } from '../descriptor.js';
import { endpointSpec, type ModelSpec } from '../spec-shape.js';
import { listPriceOf } from './list-prices.js';
import { apiCommonOf } from './openai.js';

const anthropicSpec = endpointSpec({
  /**
   * The `anthropic-version` header. The SDK's default version no longer accepts temperature;
   * '2023-06-01' does, so waver can pin temperature 0 (see docs/decisions.md E9).
   */
  apiVersion: z.string().min(1).optional(),
});

export type AnthropicSpec = ModelSpec & { apiKeyEnv?: string; apiVersion?: string };

export const anthropicProvider: ProviderDescriptor<AnthropicSpec> = {
  name: 'anthropic',
  spec: anthropicSpec,
  async create(spec, opts) {
    const { createAnthropicProvider } = await import('../anthropic.js');
    return createAnthropicProvider({
      ...apiCommonOf(spec, opts),
      model: spec.model,
      baseURL: spec.baseURL,
      apiKeyEnv: spec.apiKeyEnv,
      apiVersion: spec.apiVersion,
    });
  },
  endpoint: { defaultBaseURL: 'https://api.anthropic.com', baseURLEnv: 'ANTHROPIC_BASE_URL' },
  batch: true,
  listPrice: listPriceOf(
    {
      'claude-3-5-haiku-latest': { input: 0.8, output: 4 },
      'claude-haiku-4-5': { input: 1, output: 5 },
      'claude-sonnet-4-5': { input: 3, output: 15 },
      'claude-opus-4-1': { input: 15, output: 75 },
    },
    /api\.anthropic\.com/,
  ),
};
