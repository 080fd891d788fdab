import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { validateConfig } from '../config/load.js';
import { runSuite } from '../run/run-suite.js';
import { suiteOf } from '../run/suite.js';
import { openStore } from '../store/store.js';
import { type Loopback, sendJson, startLoopback } from '../test-support/models/loopback.js';
import { createOpenAIProvider } from './openai.js';
import { isReasoningModelId, isReasoningSpec } from './reasoning.js';

let server: Loopback;
let baseURL: string;

beforeAll(async () => {
  // Speaks OpenAI's chat completions protocol, and refuses what a reasoning model refuses.
  server = await startLoopback((req, res, seen) => {
    if (req.method !== 'POST') return sendJson(res, 200, {});
    const body = JSON.parse(seen.body) as Record<string, unknown>;
    const refused = ['temperature', 'top_p', 'max_tokens', 'logprobs', 'top_logprobs'].filter(
      (k) => k in body,
    );
    if (String(body.model).startsWith('o') && refused.length > 0)
      return sendJson(res, 400, { error: { message: `Unsupported parameter: '${refused[0]}'` } });
    sendJson(res, 200, {
      id: 'c1',
      object: 'chat.completion',
      created: 1,
      model: body.model,
      choices: [
        { index: 0, message: { role: 'assistant', content: '{"ground_truth": 18}' }, finish_reason: 'stop' },
      ],
      usage: { prompt_tokens: 5, completion_tokens: 300, total_tokens: 305 },
    });
  });
  baseURL = `${server.origin}/v1`;
});
afterAll(() => server.close());
afterEach(() => {
  server.requests.length = 0;
});

const lastBody = () => JSON.parse(server.requests.at(-1)?.body ?? '{}') as Record<string, unknown>;
const messages = [
  { role: 'system' as const, content: 'Solve it.' },
  { role: 'user' as const, content: 'QUESTION: 9 + 9?' },
];

describe('reasoning models: detected by model id, overridable per model', () => {
  it.each([
    ['o1', true],
    ['o1-mini', true],
    ['o3-mini', true],
    ['o4-mini', true],
    ['o4-mini-2025-04-16', true],
    ['gpt-5', true],
    ['gpt-5-mini', true],
    ['gpt-5.1', true],
    ['openai/o4-mini', true],
    ['gpt-4o-mini', false],
    ['gpt-4.1', false],
    ['gpt-50', false],
    ['olmo-2-7b', false],
    ['omni-moderation-latest', false],
  ])('%s -> %s', (id, expected) => {
    expect(isReasoningModelId(id)).toBe(expected);
  });

  it('lets the spec decide, and only for openai: models', () => {
    expect(isReasoningSpec({ provider: 'openai', model: 'my-azure-deployment', reasoning: true })).toBe(true);
    expect(isReasoningSpec({ provider: 'openai', model: 'o4-mini', reasoning: false })).toBe(false);
    expect(isReasoningSpec({ provider: 'openai', model: 'o4-mini' })).toBe(true);
    expect(isReasoningSpec({ provider: 'replay', model: 'o4-mini.jsonl' })).toBe(false);
  });
});

describe('the openai provider asks a reasoning model with max_completion_tokens and no sampling controls', () => {
  const env = {};
  it('sends max_completion_tokens, never temperature, top_p or log-probs', async () => {
    const p = createOpenAIProvider({ model: 'o4-mini', baseURL, apiKey: 'sk-test', env });
    const result = await p.generate({
      messages,
      temperature: 0,
      maxTokens: 768,
      topP: 0.5,
      seed: 7,
      logprobs: true,
      topLogprobs: 5,
    });
    expect(lastBody()).toEqual({ model: 'o4-mini', messages, max_completion_tokens: 768, seed: 7 });
    expect(result.text).toBe('{"ground_truth": 18}');
  });

  it('follows the explicit override both ways', async () => {
    await createOpenAIProvider({ model: 'deploy-1', baseURL, apiKey: 'k', env, reasoning: true }).generate({
      messages,
      temperature: 0,
      maxTokens: 900,
    });
    expect(lastBody()).toEqual({ model: 'deploy-1', messages, max_completion_tokens: 900 });
    // reasoning: false on an o-series id sends the classic body (which this server refuses).
    const classic = createOpenAIProvider({
      model: 'o9-classic',
      baseURL,
      apiKey: 'k',
      env,
      reasoning: false,
    });
    await expect(classic.generate({ messages, temperature: 0, maxTokens: 10 })).rejects.toThrow(
      /Unsupported parameter: 'temperature'/,
    );
    expect(lastBody()).toMatchObject({ temperature: 0, max_tokens: 10 });
  });

  it('through runSuite: the stored request is what was sent (no temperature, reasoning: true)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'waver-reasoning-'));
    const config = validateConfig({
      store: join(dir, 'store.db'),
      maxRetries: 0,
      models: [
        { provider: 'openai', model: 'o4-mini', baseURL, apiKeyEnv: 'TEST_KEY' },
        `openai:gpt-4o-mini@${baseURL}`,
      ],
      params: { temperature: 0, maxTokens: 768 },
    });
    const suite = suiteOf('reasoning-test', [{ id: 't1', system: 'Solve it.', prompt: 'QUESTION: 9 + 9?' }]);
    const run = await runSuite(config, suite, { env: { TEST_KEY: 'sk-test', OPENAI_API_KEY: 'sk-test' } });
    expect(run.complete).toBe(true);
    const posts = server.requests.filter((r) => r.method === 'POST').map((r) => JSON.parse(r.body));
    expect(posts.find((b) => b.model === 'o4-mini')).toEqual({
      model: 'o4-mini',
      messages,
      max_completion_tokens: 768,
    });
    expect(posts.find((b) => b.model === 'gpt-4o-mini')).toEqual({
      model: 'gpt-4o-mini',
      messages,
      temperature: 0,
      max_tokens: 768,
    });
    const store = openStore(config.store);
    const requests = new Map(
      [...store.cells.all({ suiteHash: suite.hash })].map((c) => [c.model, c.request]),
    );
    store.close();
    expect(requests.get(`openai:o4-mini@${baseURL}`)).toEqual({ messages, maxTokens: 768, reasoning: true });
    expect(requests.get(`openai:gpt-4o-mini@${baseURL}`)).toEqual({
      messages,
      temperature: 0,
      maxTokens: 768,
    });
  });
});
