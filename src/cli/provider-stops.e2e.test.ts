import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, cleanEnv, exportedCells, runCli } from '../test-support/cli/cli.js';
import { startOpenAIBatchesServer } from '../test-support/openai-batches-server.js';
import {
  completion,
  type ScriptedAnswer,
  startScriptedChatServer,
} from '../test-support/scripted-chat-server.js';

/**
 * Provider answers no retry can mend (docs/decisions.md#e35-a-refused-key-or-a-spent-quota-stops-the-model):
 * a refused key or a spent quota stops that model at once (no further call to it; the others go
 * on; exit 2 naming it), and a usage no call can have is kept out of the token totals, recorded
 * and counted (docs/decisions.md#e36-implausible-usage-is-not-counted).
 */

beforeAll(assertBuilt);

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const KEY = 'sk-sentinel-0123456789abcdef';

function workdir(n: number) {
  const dir = mkdtempSync(join(tmpdir(), 'waver-stops-'));
  writeFileSync(
    join(dir, 'suite.jsonl'),
    `${Array.from({ length: n }, (_, i) => JSON.stringify({ id: `t${i}`, prompt: `question ${i}` })).join('\n')}\n`,
  );
  writeFileSync(join(dir, 'waver.yaml'), 'backoff:\n  baseMs: 1\n  capMs: 5\n');
  return { dir, store: join(dir, 'store.db') };
}

const ok = completion({ content: 'fine' }, 'stop');

/** Two models on one server: `bad` answered `refusal`, `good` answered normally. */
async function twoModels(refusal: (key: string) => ScriptedAnswer) {
  const server = await startScriptedChatServer((_prompt, model, headers) =>
    model === 'bad' ? refusal(String(headers.authorization).replace('Bearer ', '')) : ok,
  );
  closers.push(server.close);
  return { server, models: `openai:bad@${server.url},openai:good@${server.url}` };
}

const unauthorized = (key: string): ScriptedAnswer => ({
  status: 401,
  body: {
    error: {
      message: `Incorrect API key provided: ${key}. You can find your API key at https://platform.openai.com/account/api-keys.`,
      type: 'invalid_request_error',
      code: 'invalid_api_key',
    },
  },
});

const quotaSpent = (): ScriptedAnswer => ({
  status: 429,
  body: {
    error: {
      message: 'You exceeded your current quota, please check your plan and billing details.',
      type: 'insufficient_quota',
      code: 'insufficient_quota',
    },
  },
});

describe('a refused key', () => {
  it('stops that model at its first call, the other model goes on, exit 2 names it with the key redacted', async () => {
    const { server, models } = await twoModels(unauthorized);
    const { dir, store } = workdir(6);
    const args = [
      'run',
      '--suite',
      'suite.jsonl',
      '--models',
      models,
      '--store',
      store,
      '--concurrency',
      '1',
    ];
    const r = await runCli(args, { cwd: dir, env: cleanEnv({ OPENAI_API_KEY: KEY }) });
    expect(server.callsOf('bad')).toBe(1);
    expect(server.callsOf('good')).toBe(6);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(
      /openai:bad@\S+: stopped at its first auth error, no further calls to it: .*HTTP 401 Incorrect API key provided/,
    );
    expect(`${r.stderr}${r.stdout}`).not.toContain(KEY);
    const cells = await exportedCells<{ model: { label: string }; status: string }>(store);
    expect(
      cells.filter((c) => c.model.label.startsWith('openai:good')).every((c) => c.status === 'done'),
    ).toBe(true);
    // The one call made is its cell's failure; the other five are pending, for the run after the fix.
    expect(cells.filter((c) => c.model.label.startsWith('openai:bad')).map((c) => c.status)).toEqual([
      'failed',
    ]);
  }, 60_000);

  it('at --concurrency 4 no call to it starts after the first 401', async () => {
    const { server, models } = await twoModels(unauthorized);
    const { dir, store } = workdir(40);
    const args = [
      'run',
      '--suite',
      'suite.jsonl',
      '--models',
      models,
      '--store',
      store,
      '--concurrency',
      '4',
    ];
    const r = await runCli(args, { cwd: dir, env: cleanEnv({ OPENAI_API_KEY: KEY }) });
    expect(r.code, r.stderr).toBe(2);
    expect(server.callsOf('bad')).toBeLessThanOrEqual(4);
    expect(server.callsOf('good')).toBe(40);
  }, 60_000);
});

