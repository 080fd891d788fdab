import { request as httpRequest } from 'node:http';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InputError } from '../errors.js';
import { isLoopbackHost } from '../http/request-origin.js';
import { createGgufProvider, type GgufProvider } from '../models/gguf.js';
import { ScriptedProvider, steps } from '../test-support/scripted-provider.js';
import { tinyModelMissing, tinyModelPath } from '../test-support/shared.js';
import { type OpenAIServer, startOpenAIServer } from './openai-server.js';

const post = (url: string, body: unknown, init: RequestInit = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...init,
  });

/** A response body as loosely typed JSON: the tests check its shape field by field. */
// biome-ignore lint/suspicious/noExplicitAny: arbitrary JSON under test
const json = async (res: Response): Promise<any> => res.json();

/** Reads an SSE response into its `data:` payloads. */
async function sse(res: Response): Promise<string[]> {
  const text = await res.text();
  return text
    .split('\n\n')
    .filter((frame) => frame.startsWith('data: '))
    .map((frame) => frame.slice('data: '.length));
}

/**
 * Reads an SSE response as it arrives: its `data:` payloads, and when the first chunk with answer
 * text came and when the stream ended (ms from `t0`).
 */
async function timedSse(
  res: Response,
  t0: number,
): Promise<{ frames: string[]; firstText: number; end: number }> {
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const frames: string[] = [];
  let buffer = '';
  let firstText = Number.NaN;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    const parts = buffer.split('\n\n');
    buffer = parts.pop() ?? '';
    for (const frame of parts) {
      if (!frame.startsWith('data: ')) continue;
      const data = frame.slice('data: '.length);
      frames.push(data);
      if (Number.isNaN(firstText) && data !== '[DONE]' && JSON.parse(data).choices[0]?.delta?.content)
        firstText = performance.now() - t0;
    }
  }
  return { frames, firstText, end: performance.now() - t0 };
}

