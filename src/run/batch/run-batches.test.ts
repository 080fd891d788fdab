import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { validateConfig } from '../../config/load.js';
import { formatRunEnd } from '../../report/run-summary.js';
import { openStore } from '../../store/store.js';
import {
  type MessageBatchesServer,
  startMessageBatchesServer,
} from '../../test-support/message-batches-server.js';
import { scratchDir } from '../../test-support/scratch.js';
import { tinyModelMissing, tinyModelPath } from '../../test-support/shared.js';
import { runRole } from '../roles.js';
import { runSuite } from '../run-suite.js';
import { suiteOf } from '../suite.js';
import type { Progress } from '../types.js';

/** `batch` on against a loopback server speaking Anthropic's Message Batches protocol. */

let server: MessageBatchesServer;
beforeEach(async () => {
  server = await startMessageBatchesServer({ pollsToEnd: 2 });
});
afterEach(() => server.close());

const configFor = (store: string, extra: Record<string, unknown> = {}) =>
  validateConfig({
    models: [`anthropic:claude-x@${server.origin}`],
    store,
    batch: true,
    batchPollMs: 5,
    ...extra,
  });

const storedCells = (path: string) => {
  const store = openStore(path, { readonly: true });
  try {
    return [...store.cells.all()];
  } finally {
    store.close();
  }
};

