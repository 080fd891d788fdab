import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIServer } from '../server/openai-server.js';
import { tinyModelMissing, tinyModelPath } from '../test-support/shared.js';
import { createGgufProvider } from './gguf.js';
import { createOpenAIProvider } from './openai.js';
import type { GenerateRequest, GenerateResult, ModelProvider, TokenLogprob } from './types.js';

/**
 * The `openai:` provider end to end over real HTTP: waver's own OpenAI-compatible server in front
 * of the real tiny model. Whatever the model says directly, it must say through HTTP.
 */
describe.skipIf(tinyModelMissing)(
  `openai provider against waver serve + the tiny model ${tinyModelMissing ?? ''}`,
  () => {
    let direct: ModelProvider;
    let viaHttp: ModelProvider;
    let server: { url: string; close(): Promise<void> };

    beforeAll(async () => {
      direct = await createGgufProvider({ modelPath: tinyModelPath as string, contextSize: 512 });
      server = await startOpenAIServer({ provider: direct, modelName: 'tiny' });
      viaHttp = createOpenAIProvider({ model: 'tiny', baseURL: server.url, env: {} });
    });
    afterAll(async () => {
      await server?.close();
      await direct?.close?.();
    });

    /** What HTTP can carry: entropy is not part of the OpenAI API, so it is left out of the comparison. */
    const comparable = (tokens: TokenLogprob[] | undefined) =>
      tokens?.map(({ entropy: _e, ...rest }) => rest);

    function expectSame(http: GenerateResult, local: GenerateResult) {
      expect(http.text).toBe(local.text);
      expect(http.finishReason).toBe(local.finishReason);
      expect(http.usage).toEqual(local.usage);
      const a = comparable(http.tokens) ?? [];
      const b = comparable(local.tokens) ?? [];
      expect(a.map((t) => t.token)).toEqual(b.map((t) => t.token));
      a.forEach((t, i) => {
        expect(t.logprob).toBeCloseTo(b[i]?.logprob ?? Number.NaN, 9);
        expect(t.top?.map((x) => x.token)).toEqual(b[i]?.top?.map((x) => x.token));
        t.top?.forEach((x, j) => {
          expect(x.logprob).toBeCloseTo(b[i]?.top?.[j]?.logprob ?? Number.NaN, 9);
        });
      });
    }

    it('the same text, tokens and log-probs through HTTP as from the model directly', async () => {
      const request: GenerateRequest = {
        messages: [{ role: 'user', content: 'Once upon a time' }],
        maxTokens: 24,
        logprobs: true,
        topLogprobs: 5,
      };
      const local = await direct.generate(request);
      const http = await viaHttp.generate(request);
      expect(local.tokens?.length).toBeGreaterThan(0);
      expect(http.tokens?.[0]?.top).toHaveLength(5);
      expectSame(http, local);
      expect(http.responseModel).toBe('tiny');
    });

    it('the same with a stop sequence and without log-probs', async () => {
      const request: GenerateRequest = {
        messages: [{ role: 'user', content: 'The little dog' }],
        maxTokens: 40,
        stop: ['.'],
      };
      const local = await direct.generate(request);
      const http = await viaHttp.generate(request);
      expect(http.tokens).toBeUndefined();
      expect(http.text).toBe(local.text);
      expect(http.finishReason).toBe(local.finishReason);
    });

    it('embeddings through HTTP equal the direct ones', async () => {
      const input = ['Once upon a time', 'a little girl named Lily'];
      const local = await direct.embed?.({ input });
      const http = await viaHttp.embed?.({ input });
      expect(local?.embeddings).toHaveLength(2);
      expect(http?.embeddings).toHaveLength(2);
      http?.embeddings.forEach((vector, i) => {
        const expected = local?.embeddings[i] ?? [];
        expect(vector).toHaveLength(expected.length);
        vector.forEach((x, j) => {
          expect(x).toBeCloseTo(expected[j] ?? Number.NaN, 6);
        });
      });
    });
  },
);
