import { setTimeout as tick } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { validateConfig } from '../config/load.js';
import { InputError } from '../errors.js';
import { createProviderPool } from '../run/provider-pool.js';
import { CHAT_ONLY_CAPABILITIES } from '../test-support/scripted-provider.js';
import type { ProviderDescriptor } from './descriptor.js';
import { activeProviders, ProviderRegistry, processProviders, withProviders } from './registry.js';
import { parseModelSpec, toModelSpec } from './spec.js';
import type { ModelSpec } from './spec-shape.js';

/**
 * A spec's fields are its provider's (docs/providers.md#spec-shapes), and the providers a spec may
 * name are those of the run it is part of (docs/decisions.md E43).
 */

const inputErrorOf = (f: () => unknown): InputError => {
  try {
    f();
  } catch (e) {
    if (e instanceof InputError) return e;
    throw e;
  }
  throw new Error('no InputError');
};

describe('each built-in provider owns its spec fields', () => {
  it.each([
    ['openai', 'contextSize', 4096],
    ['openai', 'apiVersion', '2023-06-01'],
    ['anthropic', 'reasoning', true],
    ['gguf', 'apiKeyEnv', 'KEY'],
    ['gguf', 'baseURL', 'http://127.0.0.1:9/v1'],
    ['replay', 'chatTemplate', 'raw'],
  ])("%s refuses another provider's field %s, naming the spec's field", (provider, field, value) => {
    const err = inputErrorOf(() =>
      toModelSpec({ provider, model: 'm', [field]: value }, { file: 'w.yaml', line: 3, field: 'models.0' }),
    );
    expect(err.message).toMatch(new RegExp(`Unrecognized key: "${field}"`));
    expect([err.file, err.line, err.field]).toEqual(['w.yaml', 3, 'models.0']);
  });

  it.each([
    ['openai', { reasoning: false }],
    ['anthropic', { apiVersion: '2023-06-01', apiKeyEnv: 'K' }],
    ['gguf', { contextSize: 512, threads: 1, gpuLayers: 0 }],
  ])('%s takes its own: %j', (provider, fields) => {
    expect(toModelSpec({ provider, model: 'm', ...fields })).toMatchObject(fields);
  });

  it("a string gets only its provider's defaults, and replay's rest is all file", () => {
    expect(parseModelSpec('openai:gpt-4o-mini')).toEqual({
      provider: 'openai',
      model: 'gpt-4o-mini',
      label: 'openai:gpt-4o-mini',
    });
    expect(parseModelSpec('gguf:./m.gguf').chatTemplate).toBe('auto');
    expect(parseModelSpec('replay:./a@http://x/rec.jsonl')).toEqual({
      provider: 'replay',
      model: './a@http://x/rec.jsonl',
      label: 'replay:./a@http://x/rec.jsonl',
    });
  });
});

/** A service of one's own with a setting no built-in has: how loud it answers. */
type VoicedSpec = ModelSpec & { voice: 'plain' | 'loud' };
const voiced = (tag: string): ProviderDescriptor<VoicedSpec> => ({
  name: 'voiced',
  spec: { fields: { voice: z.enum(['plain', 'loud'], 'must be plain or loud').default('plain') } },
  async create(spec) {
    return {
      provider: spec.provider,
      modelId: spec.model,
      identity: `voiced:${spec.model}:${spec.voice}@${spec.baseURL ?? 'none'}`,
      capabilities: CHAT_ONLY_CAPABILITIES,
      generate: async () => ({
        text: `${tag} ${spec.voice === 'loud' ? spec.model.toUpperCase() : spec.model}`,
        finishReason: 'stop',
        usage: { inputTokens: 1, outputTokens: 1 },
      }),
    };
  },
});

describe('a registered provider with a spec of its own', () => {
  it('parses its field in the object form, keeps an endpoint string form, and refuses what it lacks', async () => {
    const providers = new ProviderRegistry();
    providers.register(voiced('a'));
    await withProviders(providers, async () => {
      expect(parseModelSpec('voiced:m@http://127.0.0.1:9/v1')).toMatchObject({
        model: 'm',
        baseURL: 'http://127.0.0.1:9/v1',
        voice: 'plain',
      });
      const spec = toModelSpec({ provider: 'voiced', model: 'm', voice: 'loud' });
      const provider = await activeProviders().create(spec);
      expect((await provider.generate({ messages: [] })).text).toBe('a M');
      const bad = inputErrorOf(() =>
        toModelSpec({ provider: 'voiced', model: 'm', voice: 'shout' }, { field: 'judge' }),
      );
      expect([bad.field, bad.reason]).toEqual(['judge.voice', 'must be plain or loud']);
      expect(() => toModelSpec({ provider: 'voiced', model: 'm', contextSize: 9 })).toThrow(
        /Unrecognized key: "contextSize"/,
      );
    });
  });

  it('a string form of its own reads its settings, refused with the key the string used', () => {
    const providers = new ProviderRegistry();
    providers.register({
      ...voiced('b'),
      spec: {
        fields: { voice: z.enum(['plain', 'loud'], 'must be plain or loud').default('plain') },
        fromString: (rest) => {
          const [model = '', voice] = rest.split('!');
          return voice === undefined
            ? { model }
            : { model, fields: { voice }, given: { voice: { key: '!', text: voice } } };
        },
      },
    });
    withProviders(providers, () => {
      expect(parseModelSpec('voiced:m!loud')).toMatchObject({ model: 'm', voice: 'loud' });
      expect(() => parseModelSpec('voiced:m!shout')).toThrow(
        "model spec 'voiced:m!shout': ! must be plain or loud, got 'shout'",
      );
    });
  });
});

describe("the run's registry", () => {
  it('two runs register the same prefix each its own; neither sees the other, nor the process', async () => {
    const run = (tag: string) => {
      const providers = new ProviderRegistry();
      return withProviders(providers, async () => {
        providers.register(voiced(tag));
        await tick(5); // the other run registers in between
        const config = validateConfig({ models: [{ provider: 'voiced', model: 'm', voice: 'loud' }] });
        const pool = createProviderPool({ defaults: { concurrency: 1, timeoutMs: 1000, maxRetries: 0 } });
        try {
          const provider = await pool.get(toModelSpec(config.models[0] as ModelSpec));
          return (await provider.generate({ messages: [] })).text;
        } finally {
          await pool.closeAll();
        }
      });
    };
    expect(await Promise.all([run('one'), run('two')])).toEqual(['one M', 'two M']);
    expect(processProviders.get('voiced')).toBeUndefined();
    expect(() => parseModelSpec('voiced:m')).toThrow(
      "unknown model provider in 'voiced:m': expected one of openai:, anthropic:, gguf:, replay:",
    );
  });

  it("an unknown prefix names the run's providers, built in and registered", () => {
    const providers = new ProviderRegistry();
    providers.register(voiced('c'));
    withProviders(providers, () => {
      expect(() => parseModelSpec('nope:x')).toThrow(
        "unknown model provider in 'nope:x': expected one of openai:, anthropic:, gguf:, replay:, voiced:",
      );
      const err = inputErrorOf(() =>
        validateConfig({ models: ['gguf:./m.gguf', { provider: 'nope', model: 'x' }] }),
      );
      expect([err.field, err.reason]).toEqual([
        'models.1.provider',
        "unknown model provider 'nope': expected one of openai:, anthropic:, gguf:, replay:, voiced:",
      ]);
    });
  });
});
