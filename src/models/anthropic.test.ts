import type { ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { InputError } from '../errors.js';
import { type Loopback, sendJson, startLoopback } from '../test-support/models/loopback.js';
import { createAnthropicProvider } from './anthropic.js';
import { ProviderError } from './errors.js';

/** A loopback server speaking the Messages API shape; each test sets what it answers. */
let respond: (res: ServerResponse) => void = () => {};
let server: Loopback;

beforeAll(async () => {
  server = await startLoopback((_req, res) => respond(res));
});
afterAll(() => server.close());
afterEach(() => {
  server.requests.length = 0;
});

const message = (over: Record<string, unknown> = {}) => ({
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  model: 'claude-served',
  content: [{ type: 'text', text: 'Hello' }],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: { input_tokens: 11, output_tokens: 3 },
  ...over,
});

const provider = (extra: { apiVersion?: string } = {}) =>
  createAnthropicProvider({
    model: 'claude-x',
    baseURL: server.origin,
    apiKey: 'sk-ant-test-1234',
    ...extra,
  });
const ask = { messages: [{ role: 'user' as const, content: 'Hi' }] };

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ProviderError);
  return err as ProviderError;
}

describe('anthropic provider: request and response shape', () => {
  it('puts system messages in `system`, defaults max_tokens to 1024, sends stop_sequences and no sampling params', async () => {
    respond = (res) =>
      sendJson(
        res,
        200,
        message({
          content: [
            { type: 'thinking', thinking: 'hmm', signature: 's' },
            { type: 'text', text: 'Hel' },
            { type: 'text', text: 'lo' },
          ],
        }),
      );
    const result = await provider().generate({
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'system', content: 'Be kind.' },
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hi!' },
        { role: 'user', content: 'Again' },
      ],
      stop: ['END'],
      seed: 3,
      logprobs: true,
    });
    expect(server.requests).toHaveLength(1);
    const seen = server.requests[0];
    expect(seen?.url).toBe('/v1/messages');
    expect(seen?.headers['anthropic-version']).toBe('2026-10-21');
    expect(seen?.headers.authorization).toBe('Bearer sk-ant-test-1234');
    expect(JSON.parse(seen?.body ?? '')).toEqual({
      model: 'claude-x',
      max_tokens: 1024,
      system: 'Be brief.\n\nBe kind.',
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hi!' },
        { role: 'user', content: 'Again' },
      ],
      stop_sequences: ['END'],
    });
    expect(result).toEqual({
      text: 'Hello',
      finishReason: 'stop',
      usage: { inputTokens: 11, outputTokens: 3 },
      responseModel: 'claude-served',
    });
  });

  it('with apiVersion 2023-06-01 sends temperature (default 0) and top_p, and the identity says so', async () => {
    respond = (res) => sendJson(res, 200, message());
    const p = provider({ apiVersion: '2023-06-01' });
    await p.generate({ ...ask, maxTokens: 5, topP: 0.9 });
    const seen = server.requests[0];
    expect(seen?.headers['anthropic-version']).toBe('2023-06-01');
    expect(JSON.parse(seen?.body ?? '')).toEqual({
      model: 'claude-x',
      max_tokens: 5,
      messages: ask.messages,
      temperature: 0,
      top_p: 0.9,
    });
    expect(p.identity).toBe(`anthropic:claude-x@${server.origin};version=2023-06-01`);
    expect(provider().identity).toBe(`anthropic:claude-x@${server.origin}`);
  });

  it('maps stop reasons', async () => {
    const p = provider();
    const cases: [unknown, string][] = [
      ['end_turn', 'stop'],
      ['stop_sequence', 'stop'],
      ['max_tokens', 'length'],
      ['model_context_window_exceeded', 'length'],
      ['tool_use', 'tool_calls'],
      ['refusal', 'refusal'],
      ['pause_turn', 'other'],
      [null, 'other'],
    ];
    for (const [given, expected] of cases) {
      respond = (res) => sendJson(res, 200, message({ stop_reason: given }));
      expect((await p.generate(ask)).finishReason).toBe(expected);
    }
  });

  it('declares chat only', () => {
    expect(provider().capabilities).toEqual({
      chat: true,
      tokenLogprobs: false,
      topLogprobs: 0,
      fullDistribution: false,
      scoreContinuation: false,
      embeddings: false,
    });
    expect(provider().embed).toBeUndefined();
  });
});

