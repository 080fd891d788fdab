import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { GenerateRequest } from '../domain/calls.js';
import type { Suite } from '../domain/suites.js';
import { InputError } from '../errors.js';
import { cacheKey } from '../run/cache-key.js';
import { mergeStores } from './merge.js';
import { openStore, type Store } from './store.js';

const suite: Suite = {
  name: 'tiny.jsonl',
  hash: 'b'.repeat(64),
  tests: [
    { id: 't1', prompt: 'one' },
    { id: 't2', prompt: 'two' },
    { id: 't3', prompt: 'three', repeats: 2 },
  ],
};
const identity = 'openai:m@http://127.0.0.1:1/v1';
const req = (prompt: string): GenerateRequest => ({
  messages: [{ role: 'user', content: prompt }],
  temperature: 0,
});
const ref = (testId: string, repeat = 0) => ({
  suiteHash: suite.hash,
  testId,
  model: 'm',
  modelIdentity: identity,
  repeat,
});
const at = (n: number) => `2026-01-01T00:00:0${n}.000Z`;

function storeAt(dir: string, name: string, fill: (s: Store, runId: string) => void): string {
  const path = join(dir, name);
  const s = openStore(path);
  s.suites.save(suite);
  const runId = s.runs.begin({ suiteHash: suite.hash, config: {}, waverVersion: 'test' });
  fill(s, runId);
  s.runs.finish(runId, 'incomplete');
  s.close();
  return path;
}

function done(s: Store, runId: string, testId: string, text: string, repeat = 0): void {
  const request = req(suite.tests.find((t) => t.id === testId)?.prompt as string);
  s.cells.saveDone({
    ...ref(testId, repeat),
    runId,
    key: cacheKey(identity, request, repeat),
    request,
    result: { text, finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 1 } },
    attempts: [{ attempt: 1, startedAt: at(repeat + 1), outcome: 'ok' }],
  });
}

function failed(s: Store, runId: string, testId: string): void {
  s.cells.saveFailed({
    ...ref(testId),
    runId,
    request: req('x'),
    error: { kind: 'server', message: 'HTTP 500' },
    attempts: [{ attempt: 1, startedAt: at(0), outcome: 'server', message: 'HTTP 500' }],
  });
}

/** The one line an InputError thrown by `fn` prints. */
function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (e instanceof InputError) return e.format();
    throw e;
  }
  throw new Error('expected an InputError');
}

