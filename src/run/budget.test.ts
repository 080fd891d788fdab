import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateConfig } from '../config/load.js';
import { toModelSpec } from '../models/spec.js';
import type { GenerateResult } from '../models/types.js';
import { type FaultServer, startFaultServer } from '../test-support/fault-server.js';
import { inputErrorOf } from '../test-support/scratch.js';
import { BudgetReached, CallBudget, requirePrices } from './budget.js';
import { CallsHalted, type ProviderCall, runThrough } from './call-path/middleware.js';
import { createProviderPool } from './provider-pool.js';
import { runRole } from './roles.js';
import { runSuite } from './run-suite.js';
import { suiteOf } from './suite.js';

/** A generation of an 8-character prompt (2 tokens by estimate) capped at 3 output tokens. */
const ask: ProviderCall = {
  kind: 'generate',
  request: { messages: [{ role: 'user', content: 'abcdefgh' }], maxTokens: 3 },
};
const answer = (inputTokens: number, outputTokens: number): GenerateResult => ({
  text: 'x',
  finishReason: 'stop',
  usage: { inputTokens, outputTokens },
});
/** A dollar a token: the worst case of `ask` is $5 (2 in, 3 out). */
const DOLLAR_A_TOKEN = { input: 1e6, output: 1e6 };

describe('CallBudget', () => {
  it('lets maxCalls tries through and refuses the next; its signal aborts once the tries in flight end', async () => {
    const budget = new CallBudget({ maxCalls: 3 });
    const meter = budget.meter('m', undefined);
    const release: (() => void)[] = [];
    const slow = () =>
      runThrough(
        [meter],
        ask,
        {},
        () => new Promise<GenerateResult>((r) => release.push(() => r(answer(1, 1)))),
      );
    const inFlight = [slow(), slow(), slow()];
    const refused = runThrough([meter], ask, {}, async () => answer(1, 1));
    await expect(refused).rejects.toBeInstanceOf(BudgetReached);
    await expect(refused).rejects.toBeInstanceOf(CallsHalted);
    // The three on the wire are not cut short: the stop waits for them.
    expect(budget.signal.aborted).toBe(false);
    for (const r of release.splice(0, 2)) r();
    await Promise.all(inFlight.slice(0, 2));
    expect(budget.signal.aborted).toBe(false);
    release[0]?.();
    await inFlight[2];
    expect(budget.signal.aborted).toBe(true);
    expect(budget.signal.reason).toBe(budget.reached);
    expect(budget.calls).toBe(3);
    expect(budget.describe()).toBe('the budget (--max-calls 3): 3 calls made, cost unknown (no price for m)');
  });

  it('starts a try only if its worst case fits beside what was spent and what is in flight', async () => {
    const budget = new CallBudget({ maxCost: 10 });
    const meter = budget.meter('m', DOLLAR_A_TOKEN);
    // Each answer costs $3 (2 in, 1 out); a try may cost $5 at most.
    await runThrough([meter], ask, {}, async () => answer(2, 1));
    await runThrough([meter], ask, {}, async () => answer(2, 1));
    // $6 spent: a third could take it to $11.
    await expect(runThrough([meter], ask, {}, async () => answer(2, 1))).rejects.toBeInstanceOf(
      BudgetReached,
    );
    expect(budget.describe()).toBe('the budget (--max-cost $10): 2 calls made, $6.0000 spent');
    expect(budget.signal.aborted).toBe(true);
  });

  it('reserves the worst case of the tries in flight', async () => {
    const budget = new CallBudget({ maxCost: 10 });
    const meter = budget.meter('m', DOLLAR_A_TOKEN);
    let release = () => {};
    const first = runThrough(
      [meter],
      ask,
      {},
      () => new Promise<GenerateResult>((r) => (release = () => r(answer(2, 1)))),
    );
    // A second that never ends.
    runThrough([meter], ask, {}, () => new Promise<GenerateResult>(() => {}));
    // $5 + $5 reserved: nothing else fits until they end.
    await expect(runThrough([meter], ask, {}, async () => answer(2, 1))).rejects.toThrow(
      'the budget (--max-cost $10)',
    );
    release();
    await first;
    expect(budget.spentUsd).toBe(3);
  });

  it('charges an answer that reports no usage its worst case, and a failed try nothing (it still counts as a call)', async () => {
    const budget = new CallBudget({ maxCost: 100 });
    const meter = budget.meter('m', DOLLAR_A_TOKEN);
    await runThrough([meter], ask, {}, async () => answer(0, 0));
    expect(budget.spentUsd).toBe(5);
    await expect(
      runThrough([meter], ask, {}, async () => {
        throw new Error('500');
      }),
    ).rejects.toThrow('500');
    expect([budget.calls, budget.spentUsd]).toEqual([2, 5]);
  });

  it('with maxCost, a model with no known price is bad input, named; local and priced models pass', () => {
    const config = validateConfig({
      models: ['gguf:./m.gguf', 'openai:gpt-4o-mini'],
      judge: 'openai:judge@http://127.0.0.1:9/v1',
      maxCost: 1,
    });
    const err = inputErrorOf(() => requirePrices(config));
    expect([err.field, err.reason]).toEqual([
      'judge',
      'no price is known for openai:judge@http://127.0.0.1:9/v1, so --max-cost cannot count its calls: set price: { input, output } (USD per million tokens) on it in waver.yaml',
    ]);
    const priced = toModelSpec({
      provider: 'openai',
      model: 'judge',
      baseURL: 'http://127.0.0.1:9/v1',
      price: { input: 1, output: 2 },
    });
    expect(() => requirePrices({ ...config, judge: priced })).not.toThrow();
    expect(() => requirePrices({ ...config, maxCost: undefined })).not.toThrow();
    expect(new CallBudget({ maxCost: 1 }).priceOf(toModelSpec('gguf:./m.gguf'))).toEqual({
      input: 0,
      output: 0,
    });
  });
});

