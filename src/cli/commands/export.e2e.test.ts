import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../store/store.js';
import { writeCells } from '../../test-support/check/stores.js';
import { assertBuilt, cleanEnv, cliPath, runCli } from '../../test-support/cli/cli.js';
import { buildReportStore } from '../../test-support/report-store.js';

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

describe('waver export: where its output goes', () => {
  // 600 cells of 1 KB prompts: far more than a pipe holds.
  const big = join(dir, 'big.db');
  const bigStore = openStore(big);
  writeCells(
    bigStore,
    {
      name: 'big.jsonl',
      hash: `b16${'3'.repeat(61)}`,
      tests: Array.from({ length: 300 }, (_, i) => ({ id: `t${i}`, prompt: `${i} ${'words '.repeat(170)}` })),
    },
    models,
    () => 'an answer',
  );
  bigStore.close();
  const shell = (script: string) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolveRun) => {
      const child = spawn('bash', ['-c', script], { env, cwd: dir });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => {
        stdout += d.toString();
      });
      child.stderr.on('data', (d: Buffer) => {
        stderr += d.toString();
      });
      child.on('close', (code) => resolveRun({ code, stdout, stderr }));
    });

  it('a full disk: exit 2 naming the file; no file is left, and one already there stays as it was', async () => {
    const full = await runCli(['export', '--store', big, '--out', '/dev/full'], { env });
    expect(full.code, full.stderr).toBe(2);
    expect(full.stderr.trim()).toMatch(/^waver: \/dev\/full: cannot write the output \(disk full\)/);
    expect(statSync('/dev/full').isCharacterDevice()).toBe(true);
    // A file size limit of 64 KiB stands in for a disk that fills up on the way (EFBIG as ENOSPC).
    const out = join(dir, 'limited', 'cells.jsonl');
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, 'the last export\n');
    const limited = await shell(
      `trap '' XFSZ; ulimit -f 64; exec "${process.execPath}" "${cliPath}" export --store "${big}" --out "${out}"`,
    );
    expect(limited.code, limited.stderr).toBe(2);
    expect(limited.stderr.trim()).toMatch(
      new RegExp(`^waver: ${out}: cannot write the output \\(.*(EFBIG|too large).*\\); nothing was written$`),
    );
    expect(readFileSync(out, 'utf8')).toBe('the last export\n');
    expect(readdirSync(dirname(out))).toEqual(['cells.jsonl']);
    // A new file is not left at all, not even empty.
    const fresh = join(dir, 'limited', 'fresh.jsonl');
    const again = await shell(
      `trap '' XFSZ; ulimit -f 64; exec "${process.execPath}" "${cliPath}" export --store "${big}" --out "${fresh}"`,
    );
    expect(again.code, again.stderr).toBe(2);
    expect(readdirSync(dirname(out))).toEqual(['cells.jsonl']);
  });

  it('into a pipe its reader closes early (| head -1): exit 0, nothing on stderr', async () => {
    for (const cmd of ['export', 'report --format json']) {
      const r = await shell(
        `"${process.execPath}" "${cliPath}" ${cmd} --store "${big}" | head -1 >/dev/null; echo "exit \${PIPESTATUS[0]}"`,
      );
      expect(r.stderr, cmd).toBe('');
      expect(r.stdout, cmd).toBe('exit 0\n');
    }
  });
});