describe('--batch with anthropic: (Message Batches)', () => {
  it('stores answers as cells, errored results as failed cells with the reason, and asks expired ones again', async () => {
    const store = join(scratchDir('waver-batch-'), 'store.db');
    const suite = suiteOf('batched', [
      { id: 'a', prompt: 'first' },
      { id: 'b', prompt: 'second ERRORED' },
      { id: 'c', prompt: 'third EXPIRES' },
      { id: 'd', prompt: 'fourth' },
      { id: 'e', prompt: 'first' }, // the same request as a: one request for both
    ]);
    const seen: Progress[] = [];
    const r = await runSuite(configFor(store), suite, { env: {}, onProgress: (p) => seen.push(p) });

    expect(server.created.map((b) => b.prompts.sort())).toEqual([
      ['first', 'fourth', 'second ERRORED', 'third EXPIRES'],
      ['third EXPIRES'],
    ]);
    expect(server.messages()).toBe(0);
    expect(r.summary.coverage).toMatchObject({ total: 5, done: 4, failed: 1, pending: 0 });
    expect(r.complete).toBe(false);
    const cells = new Map(storedCells(store).map((c) => [c.testId, c]));
    expect(cells.get('a')?.response?.text).toBe('echo: first');
    expect(cells.get('e')?.response?.text).toBe('echo: first');
    expect(cells.get('c')?.response?.text).toBe('echo: third EXPIRES');
    expect(cells.get('b')).toMatchObject({ status: 'failed', error: { kind: 'client' } });
    expect(cells.get('b')?.error?.message).toMatch(/prompt refused/);
    expect(r.models[0]?.failures).toEqual([expect.objectContaining({ kind: 'client', count: 1 })]);
    const last = seen.at(-1);
    expect(last?.batches).toEqual({ batches: 2, ended: 2, requests: 5, answered: 5 });

    const s = openStore(store, { readonly: true });
    try {
      expect(s.batches.list().map((b) => [b.state, b.requests])).toEqual([
        ['collected', 4],
        ['collected', 1],
      ]);
    } finally {
      s.close();
    }

    // A later interactive run: the batch's answers are the cache; only the failed cell is called.
    const again = await runSuite(
      validateConfig({ models: [`anthropic:claude-x@${server.origin}`], store }),
      suite,
      {
        env: {},
      },
    );
    expect(server.messages()).toBe(1);
    expect(again.complete).toBe(true);
    expect(again.summary.coverage.cached).toBe(4);
  });

  it('a stopped run leaves its batch open in the store; the next run polls it and submits nothing', async () => {
    const store = join(scratchDir('waver-batch-'), 'store.db');
    const suite = suiteOf('resumed', [
      { id: 'a', prompt: 'one' },
      { id: 'b', prompt: 'two' },
      { id: 'c', prompt: 'three' },
    ]);
    const stop = new AbortController();
    const first = await runSuite(configFor(store, { batchPollMs: 60_000 }), suite, {
      env: {},
      signal: stop.signal,
      onProgress: (p) => {
        if (p.batches && p.batches.batches > 0) stop.abort();
      },
    });
    expect(first.summary.aborted).toBe(true);
    expect(server.created).toHaveLength(1);
    expect(storedCells(store)).toHaveLength(0);

    const retrievesBefore = server.retrieves();
    const second = await runSuite(configFor(store), suite, { env: {} });
    expect(server.created).toHaveLength(1);
    expect(server.retrieves()).toBeGreaterThan(retrievesBefore);
    expect(second.complete).toBe(true);
    expect(storedCells(store).map((c) => c.response?.text)).toEqual([
      'echo: one',
      'echo: two',
      'echo: three',
    ]);
  });

  it('splits cells into batches of batchMaxRequests', async () => {
    const store = join(scratchDir('waver-batch-'), 'store.db');
    const suite = suiteOf(
      'split',
      Array.from({ length: 7 }, (_, i) => ({ id: `t${i}`, prompt: `prompt ${i}` })),
    );
    const r = await runSuite(configFor(store, { batchMaxRequests: 3 }), suite, { env: {} });
    expect(r.complete).toBe(true);
    expect(server.created.map((b) => b.prompts.length)).toEqual([3, 3, 1]);
  });

  it('a judge role batches too: its answers come back from the batch', async () => {
    const store = join(scratchDir('waver-batch-'), 'store.db');
    const config = validateConfig({
      judge: `anthropic:claude-j@${server.origin}`,
      store,
      batch: true,
      batchPollMs: 5,
    });
    const r = await runRole(
      config,
      'judge',
      'verdicts',
      [
        {
          temperature: 0,
          maxTokens: 8,
          tests: [
            { id: 'v1', prompt: 'is it so?' },
            { id: 'v2', prompt: 'and this?' },
          ],
        },
      ],
      { env: {} },
    );
    expect(server.created).toHaveLength(1);
    expect(server.messages()).toBe(0);
    expect(r.answers.get('v1')).toEqual({ ok: true, text: 'echo: is it so?' });
    expect(r.answers.get('v2')).toEqual({ ok: true, text: 'echo: and this?' });
  });

  it('batchWait false: each run submits or collects what has ended and returns; no batch is submitted twice', async () => {
    const store = join(scratchDir('waver-batch-'), 'store.db');
    const suite = suiteOf('unattended', [
      { id: 'a', prompt: 'one' },
      { id: 'b', prompt: 'two' },
    ]);
    const config = configFor(store, { batchWait: false });
    const submitted = await runSuite(config, suite, { env: {} });
    expect(server.created).toHaveLength(1);
    expect(server.retrieves()).toBe(0);
    expect(submitted.summary.coverage).toMatchObject({ done: 0, pending: 2 });
    expect(submitted.complete).toBe(false);
    expect(submitted.summary.batchNotes).toEqual([
      `anthropic:claude-x@${server.origin}: 1 batch(es) still open at the provider; the same command later collects them`,
    ]);
    // The batch ends on its second retrieve: the next run finds it running, the one after collects it.
    const running = await runSuite(config, suite, { env: {} });
    expect(running.summary.coverage.pending).toBe(2);
    const collected = await runSuite(config, suite, { env: {} });
    expect(collected.complete).toBe(true);
    expect(server.created).toHaveLength(1);
    // One status poll per later run, and the SDK's own retrieve for the results' URL.
    expect(server.retrieves()).toBe(3);
  });

  it('a batch that cannot be polled stays open, the run says why, and the next run collects it', async () => {
    const store = join(scratchDir('waver-batch-'), 'store.db');
    const suite = suiteOf('outage', [{ id: 'a', prompt: 'one' }]);
    server.failRetrieves = true;
    const during = await runSuite(
      configFor(store, { maxRetries: 1, backoff: { baseMs: 1, capMs: 1 } }),
      suite,
      {
        env: {},
      },
    );
    expect(server.retrieves()).toBe(2);
    expect(during.summary.coverage.pending).toBe(1);
    expect(during.summary.batchNotes?.[0]).toMatch(
      /batch msgbatch_\w+ could not be polled \(.*outage.*\); it stays open/,
    );
    expect(formatRunEnd([during], false)[1]).toMatch(
      /^waver: outage · anthropic:claude-x@.*could not be polled/,
    );
    server.failRetrieves = false;
    const after = await runSuite(configFor(store), suite, { env: {} });
    expect(after.complete).toBe(true);
    expect(server.created).toHaveLength(1);
  });

  it('cells of a chunk another worker held and gave up are counted once they are batched: the progress stays whole', async () => {
    const path = join(scratchDir('waver-batch-'), 'store.db');
    // 40 tests: chunk 0 (32 tests), held by another worker of this host, and chunk 1 (8 tests).
    const suite = suiteOf(
      'shared',
      Array.from({ length: 40 }, (_, i) => ({ id: `t${i}`, prompt: `question ${i}` })),
    );
    let other: ReturnType<typeof openStore> | undefined;
    const seen: Progress[] = [];
    try {
      const r = await runSuite(configFor(path), suite, {
        env: {},
        onStart: ({ models }) => {
          other = openStore(path);
          const holder = { owner: 'other', pid: process.pid, host: hostname(), startedMs: Date.now() };
          const key = { suiteHash: suite.hash, modelIdentity: models[0]?.identity as string, chunk: 0 };
          expect(other.leases.claim(key, holder)).toBe('claimed');
        },
        onProgress: (p) => {
          seen.push(p);
          // This run's own batch collected: the other worker stops, its chunk free to take over.
          if (p.batches && p.batches.ended >= 1) other?.leases.release('other');
        },
      });
      expect(server.created.map((b) => b.prompts.length)).toEqual([8, 32]);
      expect(r.summary.coverage).toMatchObject({ total: 40, done: 40, pending: 0 });
      expect(seen.at(-1)).toMatchObject({ total: 40, done: 40, pending: 0 });
      expect(seen.every((p) => p.done + p.failed <= p.total)).toBe(true);
    } finally {
      other?.close();
    }
  });

  it.skipIf(tinyModelMissing)(
    'a model without a batch API in the same run is called as usual, at the same time',
    async () => {
      const store = join(scratchDir('waver-batch-'), 'store.db');
      const suite = suiteOf('mixed', [
        { id: 'a', prompt: 'Once upon a time' },
        { id: 'b', prompt: 'The cat sat' },
      ]);
      const gguf = `gguf:${tinyModelPath}?ctx=256`;
      const seen: Progress[] = [];
      const r = await runSuite(
        configFor(store, { models: [`anthropic:claude-x@${server.origin}`, gguf], params: { maxTokens: 4 } }),
        suite,
        { env: {}, onProgress: (p) => seen.push(p) },
      );
      expect(r.complete).toBe(true);
      expect(server.created).toHaveLength(1);
      expect(server.created[0]?.prompts).toHaveLength(2);
      expect(r.summary.coverage).toMatchObject({ total: 4, done: 4 });
      expect(seen.at(-1)).toMatchObject({ total: 4, done: 4, batches: { batches: 1, ended: 1 } });
      const cells = storedCells(store);
      expect(cells.filter((c) => c.model.startsWith('gguf:') && c.status === 'done')).toHaveLength(2);
    },
    60_000,
  );
});
