import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../models/errors.js';
import { DEFAULT_RETRY_POLICY } from '../retry.js';
import { type ProviderCall, runThrough } from './middleware.js';
import { retry } from './retry.js';

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
