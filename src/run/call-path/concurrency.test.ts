import { describe, expect, it } from 'vitest';
import { concurrency } from './concurrency.js';
import { type ProviderCall, runThrough } from './middleware.js';

const call: ProviderCall = { kind: 'embed', request: { input: ['x'] } };

describe('concurrency middleware', () => {
  it('never has more tries on the wire than its limit, whatever the kind of call', async () => {
    const mw = concurrency(2);
    let inFlight = 0;
    let most = 0;
    const next = async () => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((r) => setTimeout(r, 5));
      inFlight--;
      return 'ok';
    };
    const score: ProviderCall = { kind: 'score', request: { messages: [], continuation: 'x' } };
    await Promise.all(Array.from({ length: 8 }, (_, i) => runThrough([mw], i % 2 ? call : score, {}, next)));
    expect(most).toBe(2);
  });

  it('a caller stopped while queued leaves the queue without a call', async () => {
    const mw = concurrency(1);
    let calls = 0;
    let release: () => void = () => {};
    const first = runThrough([mw], call, {}, () => {
      calls++;
      return new Promise<void>((r) => {
        release = r;
      });
    });
    const stop = new AbortController();
    const queued = runThrough([mw], call, { signal: stop.signal }, async () => {
      calls++;
    });
    stop.abort();
    await expect(queued).rejects.toThrow();
    release();
    await first;
    expect(calls).toBe(1);
  });
});
