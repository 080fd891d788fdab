import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../models/errors.js';
import { type ProviderCall, runThrough } from './middleware.js';
import { backoffMs, DEFAULT_RETRY_POLICY, retry, retryDelayMs, sleep } from './retry.js';

const call: ProviderCall = { kind: 'score', request: { messages: [], continuation: 'x' } };

/** A call that fails with `errors` in turn, then answers 'ok'; counts its tries. */
function failing(...errors: ProviderError[]) {
  const state = { tries: 0 };
  const next = async () => {
    const error = errors[state.tries++];
    if (error) throw error;
    return 'ok';
  };
  return { state, next };
}

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

describe('retry middleware', () => {
  it("honours a 429's Retry-After, and tells the observer", async () => {
    const { state, next } = failing(new ProviderError('rate_limit', 'slow down', { retryAfterMs: 3000 }));
    const { delays, sleep } = recordSleep();
    const retries: number[] = [];
    const mw = retry({ ...DEFAULT_RETRY_POLICY, maxRetries: 3 }, { sleep, random: () => 0 });
    const options = { observer: { onRetry: (ms: number) => retries.push(ms) } };
    expect(await runThrough([mw], call, options, next)).toBe('ok');
    expect(state.tries).toBe(2);
    expect(delays).toEqual([3000]);
    expect(retries).toEqual([3000]);
  });

  it('backs off with full jitter and gives up after maxRetries with the last error', async () => {
    const down = (n: number) => new ProviderError('server', `down ${n}`, { status: 503 });
    const { state, next } = failing(down(1), down(2), down(3), down(4));
    const { delays, sleep } = recordSleep();
    const mw = retry({ ...DEFAULT_RETRY_POLICY, maxRetries: 2 }, { sleep, random: () => 0.5 });
    await expect(runThrough([mw], call, {}, next)).rejects.toThrow('down 3');
    expect(state.tries).toBe(3);
    expect(delays).toEqual([250, 500]); // 0.5 * 500 * 2^n
  });

  it('fails at once on an error that is not transient, or when the caller stopped', async () => {
    const { delays, sleep } = recordSleep();
    const mw = retry(DEFAULT_RETRY_POLICY, { sleep });
    const auth = failing(new ProviderError('auth', 'bad key'));
    await expect(runThrough([mw], call, {}, auth.next)).rejects.toThrow('bad key');
    expect(auth.state.tries).toBe(1);
    const bug = async () => {
      throw new TypeError('a provider bug');
    };
    await expect(runThrough([mw], call, {}, bug)).rejects.toThrow('a provider bug');

    const stop = new AbortController();
    const stopped = async () => {
      stop.abort();
      throw new ProviderError('server', 'down');
    };
    await expect(runThrough([mw], call, { signal: stop.signal }, stopped)).rejects.toThrow('down');
    expect(delays).toEqual([]);
  });
});

const policy = { ...DEFAULT_RETRY_POLICY, maxRetries: 10, baseMs: 500, capMs: 30_000 };

describe('backoff with full jitter', () => {
  it('stays within [0, min(cap, base * 2^n)) and reaches the bound at random -> 1', () => {
    for (let n = 0; n < 12; n++) {
      const bound = Math.min(30_000, 500 * 2 ** n);
      expect(backoffMs(n, policy, () => 0)).toBe(0);
      const top = backoffMs(n, policy, () => 0.999999);
      expect(top).toBeLessThan(bound);
      expect(top).toBeGreaterThanOrEqual(Math.floor(bound * 0.999));
    }
    expect(backoffMs(200, policy, () => 0.5)).toBe(15_000); // capped, no overflow
  });

  it('uses the configured base and cap', () => {
    expect(backoffMs(3, { baseMs: 10, capMs: 1000 }, () => 0.5)).toBe(40);
    expect(backoffMs(10, { baseMs: 10, capMs: 1000 }, () => 0.5)).toBe(500);
  });
});

describe('retryDelayMs', () => {
  const half = () => 0.5;

  it('retries rate limits, 5xx, timeouts, resets and bad responses', () => {
    for (const kind of ['rate_limit', 'server', 'timeout', 'network', 'bad_response'] as const) {
      expect(retryDelayMs(new ProviderError(kind, 'x'), 0, policy, half)).toBe(250);
    }
  });

  it('does not retry auth, client, unsupported, no_recording or non-provider errors', () => {
    for (const kind of ['auth', 'client', 'unsupported', 'no_recording'] as const) {
      expect(retryDelayMs(new ProviderError(kind, 'x', { status: 400 }), 0, policy, half)).toBeUndefined();
    }
    expect(retryDelayMs(new TypeError('boom'), 0, policy, half)).toBeUndefined();
  });

  it('stops after maxRetries', () => {
    const e = new ProviderError('server', 'x', { status: 500 });
    const p = { ...policy, maxRetries: 2 };
    expect(retryDelayMs(e, 0, p, half)).toBeDefined();
    expect(retryDelayMs(e, 1, p, half)).toBeDefined();
    expect(retryDelayMs(e, 2, p, half)).toBeUndefined();
  });

  it('waits at least Retry-After, even when the backoff would be shorter', () => {
    const e = new ProviderError('rate_limit', '429', { status: 429, retryAfterMs: 7000 });
    for (const r of [0, 0.3, 0.999]) {
      const d = retryDelayMs(e, 0, policy, () => r) as number;
      expect(d).toBeGreaterThanOrEqual(7000);
      expect(d).toBeLessThan(7000 + policy.baseMs);
    }
    const zero = new ProviderError('rate_limit', '429', { status: 429, retryAfterMs: 0 });
    expect(retryDelayMs(zero, 0, policy, () => 0)).toBe(0);
  });

  it('caps an absurd Retry-After', () => {
    const e = new ProviderError('rate_limit', '429', { retryAfterMs: 86_400_000 });
    expect(retryDelayMs(e, 0, policy, () => 0)).toBe(policy.maxRetryAfterMs);
  });
});

describe('sleep', () => {
  it('rejects with the reason when aborted', async () => {
    const ac = new AbortController();
    const p = sleep(10_000, ac.signal);
    ac.abort(new Error('stop'));
    await expect(p).rejects.toThrow('stop');
  });
});
