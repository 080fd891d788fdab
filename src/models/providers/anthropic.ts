import type { ProviderDescriptor } from '../descriptor.js';
import { listPriceOf } from './list-prices.js';
import { apiCommonOf } from './openai.js';

export const anthropicProvider: ProviderDescriptor = {
  name: 'anthropic',
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
