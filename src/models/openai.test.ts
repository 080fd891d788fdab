import type { ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { InputError } from '../errors.js';
import { closedPort, type Loopback, sendJson, startLoopback } from '../test-support/models/loopback.js';
import { ProviderError } from './errors.js';
import { createOpenAIProvider, fromChatBody } from './openai.js';

/** What the next request gets; each test sets it. */
let respond: (res: ServerResponse, body: unknown) => void = () => {};
let server: Loopback;
let baseURL: string;

beforeAll(async () => {
  server = await startLoopback((_req, res, seen) =>
    respond(res, seen.body ? JSON.parse(seen.body) : undefined),
  );
  baseURL = `${server.origin}/v1`;
});
afterAll(() => server.close());
afterEach(() => {
  server.requests.length = 0;
});

const completion = (over: Record<string, unknown> = {}) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1,
  model: 'served-model',
  choices: [
    {
      index: 0,
      message: { role: 'assistant', content: 'Hello there' },
      finish_reason: 'stop',
      logprobs: null,
    },
  ],
  usage: { prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 },
  ...over,
});

const provider = () => createOpenAIProvider({ model: 'm1', baseURL, apiKey: 'sk-test-123456' });
const ask = { messages: [{ role: 'user' as const, content: 'Say hello' }] };

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ProviderError);
  return err as ProviderError;
}

describe('openai provider: request and response shape', () => {
  it('sends the chat request with every parameter and maps text, log-probs, usage and model', async () => {
    respond = (res) =>
      sendJson(
        res,
        200,
        completion({
          choices: [
            {
              index: 0,
              message: { role: 'assistant', content: 'Hi you' },
              finish_reason: 'length',
              logprobs: {
                content: [
                  {
                    token: 'Hi',
                    logprob: -0.1,
                    bytes: [72, 105],
                    top_logprobs: [
                      { token: 'Hi', logprob: -0.1, bytes: null },
                      { token: 'Hey', logprob: -2.5, bytes: null },
                    ],
                  },
                  {
                    token: ' you',
                    logprob: -0.7,
                    bytes: null,
                    top_logprobs: [{ token: ' you', logprob: -0.7 }],
                  },
                ],
              },
            },
          ],
        }),
      );
    const result = await provider().generate({
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Say hello' },
      ],
      maxTokens: 2,
      topP: 0.5,
      seed: 42,
      stop: ['\n'],
      logprobs: true,
      topLogprobs: 2,
    });

    expect(server.requests).toHaveLength(1);
    const seen = server.requests[0];
    expect(seen?.method).toBe('POST');
    expect(seen?.url).toBe('/v1/chat/completions');
    expect(seen?.headers.authorization).toBe('Bearer sk-test-123456');
    expect(JSON.parse(seen?.body ?? '')).toEqual({
      model: 'm1',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Say hello' },
      ],
      temperature: 0,
      max_tokens: 2,
      top_p: 0.5,
      seed: 42,
      stop: ['\n'],
      logprobs: true,
      top_logprobs: 2,
    });
    expect(result).toEqual({
      text: 'Hi you',
      finishReason: 'length',
      usage: { inputTokens: 7, outputTokens: 2 },
      responseModel: 'served-model',
      tokens: [
        {
          token: 'Hi',
          logprob: -0.1,
          top: [
            { token: 'Hi', logprob: -0.1 },
            { token: 'Hey', logprob: -2.5 },
          ],
        },
        { token: ' you', logprob: -0.7, top: [{ token: ' you', logprob: -0.7 }] },
      ],
    });
    // APIs give top-k only: entropy is left to protocols that can say it is an approximation.
    expect(result.tokens?.every((t) => t.entropy === undefined)).toBe(true);
  });

  it('defaults temperature to 0 and asks for no log-probs unless told; clamps top_logprobs to 20', async () => {
    respond = (res) => sendJson(res, 200, completion());
    const p = provider();
    const plain = await p.generate(ask);
    expect(JSON.parse(server.requests[0]?.body ?? '')).toEqual({
      model: 'm1',
      messages: ask.messages,
      temperature: 0,
    });
    expect(plain.tokens).toBeUndefined();
    await p.generate({ ...ask, temperature: 0.7, topLogprobs: 50 });
    const body = JSON.parse(server.requests[1]?.body ?? '');
    expect(body).toMatchObject({ temperature: 0.7, logprobs: true, top_logprobs: 20 });
  });

  it('maps finish reasons', async () => {
    const p = provider();
    const cases: [unknown, string][] = [
      ['stop', 'stop'],
      ['length', 'length'],
      ['content_filter', 'content_filter'],
      ['tool_calls', 'tool_calls'],
      ['function_call', 'tool_calls'],
      ['something_new', 'other'],
      [null, 'other'],
    ];
    for (const [given, expected] of cases) {
      respond = (res) =>
        sendJson(
          res,
          200,
          completion({ choices: [{ index: 0, message: { content: 'x' }, finish_reason: given }] }),
        );
      expect((await p.generate(ask)).finishReason).toBe(expected);
    }
  });

  it('embeds with encoding_format float, in input order', async () => {
    respond = (res) =>
      sendJson(res, 200, {
        object: 'list',
        model: 'm1',
        data: [
          { object: 'embedding', index: 1, embedding: [0, 1] },
          { object: 'embedding', index: 0, embedding: [1, 0] },
        ],
        usage: { prompt_tokens: 4, total_tokens: 4 },
      });
    const out = await provider().embed?.({ input: ['a', 'b'] });
    expect(server.requests[0]?.url).toBe('/v1/embeddings');
    expect(JSON.parse(server.requests[0]?.body ?? '')).toEqual({
      model: 'm1',
      input: ['a', 'b'],
      encoding_format: 'float',
    });
    expect(out).toEqual({
      embeddings: [
        [1, 0],
        [0, 1],
      ],
      usage: { inputTokens: 4 },
    });
  });

  it('rejects an embeddings body with the wrong number of rows', async () => {
    respond = (res) => sendJson(res, 200, { data: [{ index: 0, embedding: [1] }] });
    const err = await failure(provider().embed?.({ input: ['a', 'b'] }) ?? Promise.resolve());
    expect(err.kind).toBe('bad_response');
    expect(err.message).toMatch(/asked for 2 embeddings, got 1/);
  });
});

