import type { Token } from 'node-llama-cpp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cosine } from '../test-support/models/layer-states.js';
import { sharedFile, tinyModelMissing, tinyModelPath } from '../test-support/shared.js';
import { ProviderError } from './errors.js';
import { createGgufProvider, type GgufProvider } from './gguf.js';
import { createPromptFormat, tokenizePrompt } from './gguf-prompt.js';
import { sampleToken, seededRandom } from './gguf-sampling.js';
import { acquireModel, modelFingerprint } from './llama.js';
import type { ChatMessage, GenerateRequest } from './types.js';

const user = (content: string): ChatMessage[] => [{ role: 'user', content }];
const VOCAB = 512; // stories260K

describe.skipIf(!tinyModelPath)(`gguf provider on the tiny model ${tinyModelMissing ?? ''}`, () => {
  let provider: GgufProvider;
  beforeAll(async () => {
    provider = await createGgufProvider({ modelPath: tinyModelPath as string, chatTemplate: 'auto' });
  });
  afterAll(async () => {
    await provider?.close();
  });

  it('names itself by file, content hash, template and context, and declares every capability', async () => {
    expect(provider.identity).toMatch(/^gguf:stories260K\.gguf#[0-9a-f]{12}\?template=raw&ctx=2048$/);
    expect(provider.identity).toContain(await modelFingerprint(tinyModelPath as string));
    expect(provider.chatTemplate).toBe('raw'); // auto, and the model has no template
    expect(provider.contextSize).toBe(2048); // the GGUF's training context (under the 4096 cap)
    expect(provider.capabilities).toEqual({
      chat: true,
      tokenLogprobs: true,
      topLogprobs: 20,
      fullDistribution: true,
      scoreContinuation: true,
      embeddings: true,
      // Every layer's hidden state where the patched addon is built (src/models/gguf-layers.test.ts).
      hiddenLayers: expect.any(Boolean),
    });
  });

  it('generates greedily and deterministically: the same request twice gives identical text and log-probs', async () => {
    const request: GenerateRequest = {
      messages: user('Once upon a time'),
      maxTokens: 48,
      logprobs: true,
      topLogprobs: 3,
    };
    const a = await provider.generate(request);
    const b = await provider.generate(request);
    expect(a.text.startsWith(', there was a little girl named Lily')).toBe(true);
    expect(b).toEqual(a);
    expect(a.tokens).toHaveLength(48);
    expect(a.tokens?.map((t) => t.token).join('')).toBe(a.text);
  });

  it('reports log-probs and entropy from the full distribution, consistent with each other', async () => {
    const r = await provider.generate({
      messages: user('The cat'),
      maxTokens: 40,
      logprobs: true,
      topLogprobs: 20,
    });
    expect(r.tokens).toHaveLength(40);
    for (const t of r.tokens ?? []) {
      const top = t.top ?? [];
      expect(top).toHaveLength(20);
      // Greedy: the chosen token is the most likely one, and its log-prob is the top one's.
      expect(top[0]?.logprob).toBe(t.logprob);
      for (let i = 1; i < top.length; i++)
        expect(top[i]?.logprob).toBeLessThanOrEqual(top[i - 1]?.logprob as number);
      expect(t.logprob).toBeLessThanOrEqual(0);
      const entropy = t.entropy as number;
      expect(entropy).toBeGreaterThanOrEqual(0);
      expect(entropy).toBeLessThanOrEqual(Math.log(VOCAB) + 1e-9);
      // Shannon entropy is at least the min-entropy -ln(max p).
      expect(entropy).toBeGreaterThanOrEqual(-t.logprob - 1e-6);
      // The top-20 mass cannot exceed 1.
      expect(top.reduce((sum, x) => sum + Math.exp(x.logprob), 0)).toBeLessThanOrEqual(1 + 1e-6);
    }
  });

  it("reads each token's entry from the distribution llama.cpp gave at that very position, greedy and sampled", async () => {
    // The reference: node-llama-cpp's own loop on a context with the provider's settings, every
    // number computed the plain way (normalise, then -Σ q ln q; top k by sorting).
    const { model, release } = await acquireModel(tinyModelPath as string);
    const context = await model.createContext({
      contextSize: provider.contextSize,
      threads: 1,
      flashAttention: false,
      experimentalKvCacheKeyType: 'F32',
      experimentalKvCacheValueType: 'F32',
    });
    try {
      const sequence = context.getSequence();
      for (const sampling of [{ temperature: 0 }, { temperature: 1.2, topP: 0.95, seed: 7 }]) {
        const request: GenerateRequest = {
          messages: user('The cat'),
          maxTokens: 40,
          logprobs: true,
          topLogprobs: 5,
          ...sampling,
        };
        const got = (await provider.generate(request)).tokens ?? [];
        expect(got).toHaveLength(40);
        const random = sampling.temperature > 0 ? seededRandom(sampling.seed as number) : undefined;
        // Greedy entries read through the patched addon agree with the public route's to ~1e-7
        // (docs/decisions.md E30); the public route's own arithmetic is checked to 12 digits.
        const digits = provider.nativeLogits && !random ? 6 : 12;
        await sequence.clearHistory();
        const prompt = provider.renderPrompt(request).tokens;
        const iterator = sequence.evaluateWithMetadata(prompt, { probabilities: true }, { temperature: 0 });
        let step = await iterator.next();
        for (const [i, entry] of got.entries()) {
          const probabilities = step.value?.probabilities as Map<Token, number>;
          const token = random
            ? (sampleToken(probabilities, sampling.temperature, sampling.topP as number, random) as Token)
            : (step.value?.token as Token);
          const ps = [...probabilities.values()].filter((p) => p > 0);
          const sum = ps.reduce((acc, p) => acc + p, 0);
          const entropy = -ps.reduce((acc, p) => acc + (p / sum) * Math.log(p / sum), 0);
          const top = [...probabilities.entries()].sort((a, b) => b[1] - a[1]).slice(0, 5);
          expect(entry.logprob, `token ${i}`).toBeCloseTo(
            Math.log((probabilities.get(token) as number) / sum),
            digits,
          );
          expect(entry.entropy, `token ${i}`).toBeCloseTo(entropy, digits);
          expect(entry.top?.map((t) => t.logprob)).toEqual(
            top.map(([, p]) => expect.closeTo(Math.log(p / sum), digits)),
          );
          step = await iterator.next(token);
        }
        await iterator.return();
      }
    } finally {
      await context.dispose();
      await release();
    }
  });

  it('scores its own greedy output (teacher forcing) to the sum of its generation log-probs within 1e-4', async () => {
    for (const prompt of ['Once upon a time', 'Tom and Sue went to the shop.', 'The sun was hot']) {
      const g = await provider.generate({ messages: user(prompt), maxTokens: 60, logprobs: true });
      const s = await provider.score({ messages: user(prompt), continuation: g.text });
      const sum = (g.tokens ?? []).reduce((acc, t) => acc + t.logprob, 0);
      expect(s.tokens.map((t) => t.token)).toEqual(g.tokens?.map((t) => t.token));
      expect(Math.abs(s.logprob - sum)).toBeLessThan(1e-4);
      expect(s.logprob).toBeCloseTo(
        s.tokens.reduce((acc, t) => acc + t.logprob, 0),
        9,
      );
      for (const [i, t] of s.tokens.entries())
        expect(Math.abs((t.entropy as number) - (g.tokens?.[i]?.entropy as number))).toBeLessThan(1e-4);
    }
  });

  it('scores an unlikely continuation lower than the likely one, and an empty one as 0', async () => {
    const likely = await provider.score({
      messages: user('Once upon a time'),
      continuation: ', there was a little girl',
    });
    const unlikely = await provider.score({
      messages: user('Once upon a time'),
      continuation: ' purple theorem quantum',
    });
    expect(likely.logprob).toBeGreaterThan(unlikely.logprob);
    expect(await provider.score({ messages: user('Once upon a time'), continuation: '' })).toEqual({
      logprob: 0,
      tokens: [],
    });
  });

  it('stops at a stop string (cut before it) and at maxTokens (finish reason length)', async () => {
    const full = await provider.generate({
      messages: user('Once upon a time'),
      maxTokens: 40,
      logprobs: true,
    });
    const cut = full.text.indexOf(' named');
    expect(cut).toBeGreaterThan(0);
    const stopped = await provider.generate({
      messages: user('Once upon a time'),
      maxTokens: 40,
      stop: [' named', 'zzz'],
      logprobs: true,
    });
    expect(stopped.text).toBe(full.text.slice(0, cut));
    expect(stopped.finishReason).toBe('stop');
    expect(stopped.tokens?.map((t) => t.token).join('')).toBe(stopped.text);

    const short = await provider.generate({ messages: user('Once upon a time'), maxTokens: 5 });
    expect(short.finishReason).toBe('length');
    expect(short.usage).toEqual({ inputTokens: 5, outputTokens: 5 });
    expect(short.tokens).toBeUndefined(); // log-probs only when asked
    expect(full.text.startsWith(short.text)).toBe(true);
  });

  it('samples at temperature > 0 reproducibly from the seed, keeping the untempered log-probs', async () => {
    const request = (seed: number): GenerateRequest => ({
      messages: user('Once upon a time'),
      maxTokens: 30,
      temperature: 1.2,
      topP: 0.95,
      seed,
      logprobs: true,
      topLogprobs: 1,
    });
    const a = await provider.generate(request(7));
    expect(await provider.generate(request(7))).toEqual(a);
    const texts = new Set<string>();
    for (const seed of [1, 2, 3, 4, 5]) texts.add((await provider.generate(request(seed))).text);
    expect(texts.size).toBeGreaterThan(1);
    // Sampled tokens are not always the most likely one; their log-probs are the model's own.
    const sampled = a.tokens ?? [];
    expect(sampled.some((t) => t.logprob < (t.top?.[0]?.logprob as number))).toBe(true);
    for (const t of sampled) expect(t.logprob).toBeLessThanOrEqual(t.top?.[0]?.logprob as number);
  });

  it('embeds with the model width; identical texts have cosine 1, different ones less', async () => {
    const { embeddings, usage } = await provider.embed({
      input: ['a red ball', 'a red ball', 'the dog ran home'],
    });
    expect(embeddings).toHaveLength(3);
    for (const v of embeddings) expect(v).toHaveLength(64);
    expect(cosine(embeddings[0] as number[], embeddings[1] as number[])).toBeCloseTo(1, 12);
    expect(cosine(embeddings[0] as number[], embeddings[2] as number[])).toBeLessThan(0.999);
    expect(usage?.inputTokens).toBeGreaterThan(0);
    await expect(provider.embed({ input: [''] })).rejects.toMatchObject({ kind: 'client' });
  });

  it('raw template: message contents joined by blank lines, no role markers, no system prompt added', async () => {
    const messages: ChatMessage[] = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Once upon a time' },
    ];
    const rendered = provider.renderPrompt({ messages });
    expect(rendered.text).toBe('<s> Be brief.\n\nOnce upon a time');
    expect(rendered.tokens).toEqual([1, ...(await tokensOf('Be brief.\n\nOnce upon a time'))]);
    // A single user message is exactly the raw prompt.
    expect(provider.renderPrompt({ messages: user('Hello') }).tokens).toEqual(
      provider.renderPrompt({ messages: [], rawPrompt: 'Hello' }).tokens,
    );
    expect(await provider.generate({ messages: [], rawPrompt: 'Once upon a time', maxTokens: 10 })).toEqual(
      await provider.generate({ messages: user('Once upon a time'), maxTokens: 10 }),
    );
  });

  it('counts tokens locally', async () => {
    expect(await provider.countTokens('Once upon a time')).toBe(4);
  });

  it('rejects bad requests as client errors', async () => {
    const bad: GenerateRequest[] = [
      { messages: [] },
      { messages: user('x'), temperature: -1 },
      { messages: user('x'), maxTokens: 0 },
      { messages: user('x'), topP: 0 },
      { messages: user('x'), topLogprobs: 21 },
      { messages: user('x'), stop: [''] },
      { messages: [{ role: 'tool' as 'user', content: 'x' }] },
    ];
    for (const request of bad)
      await expect(provider.generate(request)).rejects.toMatchObject({ kind: 'client' });
  });

  it('serves concurrent generate, score and embed calls with the same answers as sequential ones', async () => {
    const prompts = [
      'Once upon a time',
      'The cat',
      'Lily had a red ball.',
      'One day, a bird',
      'Max the dog',
      'Tom said',
    ];
    const calls = prompts.flatMap((p) => [
      () => provider.generate({ messages: user(p), maxTokens: 40, logprobs: true, topLogprobs: 2 }),
      () => provider.score({ messages: user(p), continuation: ' and the sun was warm.' }),
      () => provider.embed({ input: [p] }),
    ]);
    const sequential: unknown[] = [];
    for (const call of calls) sequential.push(await call());
    const concurrent = await Promise.all(calls.map((call) => call()));
    expect(concurrent).toEqual(sequential);
  });

  it('aborts on a signal', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stop now'));
    await expect(provider.generate({ messages: user('x') }, { signal: controller.signal })).rejects.toThrow(
      'stop now',
    );
  });

  it('streams deltas that spell exactly what generate returns, stop strings included', async () => {
    const requests: GenerateRequest[] = [
      { messages: user('Once upon a time'), maxTokens: 60, logprobs: true, topLogprobs: 2 },
      // Stops that start matching several times before they match (or never do): nothing sent is taken back.
      { messages: user('Once upon a time'), maxTokens: 60, stop: [' named', 'Lily loved'], logprobs: true },
      { messages: user('The cat'), maxTokens: 80, stop: ['.'] },
      {
        messages: [],
        rawPrompt: 'One day, a bird',
        maxTokens: 40,
        logprobs: true,
        temperature: 0.8,
        seed: 3,
      },
    ];
    for (const request of requests) {
      const direct = await provider.generate(request);
      if (request.stop) expect(direct.finishReason).toBe('stop');
      const deltas: { text: string; tokens: unknown[] }[] = [];
      let done: unknown;
      for await (const event of provider.stream(request)) {
        if (event.type === 'delta') deltas.push(event);
        else done = event.result;
      }
      expect(done).toEqual(direct);
      expect(deltas.map((d) => d.text).join('')).toBe(direct.text);
      expect(deltas.flatMap((d) => d.tokens)).toEqual(direct.tokens ?? []);
      expect(deltas.length).toBeGreaterThan(1);
    }
  });

  it('a stream whose reader stops early ends its generation; bad requests fail on the first read', async () => {
    const t0 = performance.now();
    let seen = 0;
    for await (const event of provider.stream({ messages: user('Once upon a time'), maxTokens: 2000 })) {
      if (event.type === 'delta' && ++seen === 3) break;
    }
    // The sequence is free again at once: a short request is not queued behind 2,000 tokens.
    const after = await provider.generate({ messages: user('The cat'), maxTokens: 4 });
    expect(after.usage.outputTokens).toBe(4);
    expect(performance.now() - t0).toBeLessThan(1000);
    const read = async (request: GenerateRequest, signal?: AbortSignal) => {
      for await (const _ of provider.stream(request, { signal })) {
        // drain
      }
    };
    await expect(read({ messages: [] })).rejects.toMatchObject({ kind: 'client' });
    const controller = new AbortController();
    controller.abort(new Error('stop now'));
    await expect(read({ messages: user('x') }, controller.signal)).rejects.toThrow('stop now');
  });

  async function tokensOf(text: string): Promise<number[]> {
    const lease = await acquireModel(tinyModelPath as string);
    try {
      return lease.model.tokenize(text, false);
    } finally {
      await lease.release();
    }
  }
});

