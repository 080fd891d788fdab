import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { GenerateResult } from '../models/types.js';
import { type CellWrite, openStore, type Store } from '../store/store.js';
import { hashOf } from '../util/hash.js';
import { CellWriter, type CellWriterOptions, ModelIdentities } from './cell-writer.js';
import { RunTally } from './tally.js';
import type { Cell, Progress } from './types.js';

const dirs: string[] = [];
const stores: Store[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const model = { label: 'm', identity: 'scripted:m' };
const answer: GenerateResult = {
  text: 'yes',
  finishReason: 'stop',
  usage: { inputTokens: 3, outputTokens: 1 },
  responseModel: 'm',
};

/** A store with a suite of `n` tests, its transactions counted by size. */
function setUp(n: number) {
  const dir = mkdtempSync(join(tmpdir(), 'waver-writer-'));
  dirs.push(dir);
  const store = openStore(join(dir, 'store.db'));
  stores.push(store);
  const tests = Array.from({ length: n }, (_, i) => ({ id: `t${i}`, prompt: `p${i}` }));
  const suite = { name: 'unit', hash: hashOf(tests), tests };
  store.suites.save(suite);
  const runId = store.runs.begin({ suiteHash: suite.hash, config: {}, waverVersion: 'test' });
  const commits: number[] = [];
  const save = store.cells.write.bind(store.cells);
  store.cells.write = (writes: readonly CellWrite[]) => {
    commits.push(writes.length);
    save(writes);
  };
  const cells: Cell[] = tests.map((t) => ({
    testId: t.id,
    model: model.label,
    repeat: 0,
    request: { messages: [{ role: 'user', content: t.prompt }] },
  }));
  const progress: Progress[] = [];
  const tally = new RunTally(n, (p) => progress.push(p));
  const writer = (opts: Partial<CellWriterOptions> = {}) =>
    new CellWriter({ store, suiteHash: suite.hash, runId, tally, replace: false, ...opts });
  return { store, cells, commits, tally, progress, writer };
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('CellWriter', () => {
  it('group commit: cells finishing within `ms` share one transaction, and 256 are committed at once', async () => {
    const { store, cells, commits, tally, progress, writer } = setUp(300);
    const committed: string[] = [];
    const errors: unknown[] = [];
    const w = writer({ groupCommit: { ms: 20, onError: (e) => errors.push(e) } });
    for (const cell of cells.slice(0, 3))
      w.done(model, cell, `k-${cell.testId}`, answer, [], 1, () => committed.push(cell.testId));
    expect(commits).toEqual([]);
    await wait(60);
    expect(commits).toEqual([3]);
    expect(committed).toEqual(['t0', 't1', 't2']);
    for (const cell of cells.slice(3)) w.done(model, cell, `k-${cell.testId}`, answer, [], 1);
    expect(commits).toEqual([3, 256]);
    w.flush();
    expect(commits).toEqual([3, 256, 41]);
    expect([...store.cells.all()]).toHaveLength(300);
    expect(errors).toEqual([]);
    tally.emit();
    expect(progress.at(-1)).toMatchObject({ total: 300, done: 300, pending: 0, tokensIn: 900 });
  });

  it('group commit at 0 ms commits at the next turn of the event loop', async () => {
    const { store, cells, commits, writer } = setUp(3);
    const errors: unknown[] = [];
    const w = writer({ groupCommit: { ms: 0, onError: (e) => errors.push(e) } });
    const [t0, t1, t2] = cells as [Cell, Cell, Cell];
    w.failed(model, t0, { kind: 'server', message: 'down' }, []);
    w.done(model, t1, 'k', answer, [], 1);
    w.cached(model, t2, 'k');
    expect(commits).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(commits).toEqual([3]);
    expect(errors).toEqual([]);
    expect([...store.cells.all()].map((c) => `${c.testId} ${c.status}`)).toEqual([
      't0 failed',
      't1 done',
      't2 done',
    ]);
  });

  it('a failed commit goes to onError under group commit, and is thrown without it', async () => {
    const { store, cells, writer } = setUp(1);
    const cell = cells[0] as Cell;
    store.cells.write = () => {
      throw new Error('disk full');
    };
    const errors: unknown[] = [];
    let committed = false;
    const grouped = writer({ groupCommit: { ms: 5, onError: (e) => errors.push(e) } });
    grouped.done(model, cell, 'k', answer, [], 1, () => {
      committed = true;
    });
    await wait(30);
    expect(errors.map(String)).toEqual(['Error: disk full']);
    // What waited for the transaction is let go: the run stops on the error.
    expect(committed).toBe(true);
    const plain = writer();
    plain.done(model, cell, 'k', answer, [], 1);
    expect(() => plain.flush()).toThrow('disk full');
  });
});

describe('ModelIdentities', () => {
  it('refuses a second label for one identity: its cells would be listed twice', () => {
    const identities = new ModelIdentities();
    identities.add('a', 'openai:x');
    identities.add('b', 'openai:y');
    expect(() => identities.add('c', 'openai:x')).toThrow(
      'cell listed twice: models "a" and "c" share the identity openai:x',
    );
  });
});