describe('mergeStores', () => {
  it('unites cells, runs, attempts, stopped attempts and aux results; a done cell wins over a failed one; counts stay exact', () => {
    const dir = mkdtempSync(join(tmpdir(), 'waver-merge-'));
    const a = storeAt(dir, 'a.db', (s, run) => {
      done(s, run, 't1', 'answer one');
      failed(s, run, 't2');
      s.cells.write([
        {
          kind: 'stopped',
          cell: {
            ...ref('t3', 1),
            runId: run,
            attempts: [{ attempt: 1, startedAt: at(5), outcome: 'aborted' }],
          },
        },
      ]);
      s.aux.insert({ key: 'k1', kind: 'embed', identity, requestJson: '{}', resultJson: '[1]' });
    });
    const b = storeAt(dir, 'b.db', (s, run) => {
      done(s, run, 't1', 'answer one');
      done(s, run, 't2', 'answer two');
      done(s, run, 't3', 'answer three', 0);
      done(s, run, 't3', 'answer three', 1);
      s.aux.insert({ key: 'k1', kind: 'embed', identity, requestJson: '{}', resultJson: '[1.0000001]' });
    });
    const out = join(dir, 'out.db');
    const outcome = mergeStores([a, b], out);
    expect(outcome.cells).toBe(4);
    expect(
      outcome.sources.map(({ added, replaced, attempts, auxKept }) => ({
        added,
        replaced,
        attempts,
        auxKept,
      })),
    ).toEqual([
      { added: 2, replaced: 0, attempts: 2, auxKept: 0 },
      { added: 2, replaced: 1, attempts: 4, auxKept: 1 },
    ]);
    const merged = openStore(out, { readonly: true });
    try {
      expect(merged.coverage.of(suite.hash, [{ identity, repeats: 1 }])).toMatchObject({
        total: 4,
        done: 4,
        failed: 0,
        pending: 0,
      });
      expect(merged.coverage.cellTotals(suite.hash)).toEqual([
        { suiteHash: suite.hash, modelIdentity: identity, model: 'm', status: 'done', count: 4 },
      ]);
      const t2 = [...merged.cells.all({ suiteHash: suite.hash })].find((c) => c.testId === 't2');
      expect(t2?.status).toBe('done');
      // Both stores' tries of t2 are kept: the failed call and the one that answered.
      expect(
        merged.attempts
          .of(t2?.id as number)
          .map((x) => x.outcome)
          .sort(),
      ).toEqual(['ok', 'server']);
      expect(merged.attempts.stopped()).toHaveLength(1);
      expect(merged.runs.list()).toHaveLength(2);
      expect(merged.aux.get('k1')).toBe('[1]');
    } finally {
      merged.close();
    }
    // Merged again into itself: nothing doubles.
    const again = mergeStores([a, b], out);
    expect(again.sources.map((s) => s.added + s.replaced + s.attempts)).toEqual([0, 0]);
  });

  it("carries each store's provider batches, an open one still open and one collected since as collected", () => {
    const dir = mkdtempSync(join(tmpdir(), 'waver-merge-'));
    const request = req('two');
    const cell = {
      customId: 'c1',
      model: 'm',
      testId: 't2',
      repeat: 0,
      key: cacheKey(identity, request, 0),
      request,
    };
    let batchId = '';
    const a = storeAt(dir, 'a.db', (s, runId) => {
      batchId = s.batches.record({
        providerId: 'batch_1',
        modelIdentity: identity,
        suiteHash: suite.hash,
        runId,
        cells: [cell],
      }).id;
    });
    const b = storeAt(dir, 'b.db', (s, runId) => {
      s.batches.record({
        providerId: 'batch_2',
        modelIdentity: identity,
        suiteHash: suite.hash,
        runId,
        cells: [cell],
      });
    });
    const out = join(dir, 'out.db');
    mergeStores([a, b], out);
    const merged = openStore(out, { readonly: true });
    try {
      expect(merged.batches.open(suite.hash, identity).map((x) => x.providerId)).toEqual([
        'batch_1',
        'batch_2',
      ]);
      expect(merged.batches.cells(batchId)).toHaveLength(1);
    } finally {
      merged.close();
    }
    // The first store's batch collected since: merged again, it is collected in the output too.
    const s = openStore(a);
    s.batches.end(batchId, 'collected');
    s.close();
    mergeStores([a], out);
    const after = openStore(out, { readonly: true });
    try {
      expect(after.batches.open(suite.hash, identity).map((x) => x.providerId)).toEqual(['batch_2']);
    } finally {
      after.close();
    }
  });

  it('refuses a cell done with two different answers and leaves the output as it was', () => {
    const dir = mkdtempSync(join(tmpdir(), 'waver-merge-'));
    const a = storeAt(dir, 'a.db', (s, run) => done(s, run, 't1', 'yes'));
    const b = storeAt(dir, 'b.db', (s, run) => done(s, run, 't1', 'no'));
    const out = join(dir, 'out.db');
    mergeStores([a], out);
    const bytes = readFileSync(out);
    expect(refusal(() => mergeStores([b], out))).toBe(
      `${b}: cell (suite tiny.jsonl bbbbbbbbbbbb, model m, test "t1", repeat 0) has two different responses: "no" here, "yes" in ${out}; nothing was written`,
    );
    expect(readFileSync(out).equals(bytes)).toBe(true);
    expect(existsSync(`${out}.merging-${process.pid}`)).toBe(false);
  });

  it('refuses a missing store, a source named as --out, and a file that is not a store', () => {
    const dir = mkdtempSync(join(tmpdir(), 'waver-merge-'));
    const a = storeAt(dir, 'a.db', (s, run) => done(s, run, 't1', 'yes'));
    const notStore = join(dir, 'notes.txt');
    writeFileSync(notStore, 'hello, this is not SQLite at all, and it is long enough to have a header');
    expect(refusal(() => mergeStores([join(dir, 'none.db')], join(dir, 'o.db')))).toMatch(
      /none\.db: store not found: a run writes one \(waver run, ladder, sago or paraphrase\)$/,
    );
    expect(refusal(() => mergeStores([a], a))).toMatch(/a\.db: is both a source and --out/);
    expect(refusal(() => mergeStores([a, notStore], join(dir, 'o.db')))).toMatch(
      /notes\.txt: not a SQLite database/,
    );
    expect(existsSync(join(dir, 'o.db'))).toBe(false);
  });
});