describe.skipIf(!tinyModelPath)(`gguf provider settings and errors ${tinyModelMissing ?? ''}`, () => {
  it('a missing file is a clear client error naming the path', async () => {
    const error = await createGgufProvider({ modelPath: 'no/such/model.gguf' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).kind).toBe('client');
    expect((error as ProviderError).message).toContain('no/such/model.gguf');
  });

  it("chatTemplate 'model' on a model without a template is a clear error", async () => {
    await expect(
      createGgufProvider({ modelPath: tinyModelPath as string, chatTemplate: 'model' }),
    ).rejects.toThrow(/has no chat template/);
  });

  it('respects contextSize: a prompt that does not fit is a client error; generation stops at the edge', async () => {
    const small = await createGgufProvider({ modelPath: tinyModelPath as string, contextSize: 32 });
    try {
      expect(small.identity).toMatch(/&ctx=32$/);
      const error = await small
        .generate({ messages: user('Once upon a time '.repeat(20)) })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ kind: 'client' });
      expect((error as Error).message).toMatch(/context holds 32/);
      // It says how to raise it: a context that holds the prompt and the whole answer.
      expect((error as Error).message).toMatch(/\(\d+ tokens\).*\?ctx=512 .*contextSize: 512/);
      await expect(
        small.score({ messages: user('Once upon a time'), continuation: ' the end'.repeat(20) }),
      ).rejects.toMatchObject({
        kind: 'client',
      });
      const r = await small.generate({ messages: user('Once upon a time'), maxTokens: 100 });
      expect(r.finishReason).toBe('length');
      expect(r.usage.inputTokens + r.usage.outputTokens).toBeLessThanOrEqual(32);
    } finally {
      await small.close();
    }
    await expect(small.generate({ messages: user('x') })).rejects.toThrow(/closed/);
  });

  it('two providers on one file share the model and both keep working after one closes', async () => {
    const a = await createGgufProvider({ modelPath: tinyModelPath as string });
    const b = await createGgufProvider({ modelPath: tinyModelPath as string, contextSize: 256 });
    const before = await b.generate({ messages: user('The cat'), maxTokens: 8 });
    await a.close();
    expect(await b.generate({ messages: user('The cat'), maxTokens: 8 })).toEqual(before);
    await b.close();
  });

  const otherModel = sharedFile('models/llama-2-tiny-random.gguf');
  it.skipIf(!otherModel)(
    'files with different contents get different fingerprints (cached per process)',
    async () => {
      const a = await modelFingerprint(tinyModelPath as string);
      const b = await modelFingerprint(otherModel as string);
      expect(a).not.toBe(b);
      expect(await modelFingerprint(tinyModelPath as string)).toBe(a);
    },
  );

  it("a model's Jinja template is used as is, with no default system prompt", async () => {
    const lease = await acquireModel(tinyModelPath as string);
    try {
      const chatml =
        "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>\\n'}}{% endfor %}" +
        "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";
      const format = createPromptFormat(lease.model, 'auto', 'test', chatml);
      expect(format.mode).toBe('model');
      expect(format.templateHash).toMatch(/^[0-9a-f]{8}$/);
      // Special-token parts stay apart from the user's text; nothing but the template's own markup is added.
      expect(format.render([{ role: 'user', content: 'Hi' }]).toJSON()).toEqual([
        { type: 'specialTokensText', value: '<|im_start|>user\n' },
        'Hi',
        { type: 'specialTokensText', value: '<|im_end|>\n<|im_start|>assistant\n' },
      ]);
      const withSystem = format.render([
        { role: 'system', content: 'S' },
        { role: 'user', content: 'U' },
      ]);
      expect(withSystem.toString()).toBe(
        '<|im_start|>system\nS<|im_end|>\n<|im_start|>user\nU<|im_end|>\n<|im_start|>assistant\n',
      );
      expect(tokenizePrompt(lease.model, withSystem)[0]).toBe(1); // BOS once
      expect(createPromptFormat(lease.model, 'raw', 'test', chatml).mode).toBe('raw');
    } finally {
      await lease.release();
    }
  });
});
