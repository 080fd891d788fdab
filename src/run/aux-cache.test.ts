import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { ProviderError } from '../models/errors.js';
import type { ModelProvider } from '../models/types.js';
import { MIGRATIONS, openStore } from '../store/store.js';
import { connectionOf } from '../test-support/store/connection.js';
import { auxCall, auxCount, auxGet, auxKey } from './aux-cache.js';
import { type CallLimits, callPath } from './call-path/call-path.js';
import { wrapProvider } from './call-path/wrap-provider.js';

const noWait = async () => {};

/** A provider whose embeddings come from `embed`, in the call path a ProviderPool would give it. */
function embedderThroughPath(
  embed: NonNullable<ModelProvider['embed']>,
  limits: Partial<CallLimits> = {},
): ModelProvider & Required<Pick<ModelProvider, 'embed'>> {
  const bare: ModelProvider = {
    provider: 'gguf',
    modelId: 'm',
    identity: 'm',
    capabilities: {
      chat: false,
      tokenLogprobs: false,
      topLogprobs: 0,
      fullDistribution: false,
      scoreContinuation: false,
      embeddings: true,
    },
    generate: async () => {
      throw new ProviderError('unsupported', 'embeddings only');
    },
    embed,
  };
  const wrapped = wrapProvider(
    bare,
    callPath({ timeoutMs: 1000, maxRetries: 4, ...limits }, { sleep: noWait }),
  );
  return wrapped as ModelProvider & Required<Pick<ModelProvider, 'embed'>>;
}

describe('auxCall: embeddings and scores kept in the store', () => {
  it('calls once, then answers from aux_results, also after the store is reopened', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'waver-aux-')), 'store.db');
    let calls = 0;
    const embed = async () => {
      calls++;
      return { embeddings: [[0.5, -1]] };
    };
    let store = openStore(path);
    const request = { input: ['hello'] };
    expect(await auxCall(store, 'embed', 'gguf:m#1', request, embed)).toEqual({ embeddings: [[0.5, -1]] });
    expect(await auxCall(store, 'embed', 'gguf:m#1', { input: ['hello'] }, embed)).toEqual({
      embeddings: [[0.5, -1]],
    });
    expect(calls).toBe(1);
    store.close();
    // A killed run resumes: what was stored is not asked again.
    store = openStore(path);
    await auxCall(store, 'embed', 'gguf:m#1', request, embed);
    expect(calls).toBe(1);
    // Another identity or kind is another row.
    await auxCall(store, 'embed', 'gguf:other#2', request, embed);
    await auxCall(store, 'score', 'gguf:m#1', request, embed);
    expect(calls).toBe(3);
    expect(auxCount(store)).toBe(3);
    expect(auxCount(store, { kind: 'score' })).toBe(1);
    expect(auxGet(store, 'embed', 'gguf:m#1', request)).toEqual({ embeddings: [[0.5, -1]] });
    expect(auxGet(store, 'embed', 'gguf:m#1', { input: ['never asked'] })).toBeUndefined();
    const row = connectionOf(store)
      .prepare('SELECT * FROM aux_results WHERE key = ?')
      .get(auxKey('embed', 'gguf:m#1', request)) as {
      kind: string;
      identity: string;
      request_json: string;
    };
    expect(row).toMatchObject({ kind: 'embed', identity: 'gguf:m#1', request_json: '{"input":["hello"]}' });
    store.close();
  });

  it('two identical concurrent asks make one call', async () => {
    const store = openStore(':memory:');
    let calls = 0;
    const slow = () =>
      new Promise<number>((resolve) => {
        calls++;
        setTimeout(() => resolve(42), 20);
      });
    const [a, b] = await Promise.all([
      auxCall(store, 'score', 'm', { x: 1 }, slow),
      auxCall(store, 'score', 'm', { x: 1 }, slow),
    ]);
    expect([a, b, calls]).toEqual([42, 42, 1]);
    store.close();
  });

  it('retries transient provider errors and stores nothing when the call finally fails', async () => {
    const store = openStore(':memory:');
    let calls = 0;
    const flaky = embedderThroughPath(async () => {
      calls++;
      if (calls < 3) throw new ProviderError('rate_limit', 'slow down', { status: 429 });
      return { embeddings: [[1]] };
    });
    expect(await auxCall(store, 'embed', 'm', { i: 1 }, () => flaky.embed({ input: ['1'] }))).toEqual({
      embeddings: [[1]],
    });
    expect(calls).toBe(3);
    const fatal = embedderThroughPath(async () => {
      throw new ProviderError('auth', 'bad key');
    });
    await expect(auxCall(store, 'embed', 'm', { i: 2 }, () => fatal.embed({ input: ['2'] }))).rejects.toThrow(
      'bad key',
    );
    const always = embedderThroughPath(
      async () => {
        throw new ProviderError('server', 'down', { status: 503 });
      },
      { maxRetries: 2, backoff: { baseMs: 1, capMs: 1, maxRetryAfterMs: 1 } },
    );
    await expect(
      auxCall(store, 'embed', 'm', { i: 3 }, () => always.embed({ input: ['3'] })),
    ).rejects.toThrow('down');
    expect(auxCount(store)).toBe(1);
    store.close();
  });

  it('an aux call that hangs times out and is retried like a cell, then stored', async () => {
    const store = openStore(':memory:');
    let calls = 0;
    const hangsOnce = embedderThroughPath(
      () => {
        calls++;
        if (calls > 1) return Promise.resolve({ embeddings: [[0.25]] });
        // Ignores its signal: only the deadline gets the caller out.
        return new Promise<never>(() => {});
      },
      { timeoutMs: 30, maxRetries: 1 },
    );
    const t0 = performance.now();
    const request = { input: ['slow'] };
    expect(await auxCall(store, 'embed', 'm', request, () => hangsOnce.embed(request))).toEqual({
      embeddings: [[0.25]],
    });
    expect(calls).toBe(2);
    expect(performance.now() - t0).toBeLessThan(2000);
    expect(auxGet(store, 'embed', 'm', request)).toEqual({ embeddings: [[0.25]] });
    // With no retry left, the timeout is the caller's error and nothing is stored.
    const neverAnswers = embedderThroughPath(() => new Promise<never>(() => {}), {
      timeoutMs: 20,
      maxRetries: 0,
    });
    await expect(
      auxCall(store, 'embed', 'm', { input: ['never'] }, () => neverAnswers.embed({ input: ['never'] })),
    ).rejects.toMatchObject({ kind: 'timeout' });
    expect(auxCount(store)).toBe(1);
    store.close();
  });

  it('refuses a request that carries a secret-named member', async () => {
    const store = openStore(':memory:');
    await expect(auxCall(store, 'embed', 'm', { apiKey: 'sk-x' }, async () => 1)).rejects.toThrow(/secret/);
    store.close();
  });

  it('the aux_results migration is additive: a store made before it gains the table', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'waver-aux-old-')), 'store.db');
    const db = new Database(path);
    (MIGRATIONS[0] as (d: Database.Database) => void)(db);
    db.pragma('user_version = 1');
    db.close();
    const store = openStore(path);
    expect(store.schemaVersion).toBe(MIGRATIONS.length);
    expect(auxCount(store)).toBe(0);
    store.close();
  });
});
