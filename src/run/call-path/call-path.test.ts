import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../models/errors.js';
import { CALL_PATHS, callPath } from './call-path.js';
import { type ProviderCall, type ProviderMiddleware, runThrough } from './middleware.js';

const embed: ProviderCall = { kind: 'embed', request: { input: ['a text'] } };
const limits = { timeoutMs: 1000, maxRetries: 2, backoff: { baseMs: 1, capMs: 1 } };

/** The provider's end of the path: counts its tries, fails the first `failures` with a 503. */
function counted(failures = 0) {
  const state = { tries: 0 };
  const last = async () => {
    state.tries++;
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (state.tries <= failures) throw new ProviderError('server', '503', { status: 503 });
    return 'answer';
  };
  return { state, last };
}

describe('the named call paths', () => {
  it('are "run" and "serve", one file each', () => {
    expect(Object.keys(CALL_PATHS)).toEqual(['run', 'serve']);
  });

  it('"run" shares two identical embeddings in flight; "serve" makes both (one client hanging up fails no other)', async () => {
    for (const [name, tries] of [
      ['run', 1],
      ['serve', 2],
    ] as const) {
      const path = callPath(limits, {}, name);
      const { state, last } = counted();
      await Promise.all([runThrough(path, embed, {}, last), runThrough(path, embed, {}, last)]);
      expect(state.tries, name).toBe(tries);
    }
  });

  it('both retry a transient error as the limits say', async () => {
    for (const name of ['run', 'serve'] as const) {
      const { state, last } = counted(2);
      await expect(runThrough(callPath(limits, {}, name), embed, {}, last)).resolves.toBe('answer');
      expect(state.tries, name).toBe(3);
    }
  });

  it('"run" asks its cache first: a stored answer makes no try and meets no meter', async () => {
    const metered: string[] = [];
    const cache: ProviderMiddleware = async () => 'stored' as never;
    const meter: ProviderMiddleware = (call, options, next) => {
      metered.push(call.kind);
      return next(options);
    };
    const { state, last } = counted();
    const path = callPath({ ...limits, rpm: 1, cache, meter });
    await expect(runThrough(path, embed, {}, last)).resolves.toBe('stored');
    expect(state.tries).toBe(0);
    expect(metered).toEqual([]);
  });
});
