import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { openStore } from '../store/store.js';
import type { Cell, Suite } from './types.js';
import { CHUNK_TESTS, WorkerLeases } from './worker-leases.js';

const suite: Suite = {
  name: 'workers',
  hash: 'd'.repeat(64),
  tests: Array.from({ length: CHUNK_TESTS * 2 }, (_, i) => ({ id: `t${i}`, prompt: `p${i}` })),
};
const cell = (i: number): Cell => ({
  testId: `t${i}`,
  model: 'm',
  repeat: 0,
  request: { messages: [{ role: 'user', content: `p${i}` }], temperature: 0 },
});

describe('WorkerLeases', () => {
  it('split the chunks, wait for the ones another worker holds, and take them over once its lease expires', async () => {
    const store = openStore(join(mkdtempSync(join(tmpdir(), 'waver-leases-')), 'store.db'));
    const ttlMs = 300;
    const a = new WorkerLeases(store, suite, { ttlMs });
    const b = new WorkerLeases(store, suite, { ttlMs });
    expect(a.claim(cell(0), 'id')).toBe(true);
    expect(b.claim(cell(1), 'id')).toBe(false);
    expect(b.claim(cell(CHUNK_TESTS), 'id')).toBe(true);
    expect(a.claim(cell(CHUNK_TESTS + 1), 'id')).toBe(false);
    // A renews while it runs: still held well past one time to live.
    await delay(ttlMs * 2);
    expect(b.takeOver()).toEqual([]);
    expect(b.waiting).toBe(true);
    // B is through its own chunk; A waits for it and goes on once it is finished.
    b.finish();
    expect(a.takeOver()).toEqual([]);
    expect(a.waiting).toBe(false);
    // A stalls (stops renewing): B takes its chunk over after the time to live.
    a.close(false);
    await delay(ttlMs * 2);
    const taken = b.takeOver();
    expect(taken).toEqual([{ suiteHash: suite.hash, modelIdentity: 'id', chunk: 0 }]);
    expect(b.testsIn(suite, taken, 'id').tests.map((t) => t.id)).toEqual(
      suite.tests.slice(0, CHUNK_TESTS).map((t) => t.id),
    );
    expect(b.testsIn(suite, taken, 'other').tests).toEqual([]);
    b.close(true);
    store.close();
  });

  it('a stalled worker whose chunk was taken over leaves the rest of it to the new holder', async () => {
    const store = openStore(join(mkdtempSync(join(tmpdir(), 'waver-leases-')), 'store.db'));
    let clock = 1_000;
    const now = () => clock;
    const a = new WorkerLeases(store, suite, { ttlMs: 90, now });
    const b = new WorkerLeases(store, suite, { ttlMs: 90, now });
    expect(a.claim(cell(0), 'id')).toBe(true);
    clock += 1_000; // A's clock stalls past its lease; B takes the chunk over.
    expect(b.claim(cell(1), 'id')).toBe(true);
    await delay(100); // A's next renewal finds the chunk gone
    expect(a.claim(cell(2), 'id')).toBe(false);
    expect(a.waiting).toBe(true);
    a.close(true);
    b.close(true);
    store.close();
  });

  it('fails closed when a due renewal cannot be made (a store busy past its timeout): the chunk waits to be claimed again', () => {
    const store = openStore(join(mkdtempSync(join(tmpdir(), 'waver-leases-')), 'store.db'));
    let clock = 1_000;
    const a = new WorkerLeases(store, suite, { ttlMs: 90, now: () => clock });
    expect(a.claim(cell(0), 'id')).toBe(true);
    expect(a.holds(cell(0), 'id')).toBe(true);
    const renew = store.leases.renew;
    store.leases.renew = () => {
      throw new Error('database is locked');
    };
    clock += 50; // past half the time to live: holds() must renew first, and cannot
    expect(a.holds(cell(0), 'id')).toBe(false);
    expect(a.waiting).toBe(true);
    store.leases.renew = renew;
    expect(a.takeOver()).toEqual([{ suiteHash: suite.hash, modelIdentity: 'id', chunk: 0 }]);
    expect(a.holds(cell(0), 'id')).toBe(true);
    a.close(true);
    store.close();
  });
});
