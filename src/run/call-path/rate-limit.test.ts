import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../models/errors.js';
import { type ProviderCall, runThrough } from './middleware.js';
import { rateLimit } from './rate-limit.js';

/** A clock that only moves when someone sleeps on it. */
function fakeClock() {
  const clock = {
    t: 0,
    now: () => clock.t,
    sleep: async (ms: number, signal?: AbortSignal) => {
      signal?.throwIfAborted();
      clock.t += ms;
    },
  };
  return clock;
}

const generate: ProviderCall = { kind: 'generate', request: { messages: [{ role: 'user', content: 'hi' }] } };
const embed = (chars: number): ProviderCall => ({ kind: 'embed', request: { input: ['x'.repeat(chars)] } });

describe('rate-limit middleware', () => {
  it('paces requests per minute: a burst of 10 seconds, then one a second, across every kind of call', async () => {
    const clock = fakeClock();
    const mw = rateLimit({ rpm: 60 }, clock);
    const at: number[] = [];
    const next = async () => {
      at.push(clock.t);
      return { text: '', finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 1 } };
    };
    for (let i = 0; i < 6; i++) await runThrough([mw], generate, {}, next);
    for (let i = 0; i < 6; i++) await runThrough([mw], embed(4), {}, next);
    expect(at.slice(0, 10).every((t) => t === 0)).toBe(true);
    expect(at.slice(10)).toEqual([1000, 2000]);
  });

  it('paces tokens per minute by estimate, corrected by the usage reported, and refunds a failed try', async () => {
    const clock = fakeClock();
    const mw = rateLimit({ tpm: 600 }, clock);
    // 2,400 characters: an estimate of 600 tokens, a full minute's worth.
    const answered = async () => ({ embeddings: [[1]], usage: { inputTokens: 600 } });
    await runThrough([mw], embed(2400), {}, answered);
    expect(clock.t).toBe(0);
    await runThrough([mw], embed(2400), {}, answered);
    expect(clock.t).toBe(60_000); // waited for the bucket to refill
    const failed = async () => {
      throw new ProviderError('server', 'down');
    };
    await expect(runThrough([mw], embed(2400), {}, failed)).rejects.toThrow('down');
    const afterFailure = clock.t;
    // The failed try waited for its tokens, then got them back: the next need not wait.
    expect(afterFailure).toBe(120_000);
    await runThrough([mw], embed(2400), {}, answered);
    expect(clock.t).toBe(afterFailure);
  });

  it('keeps its buckets per middleware: another instance is not slowed', async () => {
    const clock = fakeClock();
    const one = rateLimit({ rpm: 6 }, clock);
    const other = rateLimit({ rpm: 6 }, clock);
    const next = async () => 'ok';
    await runThrough([one], embed(1), {}, next);
    await runThrough([other], embed(1), {}, next);
    expect(clock.t).toBe(0);
    await runThrough([one], embed(1), {}, next);
    expect(clock.t).toBe(10_000);
  });

  it('a stopped caller leaves the wait without a call', async () => {
    const clock = fakeClock();
    const mw = rateLimit({ rpm: 6 }, clock);
    let calls = 0;
    const next = async () => ++calls;
    await runThrough([mw], embed(1), {}, next);
    const stop = new AbortController();
    stop.abort(new Error('run stopped'));
    await expect(runThrough([mw], embed(1), { signal: stop.signal }, next)).rejects.toThrow('run stopped');
    expect(calls).toBe(1);
  });
});
