import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeCells } from '../../check/test-support/stores.js';
import { openStore } from '../../store/store.js';
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
