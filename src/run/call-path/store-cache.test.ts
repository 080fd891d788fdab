import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { GenerateRequest, ModelProvider, ScoreRequest } from '../../models/types.js';
import { openStore, type Store } from '../../store/store.js';
import { auxGet } from '../aux-cache.js';
import { cacheKey } from '../cache-key.js';
import { callPath } from './call-path.js';
import type { CallObserver, PathCallOptions, ProviderMiddleware } from './middleware.js';
import { StoredAnswers, storeCache } from './store-cache.js';
import { wrapProvider } from './wrap-provider.js';

const stores: Store[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function newStore(): Store {
  const dir = mkdtempSync(join(tmpdir(), 'waver-store-cache-'));
  dirs.push(dir);
  const store = openStore(join(dir, 'store.db'));
  stores.push(store);
  return store;
}

const IDENTITY = 'scripted:m';
const SCORED = { logprob: -1.5, tokens: [{ token: ' a', logprob: -1.5 }] };

/** A provider that counts its calls of each kind. */
function counting() {
  const calls = { generate: 0, score: 0, embed: 0 };
  const provider: ModelProvider = {
    provider: 'replay',
    modelId: 'm',
    identity: IDENTITY,
    capabilities: {
      chat: true,
      tokenLogprobs: false,
      topLogprobs: 0,
      fullDistribution: false,
      scoreContinuation: true,
      embeddings: true,
    },
    generate: async () => {
      calls.generate++;
      return { text: 'called', finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 1 } };
    },
    score: async () => {
      calls.score++;
      return SCORED;
    },
    embed: async () => {
      calls.embed++;
      return { embeddings: [[1, 2]] };
    },
  };
  return { provider, calls };
}

/**
 * The "run" path around `provider` with the store's cache, a meter that counts the tries it lets
 * through, and 1 request a minute whose waits are recorded (a second try would wait for a token).
 */
function runPathOver(store: Store, provider: ModelProvider) {
  const metered: string[] = [];
  const waits: number[] = [];
  let now = 0;
  const meter: ProviderMiddleware = (call, options, next) => {
    metered.push(call.kind);
    return next(options);
  };
  const path = callPath(
    {
      timeoutMs: 1000,
      maxRetries: 0,
      rpm: 1,
      meter,
      cache: storeCache(new StoredAnswers(store, provider.identity)),
    },
    {
      now: () => now,
      sleep: async (ms) => {
        waits.push(ms);
        now += ms;
      },
    },
  );
  return { wrapped: wrapProvider(provider, path), metered, waits };
}

const request: GenerateRequest = { messages: [{ role: 'user', content: 'q' }], temperature: 0 };

/** Stores an answer to `request` (repeat 0) as a run's cell would. */
function storeAnswer(store: Store): string {
  const suite = { name: 's', hash: 'h', tests: [{ id: 't', prompt: 'q' }] };
  store.suites.save(suite);
  const runId = store.runs.begin({ suiteHash: suite.hash, config: {}, waverVersion: 'test' });
  const key = cacheKey(IDENTITY, request, 0);
  store.cells.write([
    {
      kind: 'done',
      cell: {
        suiteHash: suite.hash,
        testId: 't',
        model: 'm',
        modelIdentity: IDENTITY,
        repeat: 0,
        runId,
        key,
        request,
        result: { text: 'stored', finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 1 } },
        latencyMs: 1,
        attempts: [],
      },
    },
  ]);
  return key;
}

describe('the store as the run path’s outermost middleware', () => {
  it('answers a generation stored under its cache key: no try, no rate-limit token, no budget', async () => {
    const store = newStore();
    const key = storeAnswer(store);
    const { provider, calls } = counting();
    const { wrapped, metered, waits } = runPathOver(store, provider);
    const told: string[] = [];
    const observer: CallObserver = {
      onStored: () => told.push('stored'),
      onTryStart: () => told.push('try'),
    };
    const options: PathCallOptions = { cacheKey: key, observer };
    const first = await wrapped.generate(request, options);
    const second = await wrapped.generate(request, options);
    expect([first.text, second.text]).toEqual(['stored', 'stored']);
    expect(told).toEqual(['stored', 'stored']);
    expect(calls.generate).toBe(0);
    expect(metered).toEqual([]);
    expect(waits).toEqual([]);
  });

  it('sends a generation whose key holds nothing, or that names no key (a sample nobody keeps)', async () => {
    const store = newStore();
    storeAnswer(store);
    const { provider, calls } = counting();
    const { wrapped, metered, waits } = runPathOver(store, provider);
    const repeatOne: PathCallOptions = { cacheKey: cacheKey(IDENTITY, request, 1) };
    expect((await wrapped.generate(request, repeatOne)).text).toBe('called');
    expect((await wrapped.generate(request)).text).toBe('called');
    expect(calls.generate).toBe(2);
    expect(metered).toEqual(['generate', 'generate']);
    expect(waits).toHaveLength(1); // the second try waited for the minute's one request
  });

  it('keeps a score under its aux key, and a later path (another command) answers it from the store', async () => {
    const store = newStore();
    const score: ScoreRequest = { messages: [{ role: 'user', content: 'q' }], continuation: ' a' };
    const first = counting();
    const one = runPathOver(store, first.provider);
    expect(await one.wrapped.score?.(score)).toEqual(SCORED);
    expect(auxGet(store, 'score', IDENTITY, score)).toEqual(SCORED);

    const later = counting();
    const two = runPathOver(store, later.provider);
    expect(await two.wrapped.score?.(score)).toEqual(SCORED);
    expect(later.calls.score).toBe(0);
    expect(two.metered).toEqual([]);
  });

  it("passes embeddings through: the store keeps a protocol's reading of them, not a call's answer", async () => {
    const store = newStore();
    const { provider, calls } = counting();
    const { wrapped } = runPathOver(store, provider);
    await wrapped.embed?.({ input: ['x'] });
    await wrapped.embed?.({ input: ['x'] });
    expect(calls.embed).toBe(2);
    expect(store.aux.count({})).toBe(0);
  });
});
