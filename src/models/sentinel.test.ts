import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  closedPort,
  type Loopback,
  type SeenRequest,
  sendJson,
  startLoopback,
} from '../test-support/models/loopback.js';
import { createAnthropicProvider } from './anthropic.js';
import { resolveHfModel } from './download.js';
import { createOpenAIProvider } from './openai.js';
import { createProvider } from './registry.js';
import { parseModelSpec } from './spec.js';
import type { ModelProvider } from './types.js';

/**
 * A sentinel API key must never come back out: not in an error message (even when the server
 * echoes it, as OpenAI does for a wrong key), not in a cause or stack, not in an identity.
 */
const SENTINEL = `sk-SENTINEL-${randomBytes(12).toString('hex')}`;
const HF_SENTINEL = `hf_SENTINEL${randomBytes(12).toString('hex')}`;

/** Every way a server can hand the key back inside an error. */
type Echo = (res: ServerResponse, key: string, seen: SeenRequest) => void;
const echoes: Record<string, Echo> = {
  '401 naming the key': (res, key) =>
    sendJson(res, 401, {
      error: { message: `Incorrect API key provided: ${key}`, type: 'invalid_request_error' },
    }),
  '401 with a partly masked key': (res, key) =>
    sendJson(res, 401, {
      error: { message: `Incorrect API key provided: ${key.slice(0, 14)}***${key.slice(-4)}` },
    }),
  '400 echoing the request headers': (res, _key, seen) =>
    sendJson(res, 400, { error: { headers: seen.headers } }),
  '429 with the key in the body': (res, key) =>
    sendJson(res, 429, { error: { message: `quota for ${key}` } }, { 'retry-after': '1' }),
  '500 plain text with the key': (res, key) => {
    res.writeHead(500, { 'content-type': 'text/plain' });
    res.end(`internal error for Bearer ${key}`);
  },
  '200 malformed JSON with the key': (res, key) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(`{"choices": "${key}`);
  },
  '200 text body with the key': (res, key) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(`hello ${key}`);
  },
  'connection reset': (res) => res.socket?.destroy(),
};

let current: Echo = () => {};
let server: Loopback;
beforeAll(async () => {
  server = await startLoopback((_req, res, seen) => {
    const auth = String(seen.headers.authorization ?? seen.headers['x-api-key'] ?? '');
    current(res, auth.replace(/^Bearer /, ''), seen);
  });
});
afterAll(() => server.close());

function assertClean(what: unknown, context: string) {
  const err = what as Error & { cause?: unknown };
  const texts = [err.message, err.stack ?? '', JSON.stringify(err), String(err.cause ?? '')];
  for (const text of texts) {
    expect(text, context).not.toContain(SENTINEL);
    expect(text, context).not.toContain('SENTINEL');
  }
}

async function triggerAll(provider: ModelProvider, label: string) {
  expect(provider.identity).not.toContain('SENTINEL');
  expect(provider.modelId).not.toContain('SENTINEL');
  for (const [name, echo] of Object.entries(echoes)) {
    current = echo;
    server.requests.length = 0;
    const err = await provider
      .generate({ messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    expect(err, `${label}: ${name} should fail`).toBeInstanceOf(Error);
    assertClean(err, `${label}: ${name}`);
    // The key did go to the server, so the test is meaningful.
    expect(JSON.stringify(server.requests[0]?.headers)).toContain(SENTINEL);
  }
}

describe('a sentinel API key never appears in errors or identities', () => {
  it('openai, key passed directly', async () => {
    await triggerAll(
      createOpenAIProvider({ model: 'm', baseURL: `${server.origin}/v1`, apiKey: SENTINEL }),
      'openai',
    );
  });

  it('openai, key from apiKeyEnv through the registry; embeddings too', async () => {
    const spec = { ...parseModelSpec(`openai:m@${server.origin}/v1`), apiKeyEnv: 'SENTINEL_KEY' };
    const provider = await createProvider(spec, { env: { SENTINEL_KEY: SENTINEL } });
    await triggerAll(provider, 'openai via registry');
    current = echoes['401 naming the key'] as Echo;
    assertClean(await provider.embed?.({ input: ['x'] }).catch((e: unknown) => e), 'openai embed');
  });

  it('anthropic', async () => {
    await triggerAll(
      createAnthropicProvider({ model: 'c', baseURL: server.origin, apiKey: SENTINEL }),
      'anthropic',
    );
  });

  it('unreachable endpoints', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const o = createOpenAIProvider({ model: 'm', baseURL: `${url}/v1`, apiKey: SENTINEL });
    assertClean(
      await o.generate({ messages: [{ role: 'user', content: 'x' }] }).catch((e: unknown) => e),
      'openai down',
    );
    const a = createAnthropicProvider({ model: 'c', baseURL: url, apiKey: SENTINEL });
    assertClean(
      await a.generate({ messages: [{ role: 'user', content: 'x' }] }).catch((e: unknown) => e),
      'anthropic down',
    );
  });

  it('the HF token in download errors', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'waver-sentinel-'));
    try {
      current = (res, key) => {
        res.writeHead(401, { 'content-type': 'text/plain' });
        res.end(`bad token ${key}`);
      };
      const common = { cacheDir, env: {}, token: HF_SENTINEL, onProgress: () => {}, retryDelayMs: 0 };
      server.requests.length = 0;
      const refused = await resolveHfModel('hf:o/r/f.gguf', { ...common, endpoint: server.origin }).catch(
        (e: unknown) => e,
      );
      expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${HF_SENTINEL}`);
      const down = await resolveHfModel('hf:o/r/f.gguf', {
        ...common,
        endpoint: `http://127.0.0.1:${await closedPort()}`,
      }).catch((e: unknown) => e);
      for (const err of [refused, down]) {
        expect(err).toBeInstanceOf(Error);
        const e = err as Error;
        for (const text of [e.message, e.stack ?? '', JSON.stringify(e), String(e.cause ?? '')]) {
          expect(text).not.toContain(HF_SENTINEL);
        }
      }
    } finally {
      rmSync(cacheDir, { recursive: true, force: true });
    }
  });
});
