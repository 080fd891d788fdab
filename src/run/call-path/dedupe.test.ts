import { describe, expect, it } from 'vitest';
import { dedupe } from './dedupe.js';
import { type ProviderCall, runThrough } from './middleware.js';

const embed = (text: string): ProviderCall => ({ kind: 'embed', request: { input: [text] } });

function slowCalls() {
  const state = { calls: 0 };
  const next = () =>
    new Promise<number>((resolve) => {
      state.calls++;
      setTimeout(() => resolve(state.calls), 10);
    });
  return { state, next };
}

describe('dedupe middleware', () => {
  it('makes one call for two identical concurrent asks, and calls again once it has answered', async () => {
    const mw = dedupe();
    const { state, next } = slowCalls();
    const [a, b] = await Promise.all([
      runThrough([mw], embed('same'), {}, next),
      runThrough([mw], { kind: 'embed', request: { input: ['same'] } }, {}, next),
    ]);
    expect([a, b, state.calls]).toEqual([1, 1, 1]);
    await runThrough([mw], embed('same'), {}, next);
    expect(state.calls).toBe(2); // in flight only: no cache
    await Promise.all([runThrough([mw], embed('a'), {}, next), runThrough([mw], embed('b'), {}, next)]);
    expect(state.calls).toBe(4);
  });

  it('shares an error with every asker', async () => {
    const mw = dedupe();
    let calls = 0;
    const failing = async () => {
      calls++;
      await new Promise((r) => setTimeout(r, 5));
      throw new Error('refused');
    };
    const results = await Promise.allSettled([
      runThrough([mw], embed('x'), {}, failing),
      runThrough([mw], embed('x'), {}, failing),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(calls).toBe(1);
  });

  it('leaves generations alone: two asks are two samples', async () => {
    const mw = dedupe();
    const { state, next } = slowCalls();
    const call: ProviderCall = { kind: 'generate', request: { messages: [{ role: 'user', content: 'x' }] } };
    await Promise.all([runThrough([mw], call, {}, next), runThrough([mw], call, {}, next)]);
    expect(state.calls).toBe(2);
  });
});
