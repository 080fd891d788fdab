import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../models/errors.js';
import { type ProviderCall, runThrough } from './middleware.js';
import { timeout } from './timeout.js';

const call: ProviderCall = { kind: 'embed', request: { input: ['x'] } };

/** A call that answers only by rejecting when its signal fires; records the signal it got. */
function hanging() {
  const seen: AbortSignal[] = [];
  const next = ({ signal }: { signal?: AbortSignal }) =>
    new Promise<never>((_, reject) => {
      if (signal) seen.push(signal);
      signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
    });
  return { seen, next };
}

describe('timeout middleware', () => {
  it('fails a try past its deadline with a retryable timeout, and aborts the call', async () => {
    const { seen, next } = hanging();
    const t0 = performance.now();
    const error = await runThrough([timeout(30)], call, {}, next).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: 'timeout', message: 'no answer within 30 ms', retryable: true });
    expect(performance.now() - t0).toBeLessThan(1000);
    expect(seen[0]?.aborted).toBe(true);
    expect(seen[0]?.reason).toBe(error);
  });

  it('does not wait on a call that ignores its signal', async () => {
    const deaf = () => new Promise<never>(() => {});
    await expect(runThrough([timeout(20)], call, {}, deaf)).rejects.toMatchObject({ kind: 'timeout' });
  });

  it("a stopped caller gets its own reason, not a timeout, and the call's signal fires", async () => {
    const { seen, next } = hanging();
    const caller = new AbortController();
    const pending = runThrough([timeout(5000)], call, { signal: caller.signal }, next);
    caller.abort(new Error('run stopped'));
    await expect(pending).rejects.toThrow('run stopped');
    expect(seen[0]?.aborted).toBe(true);
  });

  it('passes an answer in time through', async () => {
    expect(await runThrough([timeout(1000)], call, {}, async () => 'fine')).toBe('fine');
  });
});