describe.skipIf(!tinyModelPath)(
  `OpenAI-compatible server over the tiny model ${tinyModelMissing ?? ''}`,
  () => {
    let provider: GgufProvider;
    let server: OpenAIServer;
    const logLines: string[] = [];
    beforeAll(async () => {
      provider = await createGgufProvider({ modelPath: tinyModelPath as string });
      server = await startOpenAIServer({ provider, modelName: 'tiny', log: (line) => logLines.push(line) });
    });
    afterAll(async () => {
      await server?.close();
      await provider?.close();
    });

    it('binds 127.0.0.1 on a free port by default and lists the model', async () => {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      expect(server.port).toBeGreaterThan(0);
      const res = await fetch(`${server.url}/models`);
      expect(res.status).toBe(200);
      const body = await json(res);
      expect(body).toEqual({
        object: 'list',
        data: [{ id: 'tiny', object: 'model', created: expect.any(Number), owned_by: 'waver' }],
      });
      expect((await fetch(`${server.url}/models/tiny`)).status).toBe(200);
      const missing = await fetch(`${server.url}/models/other`);
      expect(missing.status).toBe(404);
      expect((await json(missing)).error.code).toBe('model_not_found');
    });

    it('chat completions: OpenAI shape, with log-probs equal to the provider’s own', async () => {
      const res = await post(`${server.url}/chat/completions`, {
        model: 'tiny',
        messages: [{ role: 'user', content: 'Once upon a time' }],
        max_tokens: 24,
        logprobs: true,
        top_logprobs: 3,
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('application/json');
      const body = await json(res);
      const direct = await provider.generate({
        messages: [{ role: 'user', content: 'Once upon a time' }],
        maxTokens: 24,
        logprobs: true,
        topLogprobs: 3,
      });
      expect(body).toMatchObject({
        id: expect.stringMatching(/^chatcmpl-/),
        object: 'chat.completion',
        created: expect.any(Number),
        model: 'tiny',
        system_fingerprint: expect.stringMatching(/^fp_/),
        choices: [
          { index: 0, message: { role: 'assistant', content: direct.text }, finish_reason: 'length' },
        ],
        usage: { prompt_tokens: 5, completion_tokens: 24, total_tokens: 29 },
      });
      const content = body.choices[0].logprobs.content;
      expect(content).toHaveLength(24);
      for (const [i, entry] of content.entries()) {
        const own = direct.tokens?.[i];
        expect(entry.token).toBe(own?.token);
        expect(entry.logprob).toBe(own?.logprob);
        expect(entry.bytes).toEqual([...Buffer.from(own?.token ?? '', 'utf8')]);
        expect(entry.top_logprobs).toHaveLength(3);
        expect(entry.top_logprobs[0]).toEqual({
          token: own?.top?.[0]?.token,
          logprob: own?.top?.[0]?.logprob,
          bytes: [...Buffer.from(own?.top?.[0]?.token ?? '', 'utf8')],
        });
      }
      // Without logprobs asked: logprobs null, same text.
      const plain = await json(
        await post(`${server.url}/chat/completions`, {
          messages: [{ role: 'user', content: 'Once upon a time' }],
          max_tokens: 24,
        }),
      );
      expect(plain.choices[0].logprobs).toBeNull();
      expect(plain.choices[0].message.content).toBe(direct.text);
    });

    it('chat completions honour stop, max_completion_tokens and developer/array content', async () => {
      const body = await json(
        await post(`${server.url}/chat/completions`, {
          messages: [{ role: 'developer', content: [{ type: 'text', text: 'Once upon a time' }] }],
          max_completion_tokens: 40,
          stop: ' named',
        }),
      );
      expect(body.choices[0].finish_reason).toBe('stop');
      expect(body.choices[0].message.content).toBe(', there was a little girl');
    });

    it('chat completions stream as SSE chunks ending with [DONE], spelling the same text and log-probs', async () => {
      const res = await post(`${server.url}/chat/completions`, {
        messages: [{ role: 'user', content: 'The cat' }],
        max_tokens: 12,
        logprobs: true,
        stream: true,
        stream_options: { include_usage: true },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/event-stream');
      const frames = await sse(res);
      expect(frames.at(-1)).toBe('[DONE]');
      const chunks = frames.slice(0, -1).map((f) => JSON.parse(f));
      const ids = new Set(chunks.map((c) => c.id));
      expect(ids.size).toBe(1);
      for (const c of chunks) expect(c.object).toBe('chat.completion.chunk');
      expect(chunks[0].choices[0].delta.role).toBe('assistant');
      const text = chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
      const direct = await provider.generate({
        messages: [{ role: 'user', content: 'The cat' }],
        maxTokens: 12,
        logprobs: true,
      });
      expect(text).toBe(direct.text);
      const streamed = chunks
        .flatMap((c) => c.choices[0]?.logprobs?.content ?? [])
        .map((e: { logprob: number }) => e.logprob);
      expect(streamed).toEqual(direct.tokens?.map((t) => t.logprob));
      expect(chunks.at(-2).choices[0].finish_reason).toBe('length');
      expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { completion_tokens: 12 } });
    });

    it('streams tokens as they are produced: the first text arrives long before the end', async () => {
      const request = {
        messages: [{ role: 'user', content: 'Once upon a time' }],
        max_tokens: 1500,
        logprobs: true,
        top_logprobs: 2,
      };
      const t0 = performance.now();
      const res = await post(`${server.url}/chat/completions`, { ...request, stream: true });
      const { frames, firstText, end } = await timedSse(res, t0);
      const chunks = frames.slice(0, -1).map((f) => JSON.parse(f));
      const whole = await json(await post(`${server.url}/chat/completions`, request));
      expect(whole.usage.completion_tokens).toBeGreaterThan(1000);
      // Streamed at temperature 0: the deltas spell the whole answer, and their log-probs are its log-probs.
      expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe(
        whole.choices[0].message.content,
      );
      expect(chunks.flatMap((c) => c.choices[0]?.logprobs?.content ?? [])).toEqual(
        whole.choices[0].logprobs.content,
      );
      expect(chunks.length).toBeGreaterThan(100);
      expect(firstText, `first text after ${Math.round(firstText)} ms of ${Math.round(end)} ms`).toBeLessThan(
        end / 3,
      );
    });

    it('a client that disconnects mid-stream stops the generation', async () => {
      const controller = new AbortController();
      const res = await post(
        `${server.url}/chat/completions`,
        { messages: [{ role: 'user', content: 'Once upon a time' }], max_tokens: 2000, stream: true },
        { signal: controller.signal },
      );
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      await reader.read();
      controller.abort();
      // One sequence serves every request: this one is answered at once only if that generation ended.
      const t0 = performance.now();
      const next = await json(
        await post(`${server.url}/chat/completions`, {
          messages: [{ role: 'user', content: 'The cat' }],
          max_tokens: 4,
        }),
      );
      expect(next.usage.completion_tokens).toBe(4);
      expect(performance.now() - t0).toBeLessThan(1000);
    });

    it('completions take a raw prompt (no template) and return legacy log-probs', async () => {
      const res = await post(`${server.url}/completions`, {
        prompt: 'Once upon a time',
        max_tokens: 10,
        logprobs: 2,
      });
      expect(res.status).toBe(200);
      const body = await json(res);
      const direct = await provider.generate({
        messages: [],
        rawPrompt: 'Once upon a time',
        maxTokens: 10,
        logprobs: true,
        topLogprobs: 2,
      });
      expect(body).toMatchObject({
        id: expect.stringMatching(/^cmpl-/),
        object: 'text_completion',
        model: 'tiny',
        choices: [{ index: 0, text: direct.text, finish_reason: 'length' }],
        usage: { prompt_tokens: 5, completion_tokens: 10, total_tokens: 15 },
      });
      const lp = body.choices[0].logprobs;
      expect(lp.tokens).toEqual(direct.tokens?.map((t) => t.token));
      expect(lp.token_logprobs).toEqual(direct.tokens?.map((t) => t.logprob));
      expect(lp.top_logprobs).toHaveLength(10);
      expect(Object.keys(lp.top_logprobs[0]).length).toBeLessThanOrEqual(2);
      expect(lp.text_offset[0]).toBe('Once upon a time'.length);
      expect(lp.text_offset[1]).toBe('Once upon a time'.length + (lp.tokens[0] as string).length);
      // OpenAI's default max_tokens for completions is 16.
      const dflt = await json(await post(`${server.url}/completions`, { prompt: 'Once upon a time' }));
      expect(dflt.usage.completion_tokens).toBe(16);
      expect(dflt.choices[0].logprobs).toBeNull();
    });

    it('completions stream too', async () => {
      const frames = await sse(
        await post(`${server.url}/completions`, { prompt: 'The cat', max_tokens: 8, stream: true }),
      );
      expect(frames.at(-1)).toBe('[DONE]');
      const chunks = frames.slice(0, -1).map((f) => JSON.parse(f));
      const direct = await provider.generate({ messages: [], rawPrompt: 'The cat', maxTokens: 8 });
      expect(chunks.map((c) => c.choices[0].text).join('')).toBe(direct.text);
      expect(chunks.at(-1).choices[0].finish_reason).toBe('length');
      // With log-probs and usage: the chunks' legacy log-probs join into the whole response's.
      const request = { prompt: 'Once upon a time', max_tokens: 40, logprobs: 2, stop: ' named' };
      const streamed = (
        await sse(
          await post(`${server.url}/completions`, {
            ...request,
            stream: true,
            stream_options: { include_usage: true },
          }),
        )
      )
        .slice(0, -1)
        .map((f) => JSON.parse(f));
      const whole = await json(await post(`${server.url}/completions`, request));
      const pieces = streamed.flatMap((c) => c.choices).filter((c) => c.logprobs);
      const joined = (key: string) => pieces.flatMap((c) => c.logprobs[key]);
      expect(pieces.map((c) => c.text).join('')).toBe(whole.choices[0].text);
      for (const key of ['tokens', 'token_logprobs', 'top_logprobs', 'text_offset'])
        expect(joined(key), key).toEqual(whole.choices[0].logprobs[key]);
      expect(streamed.at(-2).choices[0].finish_reason).toBe('stop');
      expect(streamed.at(-1)).toMatchObject({ choices: [], usage: whole.usage });
    });

    it('embeddings: OpenAI shape for a string and a list, float and base64', async () => {
      const one = await json(await post(`${server.url}/embeddings`, { model: 'tiny', input: 'a red ball' }));
      expect(one).toMatchObject({
        object: 'list',
        model: 'tiny',
        usage: { prompt_tokens: expect.any(Number) },
      });
      expect(one.data).toHaveLength(1);
      expect(one.data[0]).toMatchObject({ object: 'embedding', index: 0 });
      expect(one.data[0].embedding).toHaveLength(64);
      const direct = await provider.embed({ input: ['a red ball'] });
      expect(one.data[0].embedding).toEqual(direct.embeddings[0]);

      const many = await json(
        await post(`${server.url}/embeddings`, {
          input: ['a red ball', 'the dog'],
          encoding_format: 'base64',
        }),
      );
      expect(many.data.map((d: { index: number }) => d.index)).toEqual([0, 1]);
      const decoded = new Float32Array(Uint8Array.from(Buffer.from(many.data[0].embedding, 'base64')).buffer);
      expect(decoded).toHaveLength(64);
      decoded.forEach((x, i) => {
        expect(x).toBeCloseTo(direct.embeddings[0]?.[i] as number, 5);
      });
    });

    it('answers malformed or invalid requests with 400 and an OpenAI JSON error', async () => {
      const cases: [unknown, string | null][] = [
        ['{not json', null],
        ['', null],
        ['[1,2]', null],
        [{}, 'messages'],
        [{ messages: [] }, 'messages'],
        [{ messages: [{ role: 'user', content: 'x' }], temperature: 'hot' }, 'temperature'],
        [{ messages: [{ role: 'user', content: 'x' }], temperature: 5 }, 'temperature'],
        [{ messages: [{ role: 'wizard', content: 'x' }] }, 'messages[0].role'],
        [{ messages: [{ role: 'user', content: 'x' }], max_tokens: 0 }, 'max_tokens'],
        [{ messages: [{ role: 'user', content: 'x' }], n: 0 }, 'n'],
        [{ messages: [{ role: 'user', content: 'x' }], n: 2, stream: true }, 'n'],
        [{ messages: [{ role: 'user', content: 'x' }], top_logprobs: 3 }, 'top_logprobs'],
        [{ messages: [{ role: 'user', content: 'x' }], logprobs: true, top_logprobs: 21 }, 'top_logprobs'],
      ];
      for (const [body, param] of cases) {
        const res = await post(`${server.url}/chat/completions`, body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.headers.get('content-type')).toContain('application/json');
        const { error } = await json(res);
        expect(error).toEqual({
          message: expect.any(String),
          type: 'invalid_request_error',
          param,
          code: expect.any(String),
        });
      }
      const missing = await json(await post(`${server.url}/chat/completions`, {}));
      expect(missing.error).toMatchObject({
        code: 'missing_required_parameter',
        message: "Missing required parameter: 'messages'.",
      });
      expect((await post(`${server.url}/completions`, { prompt: 3 })).status).toBe(400);
      expect((await post(`${server.url}/completions`, { prompt: 'x', max_tokens: 0 })).status).toBe(400);
      expect((await post(`${server.url}/embeddings`, { input: [[1, 2]] })).status).toBe(400);
      expect((await post(`${server.url}/embeddings`, { input: 'x', dimensions: 3 })).status).toBe(400);
    });

    it('maps a provider client error (prompt too long) to 400 with its message', async () => {
      const res = await post(`${server.url}/chat/completions`, {
        messages: [{ role: 'user', content: 'Once upon a time '.repeat(600) }],
      });
      expect(res.status).toBe(400);
      const { error } = await json(res);
      expect(error.message).toMatch(/context holds 2048/);
      // OpenAI's code for it, which clients (and agents trimming their history) look for.
      expect(error.code).toBe('context_length_exceeded');
      // Streamed too: the headers wait for the first token, so the refusal is still an HTTP error.
      const streamed = await post(`${server.url}/chat/completions`, {
        messages: [{ role: 'user', content: 'Once upon a time '.repeat(600) }],
        stream: true,
      });
      expect(streamed.status).toBe(400);
      expect((await json(streamed)).error.message).toMatch(/context holds 2048.*\?ctx=4096/);
    });

    it('404 for unknown routes, 405 for a wrong method, 413 for an oversized body', async () => {
      const unknown = await post(`${server.url}/nope`, {});
      expect(unknown.status).toBe(404);
      expect(await json(unknown)).toEqual({
        error: {
          message: 'Invalid URL (POST /v1/nope)',
          type: 'invalid_request_error',
          param: null,
          code: 'unknown_url',
        },
      });
      const wrongMethod = await fetch(`${server.url}/chat/completions`);
      expect(wrongMethod.status).toBe(405);
      expect(wrongMethod.headers.get('allow')).toBe('POST');
      expect((await json(wrongMethod)).error.type).toBe('invalid_request_error');

      const big = await rawPost(server.port, '/v1/chat/completions', 'x'.repeat(9 * 1024 * 1024));
      expect(big.status).toBe(413);
      expect(JSON.parse(big.body).error.code).toBe('request_too_large');
    });

    it('serves 20 concurrent clients, each answered exactly as when asked alone', async () => {
      const prompts = Array.from(
        { length: 20 },
        (_, i) => ['Once upon a time', 'The cat', 'Lily had', 'Tom said', 'A big dog'][i % 5] as string,
      );
      const ask = (content: string, i: number) =>
        i % 4 === 3
          ? post(`${server.url}/embeddings`, { input: content }).then(json)
          : post(`${server.url}/chat/completions`, {
              messages: [{ role: 'user', content }],
              max_tokens: 20 + (i % 3),
              logprobs: true,
              top_logprobs: 2,
            }).then(json);
      const strip = (body: Record<string, unknown>) => {
        const { id: _id, created: _created, ...rest } = body;
        return rest;
      };
      const sequential: unknown[] = [];
      for (const [i, p] of prompts.entries()) sequential.push(strip(await ask(p, i)));
      const concurrent = (await Promise.all(prompts.map((p, i) => ask(p, i)))).map(strip);
      expect(concurrent).toEqual(sequential);
    });

    it('the official openai SDK reads every endpoint (chat with log-probs, streaming, completions, base64 embeddings)', async () => {
      const client = new OpenAI({ baseURL: server.url, apiKey: 'unused', maxRetries: 0 });
      const chat = await client.chat.completions.create({
        model: 'tiny',
        messages: [{ role: 'user', content: 'Once upon a time' }],
        max_tokens: 10,
        logprobs: true,
        top_logprobs: 2,
      });
      expect(chat.choices[0]?.message.content).toMatch(/^, there was/);
      expect(chat.choices[0]?.logprobs?.content).toHaveLength(10);
      let streamed = '';
      for await (const chunk of await client.chat.completions.create({
        model: 'tiny',
        messages: [{ role: 'user', content: 'Once upon a time' }],
        max_tokens: 10,
        stream: true,
      })) {
        streamed += chunk.choices[0]?.delta.content ?? '';
      }
      expect(streamed).toBe(chat.choices[0]?.message.content);
      // Log-probs and usage in the stream, read through the SDK's chunk types.
      const logprobs: number[] = [];
      let usage: number | undefined;
      for await (const chunk of await client.chat.completions.create({
        model: 'tiny',
        messages: [{ role: 'user', content: 'Once upon a time' }],
        max_tokens: 10,
        logprobs: true,
        top_logprobs: 2,
        stream: true,
        stream_options: { include_usage: true },
      })) {
        for (const entry of chunk.choices[0]?.logprobs?.content ?? []) logprobs.push(entry.logprob);
        usage ??= chunk.usage?.completion_tokens;
      }
      expect(logprobs).toEqual(chat.choices[0]?.logprobs?.content?.map((entry) => entry.logprob));
      expect(usage).toBe(10);
      const completion = await client.completions.create({
        model: 'tiny',
        prompt: 'Once upon a time',
        max_tokens: 10,
      });
      expect(completion.choices[0]?.text).toBe(chat.choices[0]?.message.content);
      // The SDK asks for base64 and decodes it back to floats.
      const embedding = await client.embeddings.create({ model: 'tiny', input: 'a red ball' });
      const direct = await provider.embed({ input: ['a red ball'] });
      expect(embedding.data[0]?.embedding).toHaveLength(64);
      embedding.data[0]?.embedding.forEach((x, i) => {
        expect(x).toBeCloseTo(direct.embeddings[0]?.[i] as number, 5);
      });
      const models = await client.models.list();
      expect(models.data.map((m) => m.id)).toEqual(['tiny']);
      const bad = await client.chat.completions
        .create({ model: 'tiny', messages: [] })
        .catch((e: unknown) => e);
      expect(bad).toBeInstanceOf(OpenAI.BadRequestError);
      expect((bad as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('messages');
    });

    it('logs one line per request, without bodies', () => {
      expect(
        logLines.some((line) => /^POST \/v1\/chat\/completions 200 \d+ms req_[0-9a-f]{32}$/.test(line)),
      ).toBe(true);
      expect(logLines.join('\n')).not.toContain('Once upon a time');
    });
  },
);

describe.skipIf(!tinyModelPath)(`server binding ${tinyModelMissing ?? ''}`, () => {
  it('refuses a non-loopback host unless allowRemote is set', async () => {
    const provider = await createGgufProvider({ modelPath: tinyModelPath as string });
    try {
      await expect(startOpenAIServer({ provider, host: '0.0.0.0' })).rejects.toThrow(/allowRemote/);
      await expect(startOpenAIServer({ provider, host: '0.0.0.0' })).rejects.toBeInstanceOf(InputError);
      const remote = await startOpenAIServer({ provider, host: '0.0.0.0', allowRemote: true });
      expect(remote.url).toMatch(/^http:\/\/0\.0\.0\.0:\d+\/v1$/);
      expect((await fetch(`http://127.0.0.1:${remote.port}/v1/models`)).status).toBe(200);
      await remote.close();
    } finally {
      await provider.close();
    }
  });

  it('knows loopback addresses', () => {
    for (const host of ['127.0.0.1', 'localhost', '::1', '[::1]', '127.1.2.3'])
      expect(isLoopbackHost(host)).toBe(true);
    for (const host of ['0.0.0.0', '::', '192.168.1.2', 'example.com'])
      expect(isLoopbackHost(host)).toBe(false);
  });

  it('close() ends a generation in flight instead of waiting for it', async () => {
    const provider = await createGgufProvider({ modelPath: tinyModelPath as string });
    const server = await startOpenAIServer({ provider });
    try {
      const pending = post(`${server.url}/chat/completions`, {
        messages: [{ role: 'user', content: 'Once upon a time' }],
        max_tokens: 2000,
      }).catch((error: unknown) => error);
      await new Promise((resolve) => setTimeout(resolve, 50));
      const t0 = performance.now();
      await server.close();
      expect(performance.now() - t0).toBeLessThan(2000);
      await pending;
    } finally {
      await provider.close();
    }
  });
});

describe('serve over a scripted provider: its routes, and its calls through the call path', () => {
  const ask = (server: OpenAIServer, content: string) =>
    post(`${server.url}/chat/completions`, { messages: [{ role: 'user', content }] });
  const provider = () =>
    new ScriptedProvider((prompt, nth) => {
      if (prompt === 'hang') return { hangDeaf: true };
      if (prompt === 'flaky' && nth === 0) return steps.fail('server', 503);
      return steps.ok(`echo: ${prompt}`);
    });

  it('a generation past its deadline is a 500 timeout, even from a provider that ignores its signal', async () => {
    const server = await startOpenAIServer({ provider: provider(), calls: { timeoutMs: 100 } });
    try {
      const t0 = performance.now();
      const res = await ask(server, 'hang');
      expect(performance.now() - t0).toBeLessThan(5000);
      expect(res.status).toBe(500);
      expect((await json(res)).error.code).toBe('timeout');
    } finally {
      await server.close();
    }
  });

  it('routes: a path of other methods is a 405 naming them all, a path of none a 404', async () => {
    const server = await startOpenAIServer({ provider: provider() });
    try {
      const files = await fetch(`${server.url}/files`, { method: 'PUT' });
      expect(files.status).toBe(405);
      expect(files.headers.get('allow')).toBe('GET, POST');
      expect((await json(files)).error).toMatchObject({
        message: 'Method PUT is not allowed on /v1/files; use GET or POST.',
        code: 'method_not_allowed',
      });
      expect((await fetch(`${server.url}/files/file-1`, { method: 'POST' })).headers.get('allow')).toBe(
        'GET, DELETE',
      );
      expect((await fetch(`${server.url}/batches/b/cancel`)).headers.get('allow')).toBe('POST');
      // A model id may hold a slash: it is the model asked for, not another route.
      const other = await fetch(`${server.url}/models/org/other`);
      expect(other.status).toBe(404);
      expect((await json(other)).error.code).toBe('model_not_found');
      expect((await json(await fetch(`${server.url}/nope/`))).error.message).toBe(
        'Invalid URL (GET /v1/nope)',
      );
    } finally {
      await server.close();
    }
  });

  it('retries a transient error only when asked: by default the client retries', async () => {
    const once = provider();
    const server = await startOpenAIServer({ provider: once });
    const retrying = provider();
    const patient = await startOpenAIServer({ provider: retrying, calls: { maxRetries: 1 } });
    try {
      expect((await ask(server, 'flaky')).status).toBe(500);
      expect(once.calls).toBe(1);
      const res = await ask(patient, 'flaky');
      expect(res.status).toBe(200);
      expect((await json(res)).choices[0].message.content).toBe('echo: flaky');
      expect(retrying.calls).toBe(2);
    } finally {
      await Promise.all([server.close(), patient.close()]);
    }
  });
});

/** A POST through node:http that reports the status even when the server stops reading the body. */
function rawPost(port: number, path: string, body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
