import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, queryStore, runCli } from '../test-support/cli/cli.js';
import { type FaultServer, startFaultServer } from '../test-support/fault-server.js';
import { type Loopback, sendJson, startLoopback } from '../test-support/models/loopback.js';
import { scratchDir, writeSuite } from '../test-support/scratch.js';

/**
 * A command's budget (docs/decisions.md#e37-a-budget-stops-a-command-its-cells-left-pending):
 * `--max-calls` and `--max-cost` stop it with its cells pending and resumable. Each test counts
 * the requests a loopback server saw.
 */

beforeAll(assertBuilt);

/** A test's directory with its waver.yaml. */
function workdir(yaml = ''): string {
  const dir = scratchDir('waver-budget-');
  writeFileSync(join(dir, 'waver.yaml'), yaml);
  return dir;
}

const questions = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `t${i}`, prompt: `q${i}` }));

function cellCounts(store: string): Record<string, number> {
  const rows = queryStore<{ status: string; n: number }>(
    store,
    'SELECT status, COUNT(*) AS n FROM cells GROUP BY status',
  );
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}

/** Every try the store recorded: the cells' attempts and those of cells left pending (docs/decisions.md E13). */
function recordedTries(store: string): number {
  const [a] = queryStore<{ n: number }>(store, 'SELECT COUNT(*) AS n FROM attempts');
  const [s] = queryStore<{ n: number }>(store, 'SELECT COUNT(*) AS n FROM stopped_attempts');
  return (a?.n ?? 0) + (s?.n ?? 0);
}

const lastLine = (text: string) => text.trim().split('\n').at(-1);

describe('--max-calls', () => {
  let server: FaultServer;
  beforeAll(async () => {
    server = await startFaultServer({ faultRate: 0, seed: 1 });
  });
  afterAll(() => server.close());

  it('stops after exactly N requests with the rest pending, exits 5 with one line, and a re-run resumes', async () => {
    const dir = workdir();
    const suite = writeSuite(dir, questions(40));
    const store = join(dir, 'store.db');
    const model = `openai:fault@${server.url}`;
    const args = ['run', '--suite', suite, '--models', model, '--store', store, '--concurrency', '4'];

    const first = await runCli([...args, '--max-calls', '10'], { cwd: dir });
    expect(first.stderr).not.toMatch(/internal error/);
    expect(server.requests()).toBe(10);
    expect(first.code).toBe(5);
    // The calls in flight when the budget was reached were answered and stored; none failed.
    expect(cellCounts(store)).toEqual({ done: 10 });
    expect(lastLine(first.stderr)).toBe(
      `waver: stopped by the budget (--max-calls 10): 10 calls made, cost unknown (no price for ${model}); re-run the same command to resume (10 cells done, 30 pending)`,
    );
    expect(first.stdout).toMatch(/STOPPED: the budget \(--max-calls 10\)/);

    const second = await runCli([...args, '--max-calls', '10'], { cwd: dir });
    expect(second.code).toBe(5);
    expect(server.requests()).toBe(20);
    expect(cellCounts(store)).toEqual({ done: 20 });

    // Without a budget the rest is called, each question once over the three runs.
    const third = await runCli(args, { cwd: dir });
    expect(third.code).toBe(0);
    expect(server.requests()).toBe(40);
    expect([...server.requestsByPrompt().values()].every((n) => n === 1)).toBe(true);
    expect(cellCounts(store)).toEqual({ done: 40 });
  }, 60_000);

  it('counts retries: a failed try is a billed request', async () => {
    const faulty = await startFaultServer({ faultRate: 0.5, seed: 3, faults: ['server_error'] });
    try {
      const dir = workdir('backoff:\n  baseMs: 1\n  capMs: 5\n');
      const suite = writeSuite(dir, questions(30));
      const store = join(dir, 'store.db');
      const r = await runCli(
        [
          ...['run', '--suite', suite, '--models', `openai:fault@${faulty.url}`, '--store', store],
          ...['--concurrency', '1', '--max-calls', '7'],
        ],
        { cwd: dir },
      );
      expect(r.stderr).not.toMatch(/internal error/);
      expect(r.code).toBe(5);
      expect(faulty.requests()).toBe(7);
      expect(faulty.faults().server_error).toBeGreaterThan(0);
      // Every request is on record, the failed tries too; the cell whose retry the budget refused is pending.
      expect(recordedTries(store)).toBe(7);
      expect(cellCounts(store).failed ?? 0).toBe(0);
    } finally {
      await faulty.close();
    }
  }, 60_000);

  it('covers a protocol command: paraphrase stops after exactly N requests', async () => {
    const dir = workdir();
    const store = join(dir, 'store.db');
    const before = server.requests();
    const r = await runCli(
      [
        ...['paraphrase', '--models', `openai:fault@${server.url}`, '--limit', '4', '--store', store],
        ...['--max-calls', '12'],
      ],
      { cwd: dir },
    );
    expect(r.stderr).not.toMatch(/internal error/);
    expect(r.code).toBe(5);
    expect(server.requests() - before).toBe(12);
    expect(cellCounts(store)).toEqual({ done: 12 });
    expect(lastLine(r.stderr)).toMatch(
      /^waver: stopped by the budget \(--max-calls 12\): 12 calls made, .*; re-run the same command to resume \(12 cells done, 28 pending\)$/,
    );
  }, 60_000);

  it("covers a role's calls: a ladder suite build's generator stops after exactly N requests, no suite written", async () => {
    const dir = workdir();
    const before = server.requests();
    const generator = `openai:generator@${server.url}`;
    const r = await runCli(
      [
        ...['suite', 'build', '--protocol', 'ladder', '--generator', generator, '--seeds', '2'],
        ...['--out', 'suite.jsonl', '--store', 'store.db', '--max-calls', '3'],
      ],
      { cwd: dir },
    );
    expect(r.stderr).not.toMatch(/internal error/);
    expect(r.code).toBe(5);
    expect(server.requests() - before).toBe(3);
    expect(lastLine(r.stderr)).toBe(
      `waver: stopped by the budget (--max-calls 3): 3 calls made, cost unknown (no price for ${generator}); re-run the same command to resume`,
    );
    expect(existsSync(join(dir, 'suite.jsonl'))).toBe(false);
  }, 60_000);

  it('is refused with --batch (a batch is billed whole), exit 2, nothing called', async () => {
    const dir = workdir();
    const suite = writeSuite(dir, questions(3));
    const before = server.requests();
    const store = join(dir, 'store.db');
    const r = await runCli(
      ['run', '--suite', suite, '--models', `openai:fault@${server.url}`, '--store', store].concat([
        '--batch',
        '--max-calls',
        '2',
      ]),
      { cwd: dir },
    );
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(
      'waver: maxCalls: a budget does not apply to --batch (a batch is billed whole when it ends): drop --batch or the budget',
    );
    expect(server.requests()).toBe(before);
    expect(existsSync(store)).toBe(false);
  });
});

