import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { ProviderError } from '../models/errors.js';
import { MIGRATIONS, openStore } from '../store/store.js';
import { connectionOf } from '../store/test-support/connection.js';
import { auxCall, auxCount, auxGet, auxKey } from './aux-cache.js';

const noWait = async () => {};

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
    const flaky = async () => {
      calls++;
      if (calls < 3) throw new ProviderError('rate_limit', 'slow down', { status: 429 });
      return 'ok';
    };
    expect(await auxCall(store, 'embed', 'm', { i: 1 }, flaky, { sleep: noWait })).toBe('ok');
    expect(calls).toBe(3);
    const fatal = async () => {
      throw new ProviderError('auth', 'bad key');
    };
    await expect(auxCall(store, 'embed', 'm', { i: 2 }, fatal, { sleep: noWait })).rejects.toThrow('bad key');
    const always = async () => {
      throw new ProviderError('server', 'down', { status: 503 });
    };
    await expect(
      auxCall(store, 'embed', 'm', { i: 3 }, always, {
        sleep: noWait,
        retry: { maxRetries: 2, baseMs: 1, capMs: 1, maxRetryAfterMs: 1 },
      }),
    ).rejects.toThrow('down');
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
