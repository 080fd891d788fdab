import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeCells } from '../../check/test-support/stores.js';
import { openStore } from '../../store/store.js';
import { buildReportStore } from '../../test-support/report-store.js';
import { assertBuilt, cleanEnv, runCli } from '../test-support/cli.js';

/**
 * `waver export` through the built CLI: a suite named by a hash prefix as `waver check` takes it,
 * and a --suite or --model that names nothing in the store is bad input (exit 2), not an empty
 * export that passes.
 */

const env = cleanEnv();
const dir = mkdtempSync(join(tmpdir(), 'waver-export-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(assertBuilt);

const path = join(dir, 'store.db');
const store = openStore(path);
const tests = [
  { id: 'p1', prompt: 'hello' },
  { id: 'p2', prompt: 'bye' },
];
const models = [
  { label: 'alpha', identity: 'replay:alpha', answer: () => true },
  { label: 'beta', identity: 'replay:beta', answer: () => true },
];
writeCells(store, { name: 'a.jsonl', hash: `0aefa691a${'1'.repeat(55)}`, tests }, models, () => 'hi');
writeCells(store, { name: 'b.jsonl', hash: `0aefa691b${'2'.repeat(55)}`, tests }, models, () => 'hi');
store.close();

const exported = async (args: string[]) => {
  const r = await runCli(['export', '--store', path, ...args], { env });
  const lines = r.stdout.split('\n').filter((l) => l !== '');
  return {
    ...r,
    records: lines.map((l) => JSON.parse(l) as { suite: { hash: string }; model: { label: string } }),
  };
};

describe('waver export', () => {
  it('takes a suite hash prefix, and filters by model within it', async () => {
    const r = await exported(['--suite', '0aefa691a', '--model', 'beta']);
    expect(r.code).toBe(0);
    expect(r.records.map((t) => [t.suite.hash.slice(0, 9), t.model.label])).toEqual([
      ['0aefa691a', 'beta'],
      ['0aefa691a', 'beta'],
    ]);
  });

  it('exit 2 naming an unknown or ambiguous suite, or a model the store lacks', async () => {
    const unknown = await exported(['--suite', 'deadbeef']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no suite deadbeef');
    expect(unknown.stdout).toBe('');
    const ambiguous = await exported(['--suite', '0aefa691']);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toContain('suite prefix 0aefa691 is ambiguous');
    expect((await exported(['--suite', '0aefa69'])).stderr).toContain('8+ hex characters');
    const model = await exported(['--model', 'gamma']);
    expect(model.code).toBe(2);
    expect(model.stderr).toContain("no model 'gamma' in the store (its models: alpha, beta)");
    expect(model.stdout).toBe('');
  });
});

interface Graded {
  suite: { name: string };
  test: { meta?: Record<string, unknown> };
  status: string;
  response?: { text: string };
  graded?: { protocol: string; answer?: number | string; correct?: boolean; score?: number };
}

describe("waver export: each cell's parsed answer and verdict", () => {
  const file = join(dir, 'graded.db');
  buildReportStore(file).close();

  it('carries them for the ladder and paraphrase cells, as a parser of the reply reads them', async () => {
    const r = await runCli(['export', '--store', file], { env });
    expect(r.code).toBe(0);
    const records = r.stdout
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as Graded);
    const ladder = records.filter((t) => t.suite.name === 'ladder/tests');
    const para = records.filter((t) => t.suite.name === 'paraphrase/items');
    expect(ladder.length).toBeGreaterThan(0);
    expect(para.length).toBeGreaterThan(0);
    // Other suites (a plain one, sago's, the judge's) have no correctness: no grade.
    expect(
      records
        .filter((t) => !['ladder/tests', 'paraphrase/items'].includes(t.suite.name))
        .every((t) => !t.graded),
    ).toBe(true);
    let checked = 0;
    for (const t of ladder) {
      expect(t.graded?.protocol).toBe('ladder');
      // The replies are JSON {"ground_truth": N}: read here without waver's parser.
      let given: number | undefined;
      try {
        given = (JSON.parse(t.response?.text ?? '') as { ground_truth?: number }).ground_truth;
      } catch {
        given = undefined;
      }
      if (t.test.meta?.family === 'KB' || given === undefined) continue;
      expect(t.graded?.answer).toBe(given);
      expect(t.graded?.correct).toBe(given === t.test.meta?.gold);
      checked++;
    }
    for (const t of para) {
      expect(t.graded?.protocol).toBe('paraphrase');
      const shown = /^Answer: ([A-Z])$/.exec(t.response?.text.trim() ?? '')?.[1];
      const key = t.test.meta?.key as string;
      const letters = ((t.test.meta?.options ?? []) as { letter: string }[]).map((o) => o.letter);
      if (shown === undefined || !letters.includes(shown)) {
        expect(t.graded?.correct).toBe(false);
        continue;
      }
      expect(t.graded?.correct).toBe(shown === key);
      checked++;
    }
    expect(checked).toBeGreaterThan(10);
    const bare = await runCli(['export', '--store', file, '--no-graded'], { env });
    expect(bare.stdout).not.toContain('"graded"');
  });
});
