import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../store/store.js';
import type { Cell } from '../types.js';
import { DoneCells } from './done-cells.js';

const dirs: string[] = [];
const stores: Store[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const IDENTITY = 'scripted:m';

/** A store holding test t0 done (repeats 0 and 1, keys k0-0, k0-1) and t1 failed. */
function storeWithCells(): { store: Store; suiteHash: string } {
  const dir = mkdtempSync(join(tmpdir(), 'waver-done-cells-'));
  dirs.push(dir);
  const store = openStore(join(dir, 'store.db'));
  stores.push(store);
  const suite = {
    name: 's',
    hash: 'h',
    tests: [
      { id: 't0', prompt: 'a' },
      { id: 't1', prompt: 'b' },
    ],
  };
  store.suites.save(suite);
  const runId = store.runs.begin({ suiteHash: suite.hash, config: {}, waverVersion: 'test' });
  const ref = (testId: string, repeat: number) => ({
    suiteHash: suite.hash,
    testId,
    model: 'm',
    modelIdentity: IDENTITY,
    repeat,
    runId,
    request: { messages: [{ role: 'user' as const, content: testId }] },
    attempts: [],
  });
  const result = { text: 'x', finishReason: 'stop' as const, usage: { inputTokens: 1, outputTokens: 1 } };
  store.cells.write([
    { kind: 'done', cell: { ...ref('t0', 0), key: 'k0-0', result } },
    { kind: 'done', cell: { ...ref('t0', 1), key: 'k0-1', result } },
    { kind: 'failed', cell: { ...ref('t1', 0), error: { kind: 'server', message: '503' } } },
  ]);
  return { store, suiteHash: suite.hash };
}

const cell = (testId: string, repeat: number): Cell => ({
  testId,
  repeat,
  model: 'm',
  request: { messages: [{ role: 'user', content: testId }] },
});

/** The keys DoneCells gives for every cell of the store, and how many per-cell reads it made. */
function keysAndReads(store: Store, done: () => DoneCells) {
  let reads = 0;
  const doneKey = store.cells.doneKey.bind(store.cells);
  store.cells.doneKey = (...args) => {
    reads++;
    return doneKey(...args);
  };
  const cells = done();
  const keys = [cell('t0', 0), cell('t0', 1), cell('t0', 2), cell('t1', 0)].map((c) => cells.keyOf(c));
  return { keys, reads };
}

describe('DoneCells', () => {
  it("holds a model's done cells read once, and gives the same keys as the store", () => {
    const { store, suiteHash } = storeWithCells();
    const held = keysAndReads(store, () => new DoneCells(store, suiteHash, IDENTITY, true));
    expect(held).toEqual({ keys: ['k0-0', 'k0-1', undefined, undefined], reads: 0 });
  });

  it('asks the store cell by cell past its bound (memory, E16)', () => {
    const { store, suiteHash } = storeWithCells();
    expect(keysAndReads(store, () => new DoneCells(store, suiteHash, IDENTITY, true, 1))).toEqual({
      keys: ['k0-0', 'k0-1', undefined, undefined],
      reads: 4,
    });
  });

  it('with other workers writing meanwhile, asks the store only for the cells not done as it started', () => {
    const { store, suiteHash } = storeWithCells();
    // t0 x 2 were done at the start and stay done: read once; t0/2 and t1/0 may be finished by another worker.
    expect(keysAndReads(store, () => new DoneCells(store, suiteHash, IDENTITY, false))).toEqual({
      keys: ['k0-0', 'k0-1', undefined, undefined],
      reads: 2,
    });
  });
});