describe('anthropic provider: errors', () => {
  it('429 with retry-after -> rate_limit with the delay, one request', async () => {
    respond = (res) =>
      sendJson(
        res,
        429,
        { type: 'error', error: { type: 'rate_limit_error', message: 'Too many' } },
        { 'retry-after': '3' },
      );
    const err = await failure(provider().generate(ask));
    expect(err).toMatchObject({ kind: 'rate_limit', status: 429, retryAfterMs: 3000, retryable: true });
    expect(server.requests).toHaveLength(1);
  });

  it('529 overloaded -> server; 401 -> auth; 400 -> client', async () => {
    respond = (res) =>
      sendJson(res, 529, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
    expect(await failure(provider().generate(ask))).toMatchObject({ kind: 'server', status: 529 });
    respond = (res) =>
      sendJson(res, 401, { type: 'error', error: { type: 'authentication_error', message: 'bad key' } });
    expect(await failure(provider().generate(ask))).toMatchObject({ kind: 'auth', retryable: false });
    respond = (res) =>
      sendJson(res, 400, {
        type: 'error',
        error: { type: 'invalid_request_error', message: 'temperature: Extra inputs' },
      });
    const client = await failure(provider().generate(ask));
    expect(client).toMatchObject({ kind: 'client', status: 400 });
    expect(client.message).toContain('temperature: Extra inputs');
  });

  it('malformed JSON and a body without content -> bad_response; a reset -> network', async () => {
    respond = (res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"content": [');
    };
    expect((await failure(provider().generate(ask))).kind).toBe('bad_response');
    respond = (res) => sendJson(res, 200, { type: 'message' });
    const noContent = await failure(provider().generate(ask));
    expect(noContent.kind).toBe('bad_response');
    expect(noContent.message).toMatch(/no content array/);
    respond = (res) => res.socket?.destroy();
    expect((await failure(provider().generate(ask))).kind).toBe('network');
  });

  it('402 billing_error -> quota, which stops the model; a body past maxResponseBytes -> too_large, not network', async () => {
    respond = (res) =>
      sendJson(res, 402, {
        type: 'error',
        error: { type: 'billing_error', message: 'credit balance too low' },
      });
    expect(await failure(provider().generate(ask))).toMatchObject({
      kind: 'quota',
      retryable: false,
      stopsModel: true,
    });
    respond = (res) => sendJson(res, 200, message({ content: [{ type: 'text', text: 'x'.repeat(4096) }] }));
    const capped = createAnthropicProvider({
      model: 'claude-x',
      baseURL: server.origin,
      apiKey: 'sk-ant-test-1234',
      maxResponseBytes: 1024,
    });
    // The SDK wraps what its fetch threw as a connection error: the cap's own kind is kept.
    expect(await failure(capped.generate(ask))).toMatchObject({ kind: 'too_large', retryable: false });
  });

  it("the caller's timeout signal -> timeout", async () => {
    respond = () => {};
    const err = await failure(provider().generate(ask, { signal: AbortSignal.timeout(150) }));
    expect(err.kind).toBe('timeout');
  });
});

describe('anthropic provider: settings', () => {
  it('the real Anthropic host without a key is an input error; ANTHROPIC_API_KEY and apiKeyEnv are read', async () => {
    expect(() => createAnthropicProvider({ model: 'claude-x', env: {} })).toThrow(InputError);
    expect(() => createAnthropicProvider({ model: 'claude-x', env: {} })).toThrow(/ANTHROPIC_API_KEY/);
    const real = createAnthropicProvider({ model: 'claude-x', env: { ANTHROPIC_API_KEY: 'k' } });
    expect(real.identity).toBe('anthropic:claude-x@https://api.anthropic.com');
    respond = (res) => sendJson(res, 200, message());
    const p = createAnthropicProvider({
      model: 'claude-x',
      apiKeyEnv: 'MY_ANT',
      env: { MY_ANT: 'k-env', ANTHROPIC_BASE_URL: server.origin },
    });
    await p.generate(ask);
    expect(server.requests[0]?.headers.authorization).toBe('Bearer k-env');
  });
});