describe("one pool's budget over every role", () => {
  let server: FaultServer;
  let dir: string;
  beforeAll(async () => {
    server = await startFaultServer({ faultRate: 0, seed: 1 });
    dir = mkdtempSync(join(tmpdir(), 'waver-budget-'));
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("counts the systems under test's and the judge's calls together; past it the judge's cells stay pending and no call starts", async () => {
    const config = validateConfig({
      models: [`openai:sut@${server.url}`],
      judge: `openai:judge@${server.url}`,
      store: join(dir, 's.db'),
      concurrency: 1,
      maxCalls: 5,
    });
    const pool = createProviderPool({ defaults: config });
    try {
      const tests = (prefix: string, n: number) =>
        Array.from({ length: n }, (_, i) => ({ id: `${prefix}${i}`, prompt: `${prefix} ${i}` }));
      const sut = await runSuite(config, suiteOf('sut', tests('q', 3)), { pool });
      expect(sut.complete).toBe(true);
      const judged = await runRole(
        config,
        'judge',
        'judge',
        [{ temperature: 0, maxTokens: 8, tests: tests('j', 4) }],
        { pool },
      );
      expect([...judged.answers.values()].map((a) => a.ok)).toEqual([true, true, false, false]);
      expect(server.requests()).toBe(5);
      // Any other call through the pool is refused too, and makes no request.
      const judge = await pool.get(toModelSpec(config.judge as string));
      await expect(judge.generate({ messages: [{ role: 'user', content: 'more' }] })).rejects.toBeInstanceOf(
        BudgetReached,
      );
      expect(server.requests()).toBe(5);
      expect(pool.budget?.signal.aborted).toBe(true);
      expect(pool.budget?.describe()).toMatch(/^the budget \(--max-calls 5\): 5 calls made/);
    } finally {
      await pool.closeAll();
    }
  });

  it('stops a run at the budget with its summary saying so; the cells left stay pending', async () => {
    const config = validateConfig({
      models: [`openai:sut@${server.url}`],
      store: join(dir, 'stop.db'),
      concurrency: 3,
      maxCalls: 4,
    });
    const before = server.requests();
    const r = await runSuite(
      config,
      suiteOf(
        'stop',
        Array.from({ length: 10 }, (_, i) => ({ id: `s${i}`, prompt: `stop ${i}` })),
      ),
    );
    expect(server.requests() - before).toBe(4);
    expect(r.summary).toMatchObject({ aborted: true, stopReason: 'the budget (--max-calls 4)', calls: 4 });
    expect(r.models[0]?.coverage).toMatchObject({ done: 4, failed: 0, pending: 6 });
  });
});
