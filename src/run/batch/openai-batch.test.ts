import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateConfig } from '../../config/load.js';
import type { FetchFn } from '../../models/types.js';
import { openStore } from '../../store/store.js';
import { scratchDir } from '../../test-support/scratch.js';
import { servedTinyModel } from '../../test-support/served-tiny-model.js';
import { tinyModelMissing } from '../../test-support/shared.js';
import { runSuite } from '../run-suite.js';
import { suiteOf } from '../suite.js';

/**
 * openai: batches against waver serve's batch API over the tiny model, when the answer to
 * creating the batch is lost (the connection drops after the server made it, or before): the
 * batch made over the uploaded file is found again, never made twice (docs/batch.md#resume).
 */
describe.skipIf(tinyModelMissing)(
  `openai: batches whose creation answer is lost ${tinyModelMissing ?? ''}`,
  () => {
    const tiny = servedTinyModel();

    const serverBatches = async () => (await tiny.client.batches.list()).data.length;
    const isCreate = (input: Parameters<FetchFn>[0], init?: RequestInit) =>
      init?.method === 'POST' && String(input instanceof Request ? input.url : input).endsWith('/v1/batches');
    const config = (store: string) =>
      validateConfig({
        models: [`openai:tiny@${tiny.server.url}`],
        store,
        batch: true,
        batchPollMs: 20,
        params: { maxTokens: 6 },
      });
    const cellsOf = (path: string) => {
      const store = openStore(path, { readonly: true });
      try {
        return { cells: [...store.cells.all()], batches: store.batches.list() };
      } finally {
        store.close();
      }
    };
    const suite = (name: string) =>
      suiteOf(
        name,
        ['Once upon a time', 'The cat sat', 'Lily went to'].map((prompt, i) => ({ id: `t${i}`, prompt })),
      );

    it('a create whose answer is lost after the server made the batch: the retry finds it', async () => {
      const store = join(scratchDir('waver-openai-batch-'), 'store.db');
      const before = await serverBatches();
      let lost = 0;
      const dropping: FetchFn = async (input, init) => {
        const res = await fetch(input, init);
        if (isCreate(input, init) && lost++ === 0) {
          await res.arrayBuffer();
          throw new TypeError('fetch failed', { cause: { code: 'ECONNRESET' } });
        }
        return res;
      };
      const r = await runSuite(config(store), suite('lost-after'), { env: {}, fetch: dropping });
      // The retry found the batch among the server's: it asked to create none again.
      expect(lost).toBe(1);
      expect(r.complete).toBe(true);
      expect(await serverBatches()).toBe(before + 1);
      const { cells, batches } = cellsOf(store);
      expect(cells.map((c) => c.status)).toEqual(['done', 'done', 'done']);
      expect(batches.map((b) => b.state)).toEqual(['collected']);
      expect(batches[0]?.providerId).toMatch(/^batch_/);
    }, 60_000);

    it('a run stopped after uploading, before the batch is made: the next run makes it, once', async () => {
      const store = join(scratchDir('waver-openai-batch-'), 'store.db');
      const before = await serverBatches();
      const stop = new AbortController();
      const stopping: FetchFn = async (input, init) => {
        if (isCreate(input, init)) {
          stop.abort();
          throw new TypeError('fetch failed', { cause: { code: 'ECONNRESET' } });
        }
        return fetch(input, init);
      };
      const first = await runSuite(config(store), suite('lost-before'), {
        env: {},
        fetch: stopping,
        signal: stop.signal,
      });
      expect(first.summary.aborted).toBe(true);
      expect(await serverBatches()).toBe(before);
      expect(cellsOf(store).batches.map((b) => [b.state, b.providerId])).toEqual([['uploaded', undefined]]);

      const second = await runSuite(config(store), suite('lost-before'), { env: {} });
      expect(second.complete).toBe(true);
      expect(await serverBatches()).toBe(before + 1);
      const { cells, batches } = cellsOf(store);
      expect(cells.map((c) => c.status)).toEqual(['done', 'done', 'done']);
      expect(batches.map((b) => b.state)).toEqual(['collected']);
      // The third run has nothing to ask.
      await runSuite(config(store), suite('lost-before'), { env: {} });
      expect(await serverBatches()).toBe(before + 1);
    }, 60_000);

    it('a batch cancelled at the server: the requests it left unanswered go in a new batch', async () => {
      const store = join(scratchDir('waver-openai-batch-'), 'store.db');
      const before = await serverBatches();
      let cancelled: string | undefined;
      const cancelling: FetchFn = async (input, init) => {
        const res = await fetch(input, init);
        if (isCreate(input, init) && cancelled === undefined) {
          const batch = (await res.clone().json()) as { id: string };
          cancelled = batch.id;
          await tiny.client.batches.cancel(batch.id);
        }
        return res;
      };
      // Twenty requests: the cancel arrives while the server is still answering them.
      const many = suiteOf(
        'cancelled',
        Array.from({ length: 20 }, (_, i) => ({ id: `t${i}`, prompt: `Story ${i}` })),
      );
      const r = await runSuite(config(store), many, { env: {}, fetch: cancelling });
      expect(r.complete).toBe(true);
      const first = await tiny.client.batches.retrieve(cancelled as string);
      expect(first.status).toBe('cancelled');
      const answeredFirst = first.request_counts?.completed ?? 0;
      expect(answeredFirst).toBeLessThan(20);
      expect(await serverBatches()).toBe(before + 2);
      const second = (await tiny.client.batches.list()).data[0];
      expect(second?.request_counts?.total).toBe(20 - answeredFirst);
      const { cells, batches } = cellsOf(store);
      expect(cells.filter((c) => c.status === 'done')).toHaveLength(20);
      expect(batches.map((b) => [b.state, b.note])).toEqual([
        ['collected', 'the batch cancelled'],
        ['collected', undefined],
      ]);
    }, 60_000);
  },
);
