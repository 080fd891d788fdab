import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../models/errors.js';
import { type ProviderCall, runThrough } from './middleware.js';
import { estimateTokens, rateLimit, requestsPerMinute, TokenBucket, tokensPerMinute } from './rate-limit.js';

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

/** A clock that only moves when someone sleeps on it or a test advances it, and lists the sleeps. */
function bucketClock() {
  let t = 0;
  const slept: number[] = [];
  return {
    now: () => t,
    sleep: async (ms: number, signal?: AbortSignal) => {
      signal?.throwIfAborted();
      slept.push(ms);
      t += ms;
    },
    advance: (ms: number) => {
      t += ms;
    },
    slept,
    get t() {
      return t;
    },
  };
}

describe('TokenBucket', () => {
  it('lets the burst through at once, then paces at the refill rate', async () => {
    const clock = bucketClock();
    const bucket = new TokenBucket({ perMinute: 60, burst: 2, ...clock });
    await bucket.take(1);
    await bucket.take(1);
    expect(clock.t).toBe(0);
    await bucket.take(1);
    expect(clock.t).toBe(1000);
    for (let i = 0; i < 5; i++) await bucket.take(1);
    expect(clock.t).toBe(6000); // 60 per minute: one a second after the burst
  });

  it('refills with idle time, never above the burst', async () => {
    const clock = bucketClock();
    const bucket = new TokenBucket({ perMinute: 600, burst: 5, ...clock });
    for (let i = 0; i < 5; i++) await bucket.take(1);
    expect(bucket.available()).toBe(0);
    clock.advance(60_000);
    expect(bucket.available()).toBe(5);
  });

  it('serves concurrent waiters in order and never spends faster than the rate', async () => {
    const clock = bucketClock();
    const bucket = requestsPerMinute(120, clock); // burst 20, then 2 a second
    const times: number[] = [];
    await Promise.all(Array.from({ length: 40 }, () => bucket.take(1).then(() => times.push(clock.t))));
    expect(times).toHaveLength(40);
    expect(times.slice(0, 20).every((t) => t === 0)).toBe(true);
    expect(times[39]).toBe(10_000);
    // Over any window, takes <= burst + rate * window.
    for (let i = 0; i < times.length; i++) {
      for (let j = i; j < times.length; j++) {
        const window = (times[j] as number) - (times[i] as number);
        expect(j - i + 1).toBeLessThanOrEqual(20 + (120 * window) / 60_000 + 1e-9);
      }
    }
  });

  it('slows an oversized take instead of refusing it, and corrections move the level', async () => {
    const clock = bucketClock();
    const bucket = tokensPerMinute(1000, clock);
    await bucket.take(1500); // more than a minute's worth: waits for a full bucket, goes into debt
    expect(clock.t).toBe(0);
    expect(bucket.available()).toBe(-500);
    await bucket.take(100);
    expect(clock.t).toBe(36_000); // repay 500 and earn 100 at 1000/min
    bucket.adjust(-100); // the call used 100 fewer tokens than estimated
    expect(bucket.available()).toBe(100);
    bucket.adjust(300);
    expect(bucket.available()).toBe(-200);
  });

  it('an aborted waiter rejects and does not block the next', async () => {
    const clock = bucketClock();
    const bucket = new TokenBucket({ perMinute: 60, burst: 1, ...clock });
    await bucket.take(1);
    const ac = new AbortController();
    ac.abort(new Error('stopped'));
    await expect(bucket.take(1, ac.signal)).rejects.toThrow('stopped');
    await bucket.take(1);
    expect(clock.t).toBe(1000);
  });
});

describe('estimateTokens', () => {
  it('is about chars / 4 of the messages plus the output cap', () => {
    expect(estimateTokens({ messages: [{ content: 'x'.repeat(400) }] })).toBe(100);
    expect(estimateTokens({ messages: [{ content: 'abc' }, { content: 'de' }], maxTokens: 10 })).toBe(12);
  });
});
