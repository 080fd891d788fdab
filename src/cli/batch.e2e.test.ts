import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tinyModelMissing, tinyModelPath } from '../test-support/shared.js';
import { assertBuilt, exportedCells, queryStore, runCli, servedUrl, startCli } from './test-support/cli.js';

/**
 * `waver run --batch` against `waver serve` over the real tiny model: the openai: provider's batch
 * path end to end (upload, batch, poll, output file), and a run killed with SIGKILL after
 * submitting that resumes by polling its stored batches. The server's own request log and its
 * batch list say what it was asked.
 */

beforeAll(assertBuilt);

describe.skipIf(tinyModelMissing)(`waver run --batch against waver serve ${tinyModelMissing ?? ''}`, () => {
  let serve: ReturnType<typeof startCli>;
  let url: string;
  let client: OpenAI;
  /** The server's stderr: a line per request (method, path, status, time). */
  const serveLog: string[] = [];
  const requestsTo = (method: string, path: string) =>
    serveLog
      .join('')
      .split('\n')
      .filter((l) => l.startsWith(`${method} ${path} `)).length;

  beforeAll(async () => {
    serve = startCli(['serve', '--model', `gguf:${tinyModelPath}`, '--port', '0', '--context-size', '256']);
    serve.child.stderr?.on('data', (d: Buffer) => serveLog.push(d.toString()));
    url = await servedUrl(serve);
    client = new OpenAI({ baseURL: url, apiKey: 'none', maxRetries: 0 });
  }, 60_000);
  afterAll(async () => {
    serve?.child.kill('SIGTERM');
    await serve?.done;
  });

  function workdir(prompts: string[], yaml: string): { dir: string; store: string; args: string[] } {
    const dir = mkdtempSync(join(tmpdir(), 'waver-batch-e2e-'));
    const suite = join(dir, 'suite.jsonl');
    writeFileSync(suite, `${prompts.map((p, i) => JSON.stringify({ id: `s${i}`, prompt: p })).join('\n')}\n`);
    writeFileSync(join(dir, 'waver.yaml'), yaml);
    const store = join(dir, 'store.db');
    return {
      dir,
      store,
      args: [
        'run',
        '--suite',
        suite,
        '--models',
        `openai:stories260K.gguf@${url}`,
        '--store',
        store,
        '--max-tokens',
        '12',
        '--batch',
      ],
    };
  }

  async function serverBatches(): Promise<OpenAI.Batches.Batch[]> {
    return (await client.batches.list()).data;
  }

  it('stores every cell from the batch output; a later interactive run finds them all stored', async () => {
    const prompts = ['Once upon a time', 'The cat sat', 'Lily went to', 'A big dog', 'The sun'];
    const { dir, store, args } = workdir(prompts, 'batchPollMs: 50\n');
    const before = (await serverBatches()).length;
    const chatBefore = requestsTo('POST', '/v1/chat/completions');
    const r = await runCli(args, { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/batches 1\/1 ended, requests 5\/5 answered/);
    const batches = await serverBatches();
    expect(batches.length - before).toBe(1);
    expect(batches[0]?.request_counts).toEqual({ total: 5, completed: 5, failed: 0 });
    expect(requestsTo('POST', '/v1/chat/completions')).toBe(chatBefore);

    const cells = await exportedCells(store);
    expect(cells).toHaveLength(5);
    for (const c of cells) {
      expect(c.status).toBe('done');
      expect(c.response.usage.outputTokens).toBe(12);
    }
    // The same suite interactively: every cell is the batch's answer, no call is made.
    const interactive = await runCli(args.slice(0, -1), { cwd: dir });
    expect(interactive.code, interactive.stderr).toBe(0);
    expect(requestsTo('POST', '/v1/chat/completions')).toBe(chatBefore);
    expect(queryStore<{ n: number }>(store, 'SELECT count(*) AS n FROM responses')[0]?.n).toBe(5);
  }, 120_000);

  it('--no-batch-wait submits and stops with exit 3; the same command later collects the answers', async () => {
    const { dir, store, args } = workdir(['Once upon a time', 'The cat sat'], 'batchPollMs: 50\n');
    const noWait = [...args, '--no-batch-wait'];
    const first = await runCli(noWait, { cwd: dir });
    expect(first.code, first.stderr).toBe(3);
    const done = () =>
      queryStore<{ n: number }>(store, "SELECT count(*) AS n FROM cells WHERE status = 'done'")[0]?.n ?? 0;
    expect(queryStore<{ n: number }>(store, 'SELECT count(*) AS n FROM batches')[0]?.n).toBe(1);
    expect(done()).toBe(0);
    // Each later run polls once: the batch ends within a few of them on the tiny model.
    let later = first;
    for (let i = 0; i < 40 && later.code !== 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
      later = await runCli(noWait, { cwd: dir });
    }
    expect(later.code, later.stderr).toBe(0);
    expect(done()).toBe(2);
    expect(queryStore<{ n: number }>(store, 'SELECT count(*) AS n FROM batches')[0]?.n).toBe(1);
  }, 120_000);

  it('kill -9 after submitting, then the same command: polls the stored batches, submits none twice', async () => {
    const prompts = Array.from({ length: 5 }, (_, i) => `Story number ${i}`);
    // Three batches of at most 2 requests, first polled 3 s after each is accepted.
    const { dir, store, args } = workdir(prompts, 'batchPollMs: 3000\nbatchMaxRequests: 2\n');
    const before = (await serverBatches()).length;
    const first = startCli(args, { cwd: dir });
    const end = Date.now() + 60_000;
    const recorded = () => {
      try {
        // Submitted: the server has made the batch (an `uploaded` one may not be made yet).
        return (
          queryStore<{ n: number }>(store, "SELECT count(*) AS n FROM batches WHERE state = 'submitted'")[0]
            ?.n ?? 0
        );
      } catch {
        return 0; // the store or its table not made yet
      }
    };
    while (recorded() < 3) {
      if (Date.now() > end) throw new Error('the run recorded no batches');
      await new Promise((r) => setTimeout(r, 10));
    }
    first.child.kill('SIGKILL');
    const killed = await first.done;
    expect(killed.signal).toBe('SIGKILL');
    expect(queryStore<{ n: number }>(store, 'SELECT count(*) AS n FROM cells')[0]?.n).toBe(0);
    expect((await serverBatches()).length - before).toBe(3);

    const uploadsBefore = requestsTo('POST', '/v1/files');
    const again = await runCli(args, { cwd: dir });
    expect(again.code, again.stderr).toBe(0);
    const batches = (await serverBatches()).slice(0, (await serverBatches()).length - before);
    expect(batches).toHaveLength(3);
    expect(batches.reduce((n, b) => n + (b.request_counts?.total ?? 0), 0)).toBe(5);
    expect(requestsTo('POST', '/v1/files')).toBe(uploadsBefore);
    expect(queryStore<{ state: string }>(store, 'SELECT state FROM batches').map((b) => b.state)).toEqual([
      'collected',
      'collected',
      'collected',
    ]);
    expect(
      queryStore<{ n: number }>(store, "SELECT count(*) AS n FROM cells WHERE status = 'done'")[0]?.n,
    ).toBe(5);
  }, 120_000);
});
