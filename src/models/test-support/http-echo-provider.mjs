import { z } from 'zod';

/**
 * A provider as a user ships it beside their waver.yaml (`providers: [./http-echo-provider.mjs]`):
 * plain JavaScript, no import from waver, its default export a descriptor (docs/providers.md).
 * It asks `POST {URL}/generate` and answers with the `text` it gets back. Its spec has a field no
 * built-in provider has, `voice`, which it sends along (docs/providers.md#spec-shapes).
 */
export default {
  name: 'httpecho',
  // No string form of its own: `httpecho:MODEL@URL`, with baseURL and apiKeyEnv besides `voice`.
  spec: { fields: { voice: z.enum(['plain', 'loud'], 'must be plain or loud').default('plain') } },
  local: false,
  listPrice: (model) => (model === 'priced' ? { input: 1, output: 2 } : undefined),
  async create(spec, { env = process.env, fetch = globalThis.fetch } = {}) {
    const url = spec.baseURL ?? env.HTTPECHO_URL;
    if (!url) throw new Error('httpecho: name its URL (httpecho:MODEL@URL) or set HTTPECHO_URL');
    return {
      provider: 'httpecho',
      modelId: spec.model,
      identity: `httpecho:${spec.model}:${spec.voice}@${url}`,
      capabilities: {
        chat: true,
        tokenLogprobs: false,
        topLogprobs: 0,
        fullDistribution: false,
        scoreContinuation: false,
        embeddings: false,
      },
      async generate(request, { signal } = {}) {
        const res = await fetch(`${url}/generate`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            model: spec.model,
            voice: spec.voice,
            prompt: request.messages.at(-1)?.content,
          }),
          signal,
        });
        const body = await res.json();
        return {
          text: body.text,
          finishReason: 'stop',
          usage: { inputTokens: body.inputTokens, outputTokens: body.outputTokens },
        };
      },
    };
  },
};