describe('--max-cost', () => {
  let server: Loopback;
  /** Every answer reports 100 prompt and 10 completion tokens. */
  beforeAll(async () => {
    server = await startLoopback((req, res) => {
      if (req.method !== 'POST') return sendJson(res, 200, { object: 'list', data: [] });
      sendJson(res, 200, {
        id: 'x',
        object: 'chat.completion',
        created: 0,
        model: 'priced',
        choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 },
      });
    });
  });
  afterAll(() => server.close());
  const posts = () => server.requests.filter((r) => r.method === 'POST').length;

  it('stops before a call whose worst case could pass the limit, and says what was spent', async () => {
    // USD per million tokens: a call costs (100 x 10 + 10 x 100) / 1e6 = $0.002; its worst case
    // before the call, a 2-character prompt (1 token) and the 20-token cap: (1 x 10 + 20 x 100) / 1e6 = $0.00201.
    const dir = workdir(
      [
        'models:',
        '  - provider: openai',
        '    model: priced',
        `    baseURL: ${server.origin}/v1`,
        '    price: { input: 10, output: 100 }',
        '',
      ].join('\n'),
    );
    const suite = writeSuite(dir, questions(10));
    const store = join(dir, 'store.db');
    const args = ['run', '--suite', suite, '--store', store, '--max-tokens', '20', '--concurrency', '1'];
    const r = await runCli([...args, '--max-cost', '0.01'], { cwd: dir });
    expect(r.stderr).not.toMatch(/internal error/);
    expect(r.code).toBe(5);
    // The 5th call would start at $0.008 spent: 0.008 + 0.00201 > 0.01. So 4 calls.
    expect(posts()).toBe(4);
    expect(cellCounts(store)).toEqual({ done: 4 });
    expect(lastLine(r.stderr)).toBe(
      'waver: stopped by the budget (--max-cost $0.01): 4 calls made, $0.0080 spent; re-run the same command to resume (4 cells done, 6 pending)',
    );
  }, 60_000);

  it('refuses a model with no known price at start: exit 2 naming it, nothing called or written', async () => {
    const dir = workdir();
    const suite = writeSuite(dir, questions(3));
    const store = join(dir, 'store.db');
    const before = posts();
    const model = `openai:unpriced@${server.origin}/v1`;
    const r = await runCli(
      ['run', '--suite', suite, '--models', model, '--store', store, '--max-cost', '1'],
      {
        cwd: dir,
      },
    );
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(
      `waver: models.0: no price is known for ${model}, so --max-cost cannot count its calls: set price: { input, output } (USD per million tokens) on it in waver.yaml`,
    );
    expect(posts()).toBe(before);
    expect(existsSync(store)).toBe(false);
  });
});
