import { describe, expect, it } from 'vitest';
import type { Suite } from '../domain/suites.js';
import { openStore } from './store.js';

const suite = (name: string, hash: string): Suite => ({ name, hash, tests: [{ id: 't', prompt: 'p' }] });

describe('finding suites', () => {
  it('by hash prefix: one match, none, or two when the prefix is ambiguous', () => {
    const store = openStore(':memory:');
    store.suites.save(suite('a', `abcd1234${'0'.repeat(56)}`));
    store.suites.save(suite('b', `abcd5678${'0'.repeat(56)}`));
    expect(store.suites.byPrefix('ABCD1234')).toEqual([{ hash: `abcd1234${'0'.repeat(56)}`, name: 'a' }]);
    expect(store.suites.byPrefix('abcd').map((s) => s.name)).toEqual(['a', 'b']);
    expect(store.suites.byPrefix('ffff')).toEqual([]);
    store.close();
  });

  it('by name: those with cells by their latest run, and every run of a name newest first', () => {
    const store = openStore(':memory:');
    const [x, y, z] = ['1', '2', '3'].map((d) => suite('named', d.repeat(64))) as [Suite, Suite, Suite];
    for (const s of [x, y, z]) store.suites.save(s);
    const run = (s: Suite, id: string) =>
      store.runs.begin({ id, suiteHash: s.hash, config: {}, waverVersion: 't' });
    const first = run(x, 'r1');
    run(y, 'r2');
    run(x, 'r3');
    run(z, 'r4');
    for (const [s, runId] of [
      [x, first],
      [y, 'r2'],
    ] as const)
      store.cells.saveFailed({
        suiteHash: s.hash,
        testId: 't',
        model: 'm',
        modelIdentity: 'm#1',
        repeat: 0,
        runId,
        request: { messages: [] },
        error: { kind: 'timeout', message: 'slow' },
        attempts: [],
      });
    // Runs of the same millisecond are told apart by their order.
    expect(store.suites.withCellsNamed('named')).toEqual([x.hash, y.hash]);
    expect(store.suites.runsNamed('named')).toEqual([z.hash, x.hash, y.hash, x.hash]);
    expect(store.suites.withCellsNamed('other')).toEqual([]);
    expect(store.suites.models(x.hash)).toEqual([{ model: 'm', modelIdentity: 'm#1' }]);
    store.close();
  });
});
