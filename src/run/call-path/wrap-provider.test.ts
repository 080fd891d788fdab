import { describe, expect, it } from 'vitest';
import type { EmbedRequest, ModelProvider } from '../../models/types.js';
import { ScriptedProvider, steps } from '../../test-support/scripted-provider.js';
import { callPath } from './call-path.js';
import type { PathCallOptions, TryOutcome } from './middleware.js';
import { isWrapped, wrapProvider } from './wrap-provider.js';

/** A provider that embeds: the first ask of each text hangs (until aborted), later ones answer. */
function hangOnceEmbedder() {
  const asked = new Map<string, number>();
  let closed = 0;
  const provider: ModelProvider = {
    provider: 'gguf',
    modelId: 'm.gguf',
    identity: 'gguf:m.gguf#1',
    capabilities: {
      chat: true,
      tokenLogprobs: false,
      topLogprobs: 0,
      fullDistribution: false,
      scoreContinuation: false,
      embeddings: true,
    },
    generate: async () => ({ text: 'x', finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 1 } }),
    embed: (request: EmbedRequest, options = {}) => {
      const text = request.input[0] ?? '';
      const nth = asked.get(text) ?? 0;
      asked.set(text, nth + 1);
      if (nth > 0) return Promise.resolve({ embeddings: [[nth]] });
      return new Promise((_, reject) =>
        options.signal?.addEventListener('abort', () => reject(options.signal?.reason)),
      );
    },
    close: async () => {
      closed++;
    },
  };
  return { provider, asked, closed: () => closed };
}

describe('wrapProvider', () => {
  it('keeps the interface, identity and capabilities; a missing method stays missing', async () => {
    const { provider, closed } = hangOnceEmbedder();
    const wrapped = wrapProvider(provider, []);
    expect(wrapped).toMatchObject({
      provider: 'gguf',
      modelId: 'm.gguf',
      identity: 'gguf:m.gguf#1',
      capabilities: provider.capabilities,
    });
    expect(wrapped.score).toBeUndefined();
    expect(typeof wrapped.embed).toBe('function');
    expect([isWrapped(wrapped), isWrapped(provider)]).toEqual([true, false]);
    await wrapped.close?.();
    expect(closed()).toBe(1);
    expect(wrapProvider(provider, [], { keepOpen: true }).close).toBeUndefined();
  });

  it("a generation without text is a provider bug ('internal'), not retried", async () => {
    const scripted = new ScriptedProvider(() => steps.ok('fine'));
    const broken = Object.assign(Object.create(scripted), {
      generate: async () => ({ finishReason: 'stop' }),
    }) as ScriptedProvider;
    const wrapped = wrapProvider(broken, callPath({ timeoutMs: 1000, maxRetries: 3 }));
    await expect(wrapped.generate({ messages: [] })).rejects.toThrow(/returned no text/);
  });

  it('an embedding call that hangs times out and is retried, each try reported to the observer', async () => {
    const { provider, asked } = hangOnceEmbedder();
    const wrapped = wrapProvider(
      provider,
      callPath({ timeoutMs: 30, maxRetries: 2 }, { sleep: async () => {}, random: () => 0 }),
    );
    const tries: TryOutcome[] = [];
    const options: PathCallOptions = { observer: { onTryEnd: (o) => tries.push(o) } };
    const result = await wrapped.embed?.({ input: ['hello'] }, options);
    expect(result).toEqual({ embeddings: [[1]] });
    expect(asked.get('hello')).toBe(2);
    expect(tries.map((t) => (t.ok ? 'ok' : (t.error as { kind: string }).kind))).toEqual(['timeout', 'ok']);
  });

  it("wrapped around a wrapped provider, hands the caller's observer and cache key to the inner path", async () => {
    const { provider } = hangOnceEmbedder();
    const seen: PathCallOptions[] = [];
    const inner = wrapProvider(provider, [
      (_call, options, next) => {
        seen.push(options);
        return next(options);
      },
    ]);
    const outer = wrapProvider(inner, [(_call, options, next) => next(options)], { keepOpen: true });
    const observer = { onTryStart: () => {} };
    const options: PathCallOptions = { observer, cacheKey: 'k' };
    await outer.generate({ messages: [] }, options);
    expect(seen[0]).toMatchObject({ observer, cacheKey: 'k' });
  });
});
