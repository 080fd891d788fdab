import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, exportedCells, runCli } from '../test-support/cli/cli.js';
import { REFUSAL_TEXT, startMessageBatchesServer } from '../test-support/message-batches-server.js';
import { startOpenAIBatchesServer } from '../test-support/openai-batches-server.js';
import { completion, startScriptedChatServer } from '../test-support/scripted-chat-server.js';

/**
 * A model that declines is answering (docs/decisions.md#e34-a-refusal-is-an-answer): a refusal is
 * a done cell, called once, its text the refusal and its finish reason kept, counted in the run's
 * summary; a 200 with no answer in it is not asked again and again.
 */

beforeAll(assertBuilt);

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A suite of these prompts (ids t0, t1, ...), a fast backoff, and the args of `waver run` on them. */
function workdir(prompts: string[], model: string, yaml = '') {
  const dir = mkdtempSync(join(tmpdir(), 'waver-refusals-'));
  writeFileSync(
    join(dir, 'suite.jsonl'),
    `${prompts.map((prompt, i) => JSON.stringify({ id: `t${i}`, prompt })).join('\n')}\n`,
  );
  writeFileSync(join(dir, 'waver.yaml'), `backoff:\n  baseMs: 1\n  capMs: 5\n${yaml}`);
  const store = join(dir, 'store.db');
  return { dir, store, args: ['run', '--suite', 'suite.jsonl', '--models', model, '--store', store] };
}

interface Exported {
  test: { id: string };
  status: string;
  response?: { text: string; finishReason: string };
  error?: { kind: string; message: string };
}

const byTest = async (store: string) =>
  new Map((await exportedCells<Exported>(store)).map((c) => [c.test.id, c]));

describe('openai: a refusal, a filtered answer and a 200 with no answer', () => {
  it('a refusal costs one request and is stored as a refusal; content_filter is kept and counted', async () => {
    const server = await startScriptedChatServer((prompt) => {
      if (prompt === 'refuse')
        return completion({ content: null, refusal: 'I cannot help with that.' }, 'stop');
      if (prompt === 'filter') return completion({ content: '' }, 'content_filter');
      if (prompt === 'nothing') return completion({ content: null }, 'stop');
      if (prompt === 'no choices') return { body: { id: 'x', object: 'chat.completion', choices: [] } };
      return completion({ content: 'Paris' }, 'stop');
    });
    closers.push(server.close);
    const prompts = ['refuse', 'filter', 'nothing', 'no choices', 'capital of France'];
    const { dir, store, args } = workdir(prompts, `openai:m@${server.url}`);
    const r = await runCli(args, { cwd: dir });

    // One request each, though every one of them may be retried 4 times.
    for (const p of prompts) expect(server.calls(p), p).toBe(1);
    const cells = await byTest(store);
    expect(cells.get('t0')).toMatchObject({
      status: 'done',
      response: { text: 'I cannot help with that.', finishReason: 'refusal' },
    });
    expect(cells.get('t1')).toMatchObject({
      status: 'done',
      response: { text: '', finishReason: 'content_filter' },
    });
    expect(cells.get('t2')).toMatchObject({ status: 'failed', error: { kind: 'no_answer' } });
    expect(cells.get('t2')?.error?.message).toMatch(/content is null \(finish_reason "stop"\)/);
    expect(cells.get('t3')).toMatchObject({ status: 'failed', error: { kind: 'no_answer' } });
    expect(cells.get('t4')).toMatchObject({
      status: 'done',
      response: { text: 'Paris', finishReason: 'stop' },
    });
    expect(r.stderr).toMatch(/^waver: suite\.jsonl · refusals: 1 · content filtered: 1$/m);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(/failed 2: no_answer 2/);
  }, 60_000);
});

describe('anthropic: stop_reason refusal', () => {
  it('is a done cell with its text and finish reason refusal, asked once', async () => {
    const server = await startMessageBatchesServer();
    closers.push(server.close);
    const { dir, store, args } = workdir(['please REFUSES', 'hello'], `anthropic:claude-x@${server.origin}`);
    const r = await runCli(args, { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(server.messages()).toBe(2);
    const cells = await byTest(store);
    expect(cells.get('t0')).toMatchObject({
      status: 'done',
      response: { text: REFUSAL_TEXT, finishReason: 'refusal' },
    });
    expect(cells.get('t1')?.response?.finishReason).toBe('stop');
    expect(r.stderr).toMatch(/^waver: suite\.jsonl · refusals: 1$/m);
  }, 60_000);
});

describe('--batch: a refused line is a refusal too', () => {
  it('openai: a line whose message has a refusal is a done cell with the refusal text', async () => {
    const server = await startOpenAIBatchesServer({
      outputLines: (lines) =>
        lines.map((line, i) => {
          if (i !== 0) return line;
          const value = JSON.parse(line);
          value.response.body.choices[0].message = { role: 'assistant', content: null, refusal: 'No.' };
          return JSON.stringify(value);
        }),
    });
    closers.push(server.close);
    const { dir, store, args } = workdir(['first', 'second'], `openai:m@${server.url}`, 'batchPollMs: 20\n');
    const r = await runCli([...args, '--batch'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const cells = await byTest(store);
    expect(cells.get('t0')).toMatchObject({
      status: 'done',
      response: { text: 'No.', finishReason: 'refusal' },
    });
    expect(cells.get('t1')?.response?.text).toBe('echo: second');
    expect(r.stderr).toMatch(/^waver: suite\.jsonl · refusals: 1$/m);
  }, 60_000);

  it('anthropic: a succeeded result with stop_reason refusal is a done refusal', async () => {
    const server = await startMessageBatchesServer();
    closers.push(server.close);
    const { dir, store, args } = workdir(
      ['one REFUSES', 'two'],
      `anthropic:claude-x@${server.origin}`,
      'batchPollMs: 20\n',
    );
    const r = await runCli([...args, '--batch'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(server.created).toHaveLength(1);
    const cells = await byTest(store);
    expect(cells.get('t0')).toMatchObject({
      status: 'done',
      response: { text: REFUSAL_TEXT, finishReason: 'refusal' },
    });
    expect(r.stderr).toMatch(/^waver: suite\.jsonl · refusals: 1$/m);
  }, 60_000);
});

describe('every protocol counts them', () => {
  it('waver ladder ends with the refusals of each of its suites, as waver run does', async () => {
    // A model that declines about a third of the questions, the same ones every time.
    const server = await startScriptedChatServer((prompt) =>
      prompt.length % 3 === 0
        ? completion({ content: null, refusal: 'I cannot answer that.' }, 'stop')
        : completion({ content: '{"answer": 3}' }, 'stop'),
    );
    closers.push(server.close);
    const dir = mkdtempSync(join(tmpdir(), 'waver-refusals-'));
    writeFileSync(join(dir, 'waver.yaml'), 'backoff:\n  baseMs: 1\n  capMs: 5\n');
    const r = await runCli(
      [
        'ladder',
        '--models',
        `openai:m@${server.url}`,
        '--seeds',
        '2',
        '--max-tokens',
        '8',
        '--store',
        'store.db',
      ],
      { cwd: dir },
    );
    const refused = /^waver: (\S+) · refusals: (\d+)$/m.exec(r.stderr);
    expect(refused, r.stderr).not.toBeNull();
    expect(Number(refused?.[2])).toBeGreaterThan(0);
    // The stored refusals of that suite are the count it printed.
    const stored = (await exportedCells<Exported>(join(dir, 'store.db'))).filter(
      (c) => c.response?.finishReason === 'refusal',
    );
    expect(stored.length).toBe(Number(refused?.[2]));
  }, 120_000);
});
