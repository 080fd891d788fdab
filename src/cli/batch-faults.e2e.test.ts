import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, queryStore, runCli } from '../test-support/cli/cli.js';
import {
  type OpenAIBatchesServer,
  type OpenAIBatchesServerOptions,
  startOpenAIBatchesServer,
} from '../test-support/openai-batches-server.js';

/**
 * `--batch` against a loopback OpenAI batch server that misbehaves as providers do: several
 * batching processes on one store, a batch the provider forgot, a broken or repeated output line.
 */

beforeAll(assertBuilt);

let server: OpenAIBatchesServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(n: number, yaml: string, opts: OpenAIBatchesServerOptions = {}) {
  server = await startOpenAIBatchesServer(opts);
  const dir = mkdtempSync(join(tmpdir(), 'waver-batch-faults-'));
  writeFileSync(
    join(dir, 'suite.jsonl'),
    `${Array.from({ length: n }, (_, i) => JSON.stringify({ id: `t${i}`, prompt: `batched ${i}` })).join('\n')}\n`,
  );
  writeFileSync(join(dir, 'waver.yaml'), yaml);
  const store = join(dir, 'store.db');
  const args = [
    'run',
    '--suite',
    'suite.jsonl',
    '--models',
    `openai:m@${server.url}`,
    '--store',
    store,
    '--batch',
  ];
  return { dir, store, args, server };
}

const count = (store: string, sql: string) => queryStore<{ n: number }>(store, sql)[0]?.n ?? 0;

describe('several --batch processes on one store', () => {
  it('batch each prompt once between them: batches are leased like chunks of cells', async () => {
    const { dir, store, args, server } = await setup(1000, 'batchPollMs: 50\nbatchMaxRequests: 100\n');
    const runs = await Promise.all([1, 2, 3].map(() => runCli(args, { cwd: dir })));
    const twice = [...server.batchedByPrompt().values()].filter((k) => k > 1).length;
    console.log(
      `three --batch processes, 1,000 prompts: ${server.created.length} batches created, ${twice} prompts batched twice; exits ${runs.map((r) => r.code).join(', ')}`,
    );
    expect(runs.map((r) => r.code)).toEqual([0, 0, 0]);
    expect(twice).toBe(0);
    expect(server.batchedByPrompt().size).toBe(1000);
    expect(server.created.length).toBeLessThanOrEqual(10 + 2);
    expect(count(store, "SELECT count(*) AS n FROM cells WHERE status = 'done'")).toBe(1000);
    // A later run finds every cell stored.
    const again = await runCli(args, { cwd: dir });
    expect(again.code, again.stderr).toBe(0);
  }, 120_000);
});

describe('a batch the provider forgot', () => {
  it('gives its cells back to be submitted again, with a line saying so', async () => {
    const { dir, store, args, server } = await setup(6, 'batchPollMs: 50\n');
    const first = await runCli([...args, '--no-batch-wait'], { cwd: dir });
    expect(first.code, first.stderr).toBe(3);
    expect(server.created).toHaveLength(1);
    // The server restarts: it answers 404 for the batch and its files.
    server.forget();
    const second = await runCli(args, { cwd: dir });
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toMatch(
      /openai:m@\S+: batch batch_\S+: the provider does not know it \(.*404.*\); its 6 unanswered request\(s\) are submitted again/,
    );
    expect(server.created).toHaveLength(2);
    expect(count(store, "SELECT count(*) AS n FROM cells WHERE status = 'done'")).toBe(6);
    expect(count(store, "SELECT count(*) AS n FROM batches WHERE state IN ('uploaded', 'submitted')")).toBe(
      0,
    );
  }, 60_000);
});

describe('a batch output file', () => {
  it("with a malformed line: every good line is stored, the bad one is its cell's error", async () => {
    const { dir, store, args } = await setup(5, 'batchPollMs: 50\n', {
      // The second line cut short: not JSON, though its custom_id is still there to read.
      outputLines: (lines) => lines.map((l, i) => (i === 1 ? l.slice(0, l.indexOf('"response"') + 20) : l)),
    });
    const r = await runCli(args, { cwd: dir });
    expect(r.code, r.stderr).toBe(3);
    expect(count(store, "SELECT count(*) AS n FROM cells WHERE status = 'done'")).toBe(4);
    const failed = queryStore<{ test_id: string; error_kind: string; error_message: string }>(
      store,
      "SELECT test_id, error_kind, error_message FROM cells WHERE status = 'failed'",
    );
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ test_id: 't1', error_kind: 'bad_response' });
    expect(failed[0]?.error_message).toMatch(/a malformed batch output line: it is not JSON/);
  }, 60_000);

  it('repeating a custom_id: the first answer is kept, its tokens counted once, and a line says so', async () => {
    const { dir, store, args } = await setup(3, 'batchPollMs: 50\n', {
      outputLines: (lines) => [...lines, (lines[0] as string).replace('echo: ', 'later: ')],
    });
    const r = await runCli([...args, '--format', 'json'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /batch batch_\S+: 1 output line\(s\) repeat a custom_id read already; the first line read is kept/,
    );
    const summary = JSON.parse(r.stdout).summary;
    expect(summary.tokensOut).toBe(3 * 2);
    const texts = queryStore<{ text: string }>(store, 'SELECT text FROM responses ORDER BY text').map(
      (t) => t.text,
    );
    expect(texts).toEqual(['echo: batched 0', 'echo: batched 1', 'echo: batched 2']);
  }, 60_000);
});
