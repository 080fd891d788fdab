import OpenAI from 'openai';
import { afterAll, beforeAll } from 'vitest';
import { createGgufProvider, type GgufProvider } from '../models/gguf.js';
import { type OpenAIServer, type OpenAIServerOptions, startOpenAIServer } from '../server/openai-server.js';
import { tinyModelPath } from './shared.js';

export interface ServedTinyModel {
  /** `waver serve`'s server over the tiny model, as `tiny`. */
  server: OpenAIServer;
  /** The official SDK pointed at it, without retries. */
  client: OpenAI;
}

/**
 * The tiny GGUF model served over the OpenAI-compatible API for the enclosing describe block
 * (started before its tests, closed after); its fields are set once the block starts.
 */
export function servedTinyModel(
  contextSize = 256,
  options: Omit<OpenAIServerOptions, 'provider' | 'modelName'> = {},
): ServedTinyModel {
  const served = {} as ServedTinyModel;
  let model: GgufProvider | undefined;
  beforeAll(async () => {
    model = await createGgufProvider({ modelPath: tinyModelPath as string, contextSize });
    served.server = await startOpenAIServer({ ...options, provider: model, modelName: 'tiny' });
    served.client = new OpenAI({ baseURL: served.server.url, apiKey: 'none', maxRetries: 0 });
  });
  afterAll(async () => {
    await served.server?.close();
    await model?.close();
  });
  return served;
}
