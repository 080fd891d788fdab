import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ProviderError } from '../models/errors.js';
import { openStore, type Store } from '../store/store.js';
import { connectionOf } from '../store/test-support/connection.js';
import { type Script, ScriptedProvider, steps } from '../test-support/scripted-provider.js';
import { hashOf } from '../util/hash.js';
import { type ModelEntry, type RunCellsOptions, runCells } from './engine.js';
import type { Cell, Progress, Suite } from './types.js';

const dirs: string[] = [];
const stores: Store[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function newStore(): Store {
  const dir = mkdtempSync(join(tmpdir(), 'waver-engine-'));
  dirs.push(dir);
  const store = openStore(join(dir, 'store.db'));
  stores.push(store);
  return store;
}

function makeSuite(prompts: string[]): Suite {
  const tests = prompts.map((prompt, i) => ({ id: `t${i}`, prompt }));
  return { name: 'unit', hash: hashOf(tests), tests };
}

function makeCells(suite: Suite, models: string[], repeats = 1, temperature = 0): Cell[] {
  const cells: Cell[] = [];
  for (const model of models)
    for (const t of suite.tests)
      for (let repeat = 0; repeat < repeats; repeat++)
        cells.push({
          testId: t.id,
          model,
          repeat,
          request: { messages: [{ role: 'user', content: t.prompt }], temperature },
        });
  return cells;
}

const echo: Script = (prompt) => steps.ok(`echo: ${prompt}`);

/** No real waiting in backoff: record the delays instead. */
function recordSleep() {
  const delays: number[] = [];
  return {
    delays,
    sleep: async (ms: number, signal?: AbortSignal) => {
      signal?.throwIfAborted();
      delays.push(ms);
    },
  };
}

async function run(
  store: Store,
  suite: Suite,
  cells: Cell[],
  providers: Record<string, ModelEntry>,
  extra: Partial<RunCellsOptions> = {},
) {
  const runId = store.runs.begin({ suiteHash: suite.hash, config: {}, waverVersion: 'test' });
  const summary = await runCells({
    store,
    runId,
    suite,
    cells,
    providers: new Map(Object.entries(providers)),
    defaults: { concurrency: 4, timeoutMs: 5000, maxRetries: 3 },
    sleep: recordSleep().sleep,
    ...extra,
  });
  return { runId, summary };
}

/** Every cell of `cells` is in the store exactly once. */
function expectStoredOnce(store: Store, cells: Cell[], identities: Record<string, string>) {
  const stored = [...store.cells.all()];
  const keys = stored.map((c) => `${c.modelIdentity}|${c.testId}|${c.repeat}`);
  expect(new Set(keys).size).toBe(keys.length);
  for (const c of cells) expect(keys).toContain(`${identities[c.model]}|${c.testId}|${c.repeat}`);
  return stored;
}

describe('runCells', () => {
  it('runs every cell once, across models and repeats, and reports coverage', async () => {
    const store = newStore();
    const suite = makeSuite(['a', 'b', 'c']);
    const m1 = new ScriptedProvider(echo, { identity: 'scripted:one' });
    const m2 = new ScriptedProvider((p) => steps.ok(`two: ${p}`), { identity: 'scripted:two' });
    const cells = makeCells(suite, ['one', 'two'], 2);
    const progress: Progress[] = [];
    const { summary, runId } = await run(
      store,
      suite,
      cells,
      { one: { provider: m1 }, two: { provider: m2 } },
      { onProgress: (p) => progress.push(p) },
    );
    expect(summary.coverage).toEqual({
      total: 12,
      done: 12,
      failed: 0,
      pending: 0,
      cached: 0,
      errorsByKind: {},
    });
    expect(summary.calls).toBe(12);
    expect(summary.aborted).toBe(false);
    expect(summary.tokensIn).toBe(12);
    expect(summary.tokensOut).toBe(12);
    expect(m1.calls).toBe(6);
    expect(m2.calls).toBe(6);
    // Repeats are real calls: each prompt asked twice per model.
    expect([...m1.callsByPrompt.values()]).toEqual([2, 2, 2]);
    const stored = expectStoredOnce(store, cells, { one: 'scripted:one', two: 'scripted:two' });
    expect(stored.find((c) => c.model === 'two' && c.testId === 't1')?.response?.text).toBe('two: b');
    expect(
      store.coverage.of(suite.hash, [{ identity: 'scripted:one', repeats: 2 }], { runId }),
    ).toMatchObject({
      total: 6,
      done: 6,
      cached: 0,
    });
    const last = progress.at(-1) as Progress;
    expect(last).toMatchObject({ total: 12, done: 12, pending: 0, inFlight: 0 });
    expect(store.suites.get(suite.hash)?.tests).toHaveLength(3); // the engine stored the suite
  });

  it('never has more calls in flight than the model allows', async () => {
    const store = newStore();
    const suite = makeSuite(Array.from({ length: 40 }, (_, i) => `p${i}`));
    const slow = new ScriptedProvider((p) => steps.ok(p, 5), { identity: 'scripted:slow' });
    const other = new ScriptedProvider((p) => steps.ok(p, 5), { identity: 'scripted:other' });
    let maxInFlight = 0;
    await run(
      store,
      suite,
      makeCells(suite, ['slow', 'other']),
      { slow: { provider: slow, concurrency: 3 }, other: { provider: other } },
      { onProgress: (p) => (maxInFlight = Math.max(maxInFlight, p.inFlight)) },
    );
    expect(slow.maxInFlight).toBe(3);
    expect(other.maxInFlight).toBe(4); // the run's default
    expect(maxInFlight).toBeLessThanOrEqual(7);
    expect(slow.calls + other.calls).toBe(80);
  });

  it('retries 5xx with backoff and keeps every failed attempt', async () => {
    const store = newStore();
    const suite = makeSuite(['flaky', 'fine']);
    const provider = new ScriptedProvider((p, nth) =>
      p === 'flaky' && nth < 2 ? steps.fail('server', 500) : steps.ok(`ok ${p}`),
    );
    const { delays, sleep } = recordSleep();
    const { summary } = await run(
      store,
      suite,
      makeCells(suite, ['m']),
      { m: { provider } },
      { sleep, random: () => 0.5 },
    );
    expect(summary.coverage).toMatchObject({ done: 2, failed: 0 });
    expect(summary.calls).toBe(4);
    expect(summary.retries).toBe(2);
    expect(delays).toEqual([250, 500]); // 0.5 * 500 * 2^n
    const flaky = [...store.cells.all({ testId: 't0' })][0];
    expect(flaky?.status).toBe('done');
    expect(flaky?.attempts).toBe(3);
    expect(store.attempts.of(flaky?.id as number).map((a) => [a.attempt, a.outcome, a.status])).toEqual([
      [1, 'server', 500],
      [2, 'server', 500],
      [3, 'ok', undefined],
    ]);
  });

  it('honours Retry-After on 429', async () => {
    const store = newStore();
    const suite = makeSuite(['x']);
    const provider = new ScriptedProvider((_, nth) =>
      nth === 0 ? steps.fail('rate_limit', 429, 3000) : steps.ok('y'),
    );
    const { delays, sleep } = recordSleep();
    await run(store, suite, makeCells(suite, ['m']), { m: { provider } }, { sleep, random: () => 0 });
    expect(delays).toEqual([3000]);
  });

  it('fails a cell at once on a non-retryable error, and after maxRetries on a retryable one', async () => {
    const store = newStore();
    const suite = makeSuite(['bad', 'down', 'fine']);
    const provider = new ScriptedProvider((p) =>
      p === 'bad' ? steps.fail('client', 400) : p === 'down' ? steps.fail('server', 503) : steps.ok('fine'),
    );
    const { summary } = await run(store, suite, makeCells(suite, ['m']), { m: { provider, maxRetries: 2 } });
    expect(provider.callsByPrompt.get('bad')).toBe(1);
    expect(provider.callsByPrompt.get('down')).toBe(3);
    expect(summary.coverage).toEqual({
      total: 3,
      done: 1,
      failed: 2,
      pending: 0,
      cached: 0,
      errorsByKind: { client: 1, server: 1 },
    });
    const failed = [...store.cells.all({ status: 'failed' })];
    expect(failed.map((c) => [c.testId, c.error?.kind, c.error?.status, c.attempts])).toEqual([
      ['t0', 'client', 400, 1],
      ['t1', 'server', 503, 3],
    ]);
    expect(failed[0]?.error?.message).toContain('client');
  });

  it('stops a model at a refused key: its other cells stay pending, uncalled; another model goes on', async () => {
    const store = newStore();
    const suite = makeSuite(['a', 'b', 'c', 'd']);
    const refused = new ScriptedProvider(() => steps.fail('auth', 401), { identity: 'scripted:refused' });
    const fine = new ScriptedProvider(() => steps.ok('fine'), { identity: 'scripted:fine' });
    const { summary } = await run(store, suite, makeCells(suite, ['r', 'f']), {
      r: { provider: refused, concurrency: 1 },
      f: { provider: fine, concurrency: 1 },
    });
    expect(refused.calls).toBe(1);
    expect(fine.calls).toBe(4);
    expect(summary.coverage).toMatchObject({ total: 8, done: 4, failed: 1, pending: 3 });
    expect(summary.stoppedModels).toEqual({ r: expect.objectContaining({ kind: 'auth', status: 401 }) });
  });

  it('times out a hung call (even one that ignores its signal) and retries it', async () => {
    const store = newStore();
    const suite = makeSuite(['hang', 'deaf', 'hang-once']);
    const provider = new ScriptedProvider((p, nth) => {
      if (p === 'hang') return { hang: true };
      if (p === 'deaf') return { hangDeaf: true };
      return nth === 0 ? { hang: true } : steps.ok('late but fine');
    });
    const t0 = performance.now();
    const { summary } = await run(store, suite, makeCells(suite, ['m']), {
      m: { provider, timeoutMs: 50, maxRetries: 1 },
    });
    expect(performance.now() - t0).toBeLessThan(2000);
    expect(summary.coverage).toMatchObject({ done: 1, failed: 2, errorsByKind: { timeout: 2 } });
    const hung = [...store.cells.all({ testId: 't0' })][0];
    expect(hung?.error).toMatchObject({ kind: 'timeout', message: 'no answer within 50 ms' });
    expect(store.attempts.of(hung?.id as number).map((a) => a.outcome)).toEqual(['timeout', 'timeout']);
    expect([...store.cells.all({ testId: 't2' })][0]?.status).toBe('done');
  });

  it("stores a provider's non-ProviderError as 'internal' without retrying or crashing the run", async () => {
    const store = newStore();
    const suite = makeSuite(['bug', 'bad-result', 'fine']);
    const provider = new ScriptedProvider((p) =>
      p === 'bug'
        ? { throws: new TypeError("Cannot read properties of undefined (reading 'x')") }
        : steps.ok(p),
    );
    const broken = Object.assign(Object.create(provider), {
      generate: async (...args: Parameters<ScriptedProvider['generate']>) => {
        const prompt = args[0].messages[0]?.content;
        if (prompt === 'bad-result') return { finishReason: 'stop' };
        return provider.generate(...args);
      },
    }) as ScriptedProvider;
    const { summary } = await run(store, suite, makeCells(suite, ['m']), { m: { provider: broken } });
    expect(summary.coverage).toMatchObject({ done: 1, failed: 2, errorsByKind: { internal: 2 } });
    expect(provider.callsByPrompt.get('bug')).toBe(1);
    const bug = [...store.cells.all({ testId: 't0' })][0];
    expect(bug?.error).toEqual({
      kind: 'internal',
      message: "TypeError: Cannot read properties of undefined (reading 'x')",
    });
    expect([...store.cells.all({ testId: 't1' })][0]?.error?.message).toContain('returned no text');
  });

  it('serves stored cells without a call, calls again with cache off, and retries failed cells', async () => {
    const store = newStore();
    const suite = makeSuite(['a', 'b', 'c', 'd']);
    let version = 1;
    const provider = new ScriptedProvider((p, nth) =>
      p === 'd' && nth === 0 ? steps.fail('auth', 401) : steps.ok(`v${version} ${p}`),
    );
    const cells = makeCells(suite, ['m'], 2);

    const first = await run(store, suite, cells, { m: { provider } });
    expect(first.summary.coverage).toMatchObject({ done: 7, failed: 1 });
    expect(provider.calls).toBe(8);

    // Same cells again: only the failed one is called.
    const second = await run(store, suite, cells, { m: { provider } });
    expect(provider.calls).toBe(9);
    expect(second.summary.calls).toBe(1);
    expect(second.summary.coverage).toEqual({
      total: 8,
      done: 8,
      failed: 0,
      pending: 0,
      cached: 7,
      errorsByKind: {},
    });
    expect(
      store.coverage.of(suite.hash, [{ identity: provider.identity, repeats: 2 }], { runId: second.runId }),
    ).toMatchObject({ done: 8, cached: 7 });

    // Third time: nothing to call.
    const third = await run(store, suite, cells, { m: { provider } });
    expect(third.summary.calls).toBe(0);
    expect(third.summary.coverage.cached).toBe(8);
    expect(provider.calls).toBe(9);
    // A cell served from the store is not rewritten: it still names the run that called for it.
    expect([...store.cells.all()].filter((c) => c.runId === third.runId)).toHaveLength(0);

    // Cache off: every cell called again and the stored answers overwritten.
    version = 2;
    const fourth = await run(store, suite, cells, { m: { provider } }, { cache: false });
    expect(fourth.summary.calls).toBe(8);
    expect(fourth.summary.coverage.cached).toBe(0);
    expect(provider.calls).toBe(17);
    const stored = expectStoredOnce(store, cells, { m: provider.identity });
    expect(stored).toHaveLength(8);
    expect(stored.every((c) => c.response?.text.startsWith('v2 '))).toBe(true);
  });

  it('calls again when the request changes, and reuses a stored answer across suites', async () => {
    const store = newStore();
    const suite = makeSuite(['a', 'b']);
    const provider = new ScriptedProvider(echo);
    await run(store, suite, makeCells(suite, ['m']), { m: { provider } });
    expect(provider.calls).toBe(2);
    await run(store, suite, makeCells(suite, ['m'], 1, 0.7), { m: { provider } });
    expect(provider.calls).toBe(4); // new temperature, new key

    // A new suite with one old prompt: that cell is linked to the stored answer, not called.
    const grown = makeSuite(['a', 'b', 'new']);
    const { summary } = await run(store, grown, makeCells(grown, ['m']), { m: { provider } });
    expect(provider.calls).toBe(5);
    expect(summary.coverage).toMatchObject({ done: 3, cached: 2 });
    const linked = [...store.cells.all({ suiteHash: grown.hash, testId: 't0' })][0];
    expect(linked).toMatchObject({ status: 'done', attempts: 0 });
    expect(linked?.response?.text).toBe('echo: a');
  });

  it('makes one call for identical requests within a run', async () => {
    const store = newStore();
    const suite = makeSuite(['same', 'same', 'same', 'other']);
    const provider = new ScriptedProvider((p) => steps.ok(p, 5));
    const { summary } = await run(store, suite, makeCells(suite, ['m']), { m: { provider } });
    expect(provider.callsByPrompt.get('same')).toBe(1);
    expect(summary.coverage).toMatchObject({ total: 4, done: 4, cached: 2 });
    expect([...store.cells.all()].map((c) => c.response?.text)).toEqual(['same', 'same', 'same', 'other']);
  });

  it('stops on its signal leaving unfinished cells pending, and a resumed run calls only those', async () => {
    const store = newStore();
    const suite = makeSuite(Array.from({ length: 30 }, (_, i) => `p${i}`));
    const provider = new ScriptedProvider((p) => steps.ok(p, 10));
    const cells = makeCells(suite, ['m']);
    const ac = new AbortController();
    const { summary } = await run(
      store,
      suite,
      cells,
      { m: { provider, concurrency: 2 } },
      {
        signal: ac.signal,
        onProgress: (p) => {
          if (p.done >= 6) ac.abort();
        },
      },
    );
    expect(summary.aborted).toBe(true);
    const firstDone = summary.coverage.done;
    expect(firstDone).toBeGreaterThanOrEqual(6);
    expect(firstDone).toBeLessThan(30);
    expect(summary.coverage.pending).toBe(30 - firstDone);
    expect([...store.cells.all()]).toHaveLength(firstDone);
    const callsBefore = provider.calls;

    const resumed = await run(store, suite, cells, { m: { provider, concurrency: 2 } });
    expect(resumed.summary.coverage).toMatchObject({ done: 30, cached: firstDone, pending: 0 });
    expect(provider.calls - callsBefore).toBe(30 - firstDone);
    expectStoredOnce(store, cells, { m: provider.identity });
  });

  it('keeps the tries of calls in flight at the stop, the last as aborted, and shows them with the cell once it is done', async () => {
    const store = newStore();
    const suite = makeSuite(['quick', 'slow']);
    const cells = makeCells(suite, ['m']);
    // `slow` fails once (a retryable 503), then hangs until the stop.
    const stalling = new ScriptedProvider((prompt, nth) =>
      prompt === 'quick' ? steps.ok('fine') : nth === 0 ? steps.fail('server', 503) : { hang: true },
    );
    const ac = new AbortController();
    const first = await run(
      store,
      suite,
      cells,
      { m: { provider: stalling } },
      {
        signal: ac.signal,
        onProgress: (p) => {
          // The second try of `slow` is on the wire: stop while it hangs.
          if (p.retries === 1 && p.inFlight === 1 && !ac.signal.aborted) setTimeout(() => ac.abort(), 20);
        },
      },
    );
    expect(first.summary).toMatchObject({ aborted: true, coverage: { done: 1, pending: 1 } });
    const stopped = store.attempts.stopped(first.runId);
    expect(stopped.map((a) => [a.testId, a.attempt, a.outcome])).toEqual([
      ['t1', 1, 'server'],
      ['t1', 2, 'aborted'],
    ]);
    expect([...store.cells.all()].map((c) => c.testId)).toEqual(['t0']);

    const second = await run(store, suite, cells, { m: { provider: new ScriptedProvider(echo) } });
    expect(second.summary.coverage).toMatchObject({ done: 2, pending: 0 });
    const slow = [...store.cells.all({ testId: 't1' })][0];
    expect(store.attempts.of(slow?.id as number).map((a) => [a.runId, a.attempt, a.outcome])).toEqual([
      [first.runId, 1, 'server'],
      [first.runId, 2, 'aborted'],
      [second.runId, 1, 'ok'],
    ]);
  });

  it('paces calls by requests per minute', async () => {
    const store = newStore();
    const suite = makeSuite(Array.from({ length: 15 }, (_, i) => `p${i}`));
    const provider = new ScriptedProvider(echo);
    let t = 0;
    const clock = {
      now: () => t,
      sleep: async (ms: number) => {
        t += ms;
      },
    };
    await run(store, suite, makeCells(suite, ['m']), { m: { provider, rpm: 60 } }, clock);
    expect(provider.calls).toBe(15);
    // Burst of 10 (10 seconds' worth), then one a second.
    expect(t).toBeGreaterThanOrEqual(5000);
    expect(t).toBeLessThan(6000);
  });

  it('rejects cells for an unknown model or listed twice, before any call', async () => {
    const store = newStore();
    const suite = makeSuite(['a']);
    const provider = new ScriptedProvider(echo);
    await expect(run(store, suite, makeCells(suite, ['nope']), { m: { provider } })).rejects.toThrow(
      /no provider for model "nope"/,
    );
    const twice = [...makeCells(suite, ['m']), ...makeCells(suite, ['m'])];
    await expect(run(store, suite, twice, { m: { provider } })).rejects.toThrow(/listed twice/);
    expect(provider.calls).toBe(0);
  });

  it('rejects when the store cannot record, instead of calling on', async () => {
    const store = newStore();
    const suite = makeSuite(Array.from({ length: 20 }, (_, i) => `p${i}`));
    const provider = new ScriptedProvider((p) => steps.ok(p, 2));
    const runId = store.runs.begin({ suiteHash: suite.hash, config: {}, waverVersion: 'test' });
    store.suites.save(suite);
    const pending = runCells({
      store,
      runId,
      suite,
      cells: makeCells(suite, ['m']),
      providers: new Map([['m', { provider, concurrency: 1 }]]),
      defaults: { concurrency: 1, timeoutMs: 1000, maxRetries: 0 },
      commitMs: 0, // the next turn: the failing write comes while most cells are still to call
      onProgress: (p) => {
        if (p.done === 3) connectionOf(store).exec('DROP TABLE attempts');
      },
    });
    await expect(pending).rejects.toThrow(/attempts/);
    expect(provider.calls).toBeLessThan(20);
  });

  it('schedules 2,000 instant cells cheaply, and a warm re-run in well under a second', async () => {
    const store = newStore();
    const suite = makeSuite(Array.from({ length: 2000 }, (_, i) => `prompt number ${i}`));
    const provider = new ScriptedProvider(echo);
    const cells = makeCells(suite, ['m']);
    const cold = await run(store, suite, cells, { m: { provider, concurrency: 16 } });
    expect(cold.summary.coverage.done).toBe(2000);
    const warm = await run(store, suite, cells, { m: { provider, concurrency: 16 } });
    expect(warm.summary.calls).toBe(0);
    expect(warm.summary.coverage.cached).toBe(2000);
    console.log(
      `engine: 2,000 cells cold ${cold.summary.elapsedMs.toFixed(0)} ms (in-process provider), warm ${warm.summary.elapsedMs.toFixed(0)} ms`,
    );
    expect(warm.summary.elapsedMs).toBeLessThan(1000);
    expect(cold.summary.elapsedMs).toBeLessThan(5000);
  });
});

describe("the store's answers (docs/decisions.md E45)", () => {
  /** Counts the store's per-cell and per-model reads of done cells. */
  function countDoneReads(store: Store) {
    const counts = { perCell: 0, perModel: 0 };
    const { cells } = store;
    const doneKey = cells.doneKey.bind(cells);
    const doneKeys = cells.doneKeys.bind(cells);
    cells.doneKey = (...args) => {
      counts.perCell++;
      return doneKey(...args);
    };
    cells.doneKeys = (...args) => {
      counts.perModel++;
      return doneKeys(...args);
    };
    return counts;
  }

  it('a warm re-run reads each model’s done cells in one query, not cell by cell', async () => {
    const store = newStore();
    const suite = makeSuite(Array.from({ length: 50 }, (_, i) => `p${i}`));
    const a = new ScriptedProvider(echo, { identity: 'scripted:a' });
    const b = new ScriptedProvider(echo, { identity: 'scripted:b' });
    const cells = makeCells(suite, ['a', 'b'], 2);
    await run(store, suite, cells, { a: { provider: a }, b: { provider: b } });
    const reads = countDoneReads(store);
    const warm = await run(store, suite, cells, { a: { provider: a }, b: { provider: b } });
    expect(warm.summary.coverage).toMatchObject({ total: 200, done: 200, cached: 200 });
    expect(a.calls + b.calls).toBe(200);
    expect(reads).toEqual({ perCell: 0, perModel: 2 });
  });

  it('a cell whose answer the store holds for another suite is answered by the call path: no try, no token', async () => {
    const store = newStore();
    const old = makeSuite(['a', 'b']);
    const provider = new ScriptedProvider(echo);
    await run(store, old, makeCells(old, ['m']), { m: { provider } });
    const grown = makeSuite(['a', 'b', 'new']);
    const clock = recordSleep();
    // One request a minute: a linked cell that took a token would make the new one wait.
    const { summary } = await run(store, grown, makeCells(grown, ['m']), { m: { provider, rpm: 1 } }, clock);
    expect(provider.calls).toBe(3);
    expect(clock.delays).toEqual([]);
    expect(summary.coverage).toMatchObject({ done: 3, cached: 2 });
    const linked = [...store.cells.all({ suiteHash: grown.hash, testId: 't1' })][0];
    expect(linked).toMatchObject({ status: 'done', attempts: 0 });
    expect(linked?.response?.text).toBe('echo: b');
  });

  it("a stopped model's cells the store answers are still linked; the others stay pending, uncalled", async () => {
    const store = newStore();
    const old = makeSuite(['b', 'd']);
    let refuse = false;
    const provider = new ScriptedProvider((p) => (refuse ? steps.fail('auth', 401) : steps.ok(`echo: ${p}`)));
    await run(store, old, makeCells(old, ['m']), { m: { provider } });
    refuse = true;
    const grown = makeSuite(['a', 'b', 'c', 'd']);
    const { summary } = await run(store, grown, makeCells(grown, ['m']), { m: { provider, concurrency: 1 } });
    expect(provider.calls).toBe(3); // 'a' refused; 'b' and 'd' from the store; 'c' not called
    expect(summary.coverage).toMatchObject({ total: 4, done: 2, cached: 2, failed: 1, pending: 1 });
    expect(summary.stoppedModels).toEqual({ m: expect.objectContaining({ kind: 'auth' }) });
  });
});

describe('ProviderError from scripted steps', () => {
  it('carries status and Retry-After', () => {
    const step = steps.fail('rate_limit', 429, 1000);
    expect('fail' in step && step.fail).toBeInstanceOf(ProviderError);
    expect('fail' in step && step.fail.retryAfterMs).toBe(1000);
  });
});

describe('cells another worker holds', () => {
  const holder = (owner: string) => ({ owner, pid: process.pid, host: 'here', startedMs: 0 });
  it('are neither called nor counted: claim() decides for each cell the store does not answer', async () => {
    const store = newStore();
    const suite = makeSuite(['a', 'b', 'c', 'd']);
    const m = new ScriptedProvider(echo, { identity: 'scripted:one' });
    const cells = makeCells(suite, ['m']);
    await run(store, suite, cells.slice(0, 1), { m: { provider: m } });
    store.leases.claim({ suiteHash: suite.hash, modelIdentity: 'scripted:one', chunk: 0 }, holder('w'));
    const asked: string[] = [];
    const { summary } = await run(
      store,
      suite,
      cells,
      { m: { provider: m } },
      {
        leases: {
          claim: (cell, identity) => {
            asked.push(`${cell.testId}@${identity}`);
            return cell.testId !== 't2';
          },
          holds: () => true,
          fence: () => ({ owner: 'w', chunk: 0 }),
        },
      },
    );
    // t0 is stored: answered without asking; t2 is another's.
    expect(asked).toEqual(['t1@scripted:one', 't2@scripted:one', 't3@scripted:one']);
    expect(m.calls).toBe(3);
    expect(summary.coverage).toMatchObject({ total: 3, done: 3, cached: 1, pending: 0 });
    expect([...store.cells.all({ suiteHash: suite.hash })].map((c) => c.testId)).toEqual(['t0', 't1', 't3']);
  });

  it('a cell whose chunk passed to another worker before its call is neither called nor written', async () => {
    const store = newStore();
    const suite = makeSuite(['a', 'b']);
    const m = new ScriptedProvider(echo, { identity: 'scripted:one' });
    const chunk = { suiteHash: suite.hash, modelIdentity: 'scripted:one', chunk: 0 };
    store.leases.claim(chunk, holder('stalled'));
    // Taken over: 'stalled' let its lease expire.
    store.leases.claim(chunk, holder('other'), { now: () => Date.now() + 60_000 });
    const { summary } = await run(
      store,
      suite,
      makeCells(suite, ['m']),
      { m: { provider: m } },
      {
        leases: {
          claim: () => true,
          holds: (cell) => cell.testId === 't0',
          fence: () => ({ owner: 'stalled', chunk: 0 }),
        },
      },
    );
    // t1 is not called; t0's answer came back under a lease that is no longer its own: refused.
    expect(m.calls).toBe(1);
    expect(summary.coverage.total).toBe(1);
    expect([...store.cells.all({ suiteHash: suite.hash })]).toEqual([]);
  });

  it('a retry is asked for its lease again: one whose chunk passed on during the backoff is not sent', async () => {
    const store = newStore();
    const suite = makeSuite(['flaky']);
    const m = new ScriptedProvider((_p, nth) => (nth === 0 ? steps.fail('server', 503) : steps.ok('late')), {
      identity: 'scripted:one',
    });
    let held = true;
    const { summary } = await run(
      store,
      suite,
      makeCells(suite, ['m']),
      { m: { provider: m } },
      {
        // The backoff is where the chunk passes on (a stall past the lease's time to live).
        sleep: async () => {
          held = false;
        },
        leases: { claim: () => true, holds: () => held, fence: () => ({ owner: 'w', chunk: 0 }) },
      },
    );
    expect(m.calls).toBe(1);
    expect(summary.coverage).toMatchObject({ total: 0, failed: 0 });
    expect([...store.cells.all({ suiteHash: suite.hash })]).toEqual([]);
  });
});