describe("OpenAI's insufficient_quota", () => {
  it('is not retried as a rate limit: the model stops at its first call, exit 2 naming it', async () => {
    const { server, models } = await twoModels(quotaSpent);
    const { dir, store } = workdir(5);
    const args = [
      'run',
      '--suite',
      'suite.jsonl',
      '--models',
      models,
      '--store',
      store,
      '--concurrency',
      '1',
    ];
    const r = await runCli(args, { cwd: dir, env: cleanEnv({ OPENAI_API_KEY: KEY }) });
    expect(server.callsOf('bad')).toBe(1);
    expect(server.callsOf('good')).toBe(5);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(
      /openai:bad@\S+: stopped at its first quota error, no further calls to it: .*You exceeded your current quota/,
    );
  }, 60_000);
});

describe('--batch: a refused key at submission', () => {
  it('fails the batch once, not retried, and stops the model: exit 2 naming it', async () => {
    const server = await startOpenAIBatchesServer({
      refuse: { status: 401, error: { message: 'Incorrect API key provided', code: 'invalid_api_key' } },
    });
    closers.push(server.close);
    const { dir, store } = workdir(3);
    const args = ['run', '--suite', 'suite.jsonl', '--models', `openai:m@${server.url}`, '--store', store];
    const r = await runCli([...args, '--batch'], { cwd: dir, env: cleanEnv({ OPENAI_API_KEY: KEY }) });
    expect(r.code, r.stderr).toBe(2);
    // The reachability check, then the one upload: no retry.
    expect(server.refused()).toBe(2);
    expect(r.stderr).toMatch(/openai:m@\S+: stopped at its first auth error, no further calls to it: /);
  }, 60_000);
});

describe('usage no call can have', () => {
  it('is kept out of the token totals, recorded on the call and counted; the answer stands', async () => {
    const usages: Record<string, Record<string, unknown>> = {
      'question 0': { prompt_tokens: -5, completion_tokens: 3 },
      'question 1': { prompt_tokens: 10, completion_tokens: 1e15 },
      'question 2': { prompt_tokens: 2.5, completion_tokens: 3 },
      'question 3': { prompt_tokens: 7, completion_tokens: 2 },
    };
    const server = await startScriptedChatServer((prompt) =>
      completion({ content: 'fine' }, 'stop', usages[prompt]),
    );
    closers.push(server.close);
    const { dir, store } = workdir(4);
    const args = ['run', '--suite', 'suite.jsonl', '--models', `openai:m@${server.url}`, '--store', store];
    const r = await runCli([...args, '--format', 'json'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(server.calls()).toBe(4);
    const { summary } = JSON.parse(r.stdout);
    expect(summary).toMatchObject({ tokensIn: 7, tokensOut: 2, implausibleUsage: 3 });
    type Cell = {
      test: { id: string };
      status: string;
      response: { usage: { inputTokens: number; outputTokens: number } };
      attempts: { outcome: string; message?: string }[];
    };
    const cells = new Map((await exportedCells<Cell>(store)).map((c) => [c.test.id, c]));
    expect(cells.get('t1')?.status).toBe('done');
    expect(cells.get('t1')?.response.usage).toEqual({ inputTokens: 0, outputTokens: 0 });
    expect(cells.get('t1')?.attempts).toEqual([
      expect.objectContaining({
        outcome: 'ok',
        message: expect.stringMatching(/usage refused: outputTokens 1000000000000000 is not a token count/),
      }),
    ]);
    expect(cells.get('t0')?.attempts[0]?.message).toMatch(/inputTokens -5 is not a token count/);
    expect(cells.get('t2')?.attempts[0]?.message).toMatch(/inputTokens 2.5 is not a token count/);
    expect(cells.get('t3')?.attempts[0]?.message).toBeUndefined();
    const md = await runCli([...args, '--no-cache'], { cwd: dir });
    expect(md.stderr).toMatch(
      /^waver: suite\.jsonl · usage refused on 3 call\(s\): left out of the token totals$/m,
    );
  }, 60_000);
});