describe('openai provider: error mapping (one request per call, no SDK retries)', () => {
  it('429 with Retry-After seconds -> rate_limit with the delay', async () => {
    respond = (res) => sendJson(res, 429, { error: { message: 'Slow down' } }, { 'retry-after': '2' });
    const err = await failure(provider().generate(ask));
    expect(err).toMatchObject({ kind: 'rate_limit', status: 429, retryAfterMs: 2000, retryable: true });
    expect(err.message).toContain('Slow down');
    expect(server.requests).toHaveLength(1);
  });

  it('429 with retry-after-ms wins over retry-after', async () => {
    respond = (res) =>
      sendJson(res, 429, { error: { message: 'x' } }, { 'retry-after-ms': '1500', 'retry-after': '9' });
    expect((await failure(provider().generate(ask))).retryAfterMs).toBe(1500);
  });

  it('429 insufficient_quota and 402 -> quota: not retried, it stops the model', async () => {
    const spent = {
      message: 'You exceeded your current quota',
      type: 'insufficient_quota',
      code: 'insufficient_quota',
    };
    for (const [status, error] of [
      [429, spent],
      [429, { message: 'spent', type: 'insufficient_quota' }],
      [402, { message: 'Payment required' }],
    ] as const) {
      respond = (res) => sendJson(res, status, { error });
      const err = await failure(provider().generate(ask));
      expect(err, String(status)).toMatchObject({
        kind: 'quota',
        status,
        retryable: false,
        stopsModel: true,
      });
      expect(err.message).toContain(error.message);
    }
  });

  it('500 -> server, retryable, tried once', async () => {
    respond = (res) => sendJson(res, 500, { error: { message: 'boom' } });
    const err = await failure(provider().generate(ask));
    expect(err).toMatchObject({ kind: 'server', status: 500, retryable: true });
    expect(server.requests).toHaveLength(1);
  });

  it('401 and 403 -> auth, not retryable', async () => {
    for (const status of [401, 403]) {
      respond = (res) => sendJson(res, status, { error: { message: 'Invalid key' } });
      const err = await failure(provider().generate(ask));
      expect(err).toMatchObject({ kind: 'auth', status, retryable: false });
    }
  });

  it("carries the server's own message, and the status text when the body has none", async () => {
    respond = (res) => sendJson(res, 400, { error: { message: 'max_tokens is too large', type: 'invalid' } });
    expect((await failure(provider().generate(ask))).message).toMatch(/HTTP 400 max_tokens is too large/);
    respond = (res) => {
      res.writeHead(502, 'Bad Gateway');
      res.end();
    };
    expect((await failure(provider().generate(ask))).message).toMatch(/HTTP 502 Bad Gateway/);
  });

  it('other 4xx -> client, not retryable; 408 -> timeout', async () => {
    respond = (res) => sendJson(res, 400, { error: { message: 'bad max_tokens' } });
    expect(await failure(provider().generate(ask))).toMatchObject({
      kind: 'client',
      status: 400,
      retryable: false,
    });
    respond = (res) => sendJson(res, 404, { error: { message: 'no such model' } });
    expect(await failure(provider().generate(ask))).toMatchObject({ kind: 'client', status: 404 });
    respond = (res) => sendJson(res, 408, { error: { message: 'slow' } });
    expect(await failure(provider().generate(ask))).toMatchObject({ kind: 'timeout', retryable: true });
  });

  it('malformed JSON, a body without choices, and a non-JSON body -> bad_response', async () => {
    respond = (res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"choices": [');
    };
    expect(await failure(provider().generate(ask))).toMatchObject({ kind: 'bad_response', retryable: true });
    respond = (res) => sendJson(res, 200, { id: 'x', object: 'chat.completion' });
    const noChoices = await failure(provider().generate(ask));
    expect(noChoices.kind).toBe('bad_response');
    expect(noChoices.message).toMatch(/no choices/);
    respond = (res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>gateway</html>');
    };
    expect((await failure(provider().generate(ask))).kind).toBe('bad_response');
  });

  it('a connection reset -> network', async () => {
    respond = (res) => res.socket?.destroy();
    expect(await failure(provider().generate(ask))).toMatchObject({ kind: 'network', retryable: true });
  });

  it('a refused connection -> network, naming the endpoint', async () => {
    const port = await closedPort();
    const p = createOpenAIProvider({ model: 'm1', baseURL: `http://127.0.0.1:${port}/v1` });
    const err = await failure(p.generate(ask));
    expect(err.kind).toBe('network');
    expect(err.message).toContain(`127.0.0.1:${port}`);
    expect(err.message).toMatch(/ECONNREFUSED/);
  });

  it("the caller's timeout signal -> timeout", async () => {
    respond = () => {}; // never answers
    const started = Date.now();
    const err = await failure(provider().generate(ask, { signal: AbortSignal.timeout(150) }));
    expect(err).toMatchObject({ kind: 'timeout', retryable: true });
    expect(err.message).toMatch(/timed out/);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe('openai provider: settings', () => {
  it('identity is provider, model and normalised base URL, never the key', () => {
    const p = createOpenAIProvider({
      model: 'm1',
      baseURL: 'http://LOCALHOST:8080/v1/',
      apiKey: 'sk-abcdefgh',
    });
    expect(p.identity).toBe('openai:m1@http://localhost:8080/v1');
    const withUser = createOpenAIProvider({ model: 'm1', baseURL: 'http://me:secretpw@localhost:8080/v1' });
    expect(withUser.identity).toBe('openai:m1@http://localhost:8080/v1');
    expect(p.capabilities).toEqual({
      chat: true,
      tokenLogprobs: true,
      topLogprobs: 20,
      fullDistribution: false,
      scoreContinuation: false,
      embeddings: true,
    });
  });

  it('the real OpenAI host without a key is an input error naming the variable', () => {
    expect(() => createOpenAIProvider({ model: 'gpt-4o-mini', env: {} })).toThrow(InputError);
    expect(() => createOpenAIProvider({ model: 'gpt-4o-mini', env: {} })).toThrow(
      /set OPENAI_API_KEY or apiKeyEnv/,
    );
    expect(() => createOpenAIProvider({ model: 'gpt-4o-mini', apiKeyEnv: 'MY_KEY', env: {} })).toThrow(
      /MY_KEY/,
    );
    const ok = createOpenAIProvider({ model: 'gpt-4o-mini', env: { OPENAI_API_KEY: 'sk-x' } });
    expect(ok.identity).toBe('openai:gpt-4o-mini@https://api.openai.com/v1');
  });

  it('an apiKeyEnv naming an unset variable is an input error for a local server too (no `Bearer no-key`)', () => {
    const local = { model: 'm', baseURL: 'http://127.0.0.1:8000/v1', env: {} };
    expect(() => createOpenAIProvider({ ...local, apiKeyEnv: 'MY_LOCAL_KEY' })).toThrow(
      /environment variable MY_LOCAL_KEY \(named by apiKeyEnv\) is not set/,
    );
    // Without apiKeyEnv a local server needs no key.
    expect(createOpenAIProvider(local).identity).toBe('openai:m@http://127.0.0.1:8000/v1');
  });

  it('reads the key from apiKeyEnv and the base URL from OPENAI_BASE_URL', async () => {
    respond = (res) => sendJson(res, 200, completion());
    const p = createOpenAIProvider({
      model: 'm1',
      apiKeyEnv: 'MY_KEY',
      env: { MY_KEY: 'k-env', OPENAI_BASE_URL: baseURL },
    });
    expect(p.identity).toBe(`openai:m1@${baseURL}`);
    await p.generate(ask);
    expect(server.requests[0]?.headers.authorization).toBe('Bearer k-env');
  });

  it('sends the organization and project from the given env only', async () => {
    respond = (res) => sendJson(res, 200, completion());
    const env = { OPENAI_ORG_ID: 'org-1', OPENAI_PROJECT_ID: 'proj-1' };
    await createOpenAIProvider({ model: 'm1', baseURL, env }).generate(ask);
    expect(server.requests[0]?.headers).toMatchObject({
      'openai-organization': 'org-1',
      'openai-project': 'proj-1',
    });
    await createOpenAIProvider({ model: 'm1', baseURL, env: {} }).generate(ask);
    expect(server.requests[1]?.headers['openai-organization']).toBeUndefined();
  });

  it('a local server needs no key (a placeholder is sent)', async () => {
    respond = (res) => sendJson(res, 200, completion());
    const p = createOpenAIProvider({ model: 'm1', baseURL, env: {} });
    expect((await p.generate(ask)).text).toBe('Hello there');
    expect(server.requests[0]?.headers.authorization).toBe('Bearer no-key');
  });
});

describe('an answer with no content', () => {
  const body = (message: Record<string, unknown>, finish_reason: string, extra = {}) => ({
    choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason }],
    ...extra,
  });
  const kindOf = (fn: () => unknown) => {
    try {
      fn();
    } catch (e) {
      return (e as ProviderError).kind;
    }
    return 'no error';
  };
  it('is no answer (not asked again), unless the finish reason says why (a filter, a tool call)', () => {
    expect(() => fromChatBody(body({ content: null }, 'stop'))).toThrow(
      /no answer: choices\[0\]\.message\.content is null \(finish_reason "stop"\)/,
    );
    expect(kindOf(() => fromChatBody(body({ content: null }, 'stop')))).toBe('no_answer');
    expect(kindOf(() => fromChatBody(body({}, 'length')))).toBe('no_answer');
    expect(fromChatBody(body({ content: null }, 'content_filter'))).toMatchObject({
      text: '',
      finishReason: 'content_filter',
    });
    expect(fromChatBody(body({ content: '' }, 'content_filter'))).toMatchObject({
      text: '',
      finishReason: 'content_filter',
    });
  });

  it('a refusal is the answer: its text, finish reason refusal, usage kept', () => {
    const usage = { usage: { prompt_tokens: 9, completion_tokens: 4 } };
    expect(fromChatBody(body({ content: null, refusal: 'I cannot help' }, 'stop', usage))).toEqual({
      text: 'I cannot help',
      finishReason: 'refusal',
      usage: { inputTokens: 9, outputTokens: 4 },
    });
    // An empty refusal is none.
    expect(kindOf(() => fromChatBody(body({ content: null, refusal: '' }, 'stop')))).toBe('no_answer');
  });

  it('no choices: no answer when the list is empty, retried when a proxy sent an error or no list', () => {
    expect(kindOf(() => fromChatBody({ choices: [] }))).toBe('no_answer');
    expect(kindOf(() => fromChatBody({ choices: [], error: { message: 'upstream overloaded' } }))).toBe(
      'bad_response',
    );
    expect(kindOf(() => fromChatBody({ id: 'x' }))).toBe('bad_response');
  });

  it('a token count that is not a number is read as such (NaN), none as 0', () => {
    const read = (usage: unknown) => fromChatBody(body({ content: 'x' }, 'stop', { usage })).usage;
    expect(read(undefined)).toEqual({ inputTokens: 0, outputTokens: 0 });
    expect(read({ prompt_tokens: '12', completion_tokens: -1 })).toEqual({
      inputTokens: Number.NaN,
      outputTokens: -1,
    });
  });
});
