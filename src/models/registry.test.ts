import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError } from '../errors.js';
import { startLoopback } from '../test-support/models/loopback.js';
import { CHAT_ONLY_CAPABILITIES } from '../test-support/scripted-provider.js';
import { tinyModelMissing, tinyModelPath } from '../test-support/shared.js';
import { createProvider, type ProviderFactory, registerProvider } from './registry.js';
import { recordingLine } from './replay.js';
import { parseModelSpec, toModelSpec } from './spec.js';

const dir = mkdtempSync(join(tmpdir(), 'waver-registry-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('createProvider', () => {
  it('openai: model, base URL and apiKeyEnv from the spec, key from the given env', async () => {
    const p = await createProvider(
      { ...parseModelSpec('openai:qwen@http://127.0.0.1:9/v1'), apiKeyEnv: 'LOCAL_KEY' },
      { env: { LOCAL_KEY: 'x' } },
    );
    expect(p.provider).toBe('openai');
    expect(p.modelId).toBe('qwen');
    expect(p.identity).toBe('openai:qwen@http://127.0.0.1:9/v1');
  });

  it('openai/anthropic against the vendor host without a key: InputError before any call', async () => {
    await expect(createProvider(parseModelSpec('openai:gpt-4o-mini'), { env: {} })).rejects.toThrow(
      InputError,
    );
    await expect(createProvider(parseModelSpec('anthropic:claude-x'), { env: {} })).rejects.toThrow(
      /ANTHROPIC_API_KEY/,
    );
    const a = await createProvider(parseModelSpec('anthropic:claude-x'), { env: { ANTHROPIC_API_KEY: 'k' } });
    expect(a.identity).toBe('anthropic:claude-x@https://api.anthropic.com');
  });

  it('replay: the JSONL file', async () => {
    const file = join(dir, 'rec.jsonl');
    const q = { messages: [{ role: 'user' as const, content: 'hi' }] };
    writeFileSync(
      file,
      `${recordingLine(q, { text: 'hello', finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 1 } })}\n`,
    );
    const p = await createProvider(parseModelSpec(`replay:${file}`));
    expect(p.provider).toBe('replay');
    expect((await p.generate(q)).text).toBe('hello');
  });

  it('gguf: a missing file is an InputError naming the path and both ways to name a model', async () => {
    const err = await createProvider(parseModelSpec('gguf:./no/such/model.gguf')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    const message = (err as Error).message;
    expect(message).toContain(join(process.cwd(), 'no/such/model.gguf'));
    expect(message).toContain('gguf:hf:OWNER/REPO/FILE.gguf');
    expect(message).toContain('local path');
  });

  it('gguf: an invalid hf: URI is an InputError', async () => {
    await expect(createProvider(parseModelSpec('gguf:hf:owner/repo:Q4_K_M'))).rejects.toThrow(InputError);
  });
});

/** A provider a library user might register: it answers with the model name it was given. */
const echoFactory: ProviderFactory = async (spec, opts) => ({
  provider: spec.provider,
  modelId: spec.model,
  identity: `${spec.provider}:${spec.model}@${spec.baseURL ?? opts.env?.ECHO_BASE ?? 'none'}`,
  capabilities: CHAT_ONLY_CAPABILITIES,
  generate: async () => ({
    text: spec.model,
    finishReason: 'stop',
    usage: { inputTokens: 1, outputTokens: 1 },
  }),
});

describe('registerProvider', () => {
  it('makes PREFIX:MODEL a spec the parser, the config schema and createProvider accept, until it is removed', async () => {
    expect(() => parseModelSpec('echo:m1')).toThrow(
      /unknown model provider in 'echo:m1': expected one of openai:/,
    );
    const unregister = registerProvider('echo', echoFactory);
    try {
      const spec = parseModelSpec('echo:m1@http://127.0.0.1:9/v1');
      expect(spec).toMatchObject({ provider: 'echo', model: 'm1', baseURL: 'http://127.0.0.1:9/v1' });
      expect(toModelSpec({ provider: 'echo', model: 'm2' }).provider).toBe('echo');
      expect(() => parseModelSpec('nope:x')).toThrow(
        /expected one of openai:, anthropic:, gguf:, replay:, echo:/,
      );
      const p = await createProvider(spec, { env: { ECHO_BASE: 'ignored' } });
      expect(p.identity).toBe('echo:m1@http://127.0.0.1:9/v1');
      expect((await p.generate({ messages: [] })).text).toBe('m1');
      // The env the run was given reaches the factory.
      expect(
        (await createProvider(toModelSpec('echo:m3'), { env: { ECHO_BASE: 'from-env' } })).identity,
      ).toBe('echo:m3@from-env');
    } finally {
      unregister();
    }
    expect(() => parseModelSpec('echo:m1')).toThrow(InputError);
    expect(() => toModelSpec({ provider: 'echo', model: 'm2' })).toThrow(/unknown model provider 'echo'/);
    await expect(createProvider({ provider: 'echo', model: 'm1', chatTemplate: 'auto' })).rejects.toThrow(
      /unknown model provider 'echo'/,
    );
  });

  it('refuses a built-in prefix, a prefix taken already and one a spec string cannot name', () => {
    expect(() => registerProvider('openai', echoFactory)).toThrow(/'openai' is taken \(built in\)/);
    const unregister = registerProvider('echo', echoFactory);
    try {
      expect(() => registerProvider('echo', echoFactory)).toThrow(/registered already/);
    } finally {
      unregister();
    }
    for (const bad of ['', 'Echo', 'my:co', '9x'])
      expect(() => registerProvider(bad, echoFactory)).toThrow(TypeError);
  });

  it('refuses what a factory returns without an identity (it keys the stored answers)', async () => {
    const unregister = registerProvider('blank', async (spec, opts) => ({
      ...(await echoFactory(spec, opts)),
      identity: '',
    }));
    try {
      await expect(createProvider(parseModelSpec('blank:x'))).rejects.toThrow(
        /returned no provider with an identity/,
      );
    } finally {
      unregister();
    }
  });
});

describe.skipIf(tinyModelMissing)(`createProvider with the tiny model ${tinyModelMissing ?? ''}`, () => {
  it('gguf: a path relative to the current directory loads and generates', async () => {
    const rel = relative(process.cwd(), tinyModelPath as string);
    const p = await createProvider({ ...parseModelSpec(`gguf:${rel}`), contextSize: 256 });
    try {
      expect(p.provider).toBe('gguf');
      expect(p.identity).toContain('ctx=256');
      const out = await p.generate({
        messages: [{ role: 'user', content: 'Once upon a time' }],
        maxTokens: 8,
      });
      expect(out.text.length).toBeGreaterThan(0);
    } finally {
      await p.close?.();
    }
  });

  it('gguf:FILE?ctx=4096 answers a prompt longer than the default 2,048-token context, whose error says how', async () => {
    const rel = relative(process.cwd(), tinyModelPath as string);
    const long = {
      messages: [{ role: 'user' as const, content: 'Once upon a time '.repeat(600) }],
      maxTokens: 8,
    };
    const small = await createProvider(parseModelSpec(`gguf:${rel}`));
    try {
      const error = await small.generate(long).catch((e: unknown) => e);
      expect((error as Error).message).toMatch(
        /^the prompt \((\d+) tokens\) plus one generated token needs \d+ tokens but the context holds 2048; raise the context with \?ctx=4096 on the model spec/,
      );
    } finally {
      await small.close?.();
    }
    const big = await createProvider(parseModelSpec(`gguf:${rel}?ctx=4096&template=raw`));
    try {
      expect(big.identity).toMatch(/\?template=raw&ctx=4096$/);
      const out = await big.generate(long);
      expect(out.usage.inputTokens).toBeGreaterThan(2048);
      expect(out.usage.outputTokens).toBe(8);
      expect(out.text.length).toBeGreaterThan(0);
    } finally {
      await big.close?.();
    }
  });

  it('gguf: settings in the query and in the object form give the same provider identity', async () => {
    const rel = relative(process.cwd(), tinyModelPath as string);
    const fromQuery = await createProvider(parseModelSpec(`gguf:${rel}?ctx=512`));
    const fromObject = await createProvider(toModelSpec({ provider: 'gguf', model: rel, contextSize: 512 }));
    const plain = await createProvider(parseModelSpec(`gguf:${rel}`));
    try {
      expect(fromQuery.identity).toBe(fromObject.identity);
      // Unchanged settings keep the identity (and so every stored answer) of before.
      expect(plain.identity).toMatch(/^gguf:stories260K\.gguf#[0-9a-f]{12}\?template=raw&ctx=2048$/);
    } finally {
      await Promise.all([fromQuery.close?.(), fromObject.close?.(), plain.close?.()]);
    }
  });

  it('gguf:hf: is downloaded into the cache (with progress) and then loaded', async () => {
    const model = readFileSync(tinyModelPath as string);
    const sha = createHash('sha256').update(model).digest('hex');
    const hub = await startLoopback((_req, res, seen) => {
      if (seen.url !== '/o/r/resolve/main/stories260K.gguf') {
        res.writeHead(404);
        res.end();
        return;
      }
      res.writeHead(200, { 'content-length': model.length, 'x-linked-etag': `"${sha}"` });
      res.end(model);
    });
    try {
      const progress: number[] = [];
      const spec = parseModelSpec(`gguf:hf:o/r/stories260K.gguf#sha256=${sha}`);
      const p = await createProvider(spec, {
        env: { HF_ENDPOINT: hub.origin },
        cacheDir: join(dir, 'models'),
        onDownloadProgress: ({ received }) => progress.push(received),
      });
      try {
        expect(p.provider).toBe('gguf');
        expect(p.modelId).toContain(join(dir, 'models', 'o', 'r', 'stories260K.gguf'));
        expect(progress.at(-1)).toBe(model.length);
        expect(hub.requests).toHaveLength(1);
      } finally {
        await p.close?.();
      }
    } finally {
      await hub.close();
    }
  });
});
