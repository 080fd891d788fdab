import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { InputError } from '../../errors.js';
import { assertBuilt, CLI_CONTEXT, runCli } from '../../test-support/cli/cli.js';
import { buildReportStore } from '../../test-support/report-store.js';
import { reportCommand, reportFormat } from './report.js';

const dir = mkdtempSync(join(tmpdir(), 'waver-report-cli-'));
const storePath = join(dir, 'runs.db');
buildReportStore(storePath).close();

afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function report(args: string[]): Promise<void> {
  await reportCommand(CLI_CONTEXT).exitOverride().parseAsync(args, { from: 'user' });
}

describe('waver report', () => {
  it('writes each format, picked from the --out extension', async () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      for (const [file, check] of [
        ['report.html', (t: string) => t.startsWith('<!doctype html>')],
        ['report.md', (t: string) => t.startsWith('# waver report\n')],
        ['report.json', (t: string) => JSON.parse(t).report === 'waver'],
        ['report.csv', (t: string) => t.startsWith('protocol,suite,model,')],
      ] as const) {
        const out = join(dir, 'out', file);
        await report(['--store', storePath, '--out', out]);
        expect(check(readFileSync(out, 'utf8')), file).toBe(true);
      }
      expect(String(stderr.mock.calls.at(-1)?.[0])).toMatch(
        /^waver: wrote .*report\.csv \(csv, [\d.]+ MB: 3 evals, 182 cells\) in [\d.]+ s\n$/,
      );
    } finally {
      stderr.mockRestore();
    }
  });

  it('--format wins over the extension; without --out the report goes to stdout', async () => {
    const out = join(dir, 'as-md.html');
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    await report(['--store', storePath, '--out', out, '--format', 'md']);
    stderr.mockRestore();
    expect(readFileSync(out, 'utf8')).toMatch(/^# waver report/);
    const chunks: string[] = [];
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((c) => {
      chunks.push(String(c));
      return true;
    });
    try {
      await report(['--store', storePath, '--format', 'csv']);
    } finally {
      stdout.mockRestore();
    }
    expect(chunks.join('').split('\r\n')[0]).toMatch(/^protocol,suite,model/);
  });

  it('refuses a missing store without creating one, and an extension it cannot read', async () => {
    const missing = join(dir, 'nope', 'missing.db');
    const out = join(dir, 'never.html');
    await expect(report(['--store', missing, '--out', out])).rejects.toThrow(InputError);
    expect(existsSync(missing)).toBe(false);
    expect(existsSync(out)).toBe(false);
    await expect(report(['--store', storePath, '--out', join(dir, 'r.txt')])).rejects.toThrow(
      /cannot tell the report format from '.txt'/,
    );
    expect(reportFormat(undefined, undefined)).toBe('html');
    expect(reportFormat(undefined, 'a/b.HTM')).toBe('html');
    expect(reportFormat('json', 'x.csv')).toBe('json');
  });
});

describe('waver report --run / --suite: one eval', () => {
  const json = async (args: string[]) => {
    const out = join(dir, 'one', `r${args.join('-').replace(/[^a-z0-9-]/gi, '')}.json`);
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      await report(['--store', storePath, '--out', out, ...args]);
    } finally {
      stderr.mockRestore();
    }
    return JSON.parse(readFileSync(out, 'utf8'));
  };

  it('--run ID (a prefix of it) reports that run’s eval alone: its section, runs, coverage and cells', async () => {
    const one = await json(['--run', 'run-para']);
    expect(one.sections.map((s: { protocol: string }) => s.protocol)).toEqual(['paraphrase']);
    expect(one.runs.map((r: { id: string }) => r.id)).toEqual(['run-paraphrase']);
    expect(new Set(one.coverage.map((c: { suite: { name: string } }) => c.suite.name))).toEqual(
      new Set(['paraphrase/items']),
    );
    expect(one.cells).toHaveLength(60);
    expect(new Set(one.cells.map((c: { protocol: string }) => c.protocol))).toEqual(new Set(['paraphrase']));
  });

  it('--suite PREFIX reports the suite whose sha256 starts with it; the ladder keeps its KB judge’s verdicts', async () => {
    const all = await json([]);
    const ladder = all.sections.find((s: { protocol: string }) => s.protocol === 'ladder');
    const one = await json(['--suite', ladder.suite.hash.slice(0, 10)]);
    expect(one.sections).toHaveLength(1);
    // The same figures as in the whole store's report (the judge's suite is read by the loader).
    expect(one.sections[0].results).toEqual(ladder.results);
  });

  it('an id or prefix that matches nothing, or both flags, is an input error naming the flag', async () => {
    await expect(report(['--store', storePath, '--run', 'no-such-run'])).rejects.toThrow(
      /no run whose id starts with 'no-such-run'/,
    );
    await expect(report(['--store', storePath, '--suite', 'zzzz'])).rejects.toMatchObject({
      name: 'InputError',
      field: '--suite',
    });
    // 'run-' starts every run id, of several suites.
    await expect(report(['--store', storePath, '--run', 'run-'])).rejects.toThrow(/give more of the id/);
    await expect(report(['--store', storePath, '--run', 'run-para', '--suite', 'ab'])).rejects.toThrow(
      /not both/,
    );
  });
});

describe('waver report as a process', () => {
  it('writes the HTML report and exits 0; a missing store exits 2', async () => {
    assertBuilt();
    const out = join(dir, 'cli.html');
    const ok = await runCli(['report', '--store', storePath, '--out', out]);
    expect(ok.code).toBe(0);
    expect(readFileSync(out, 'utf8')).toContain('<h1>waver report</h1>');
    const bad = await runCli(['report', '--store', join(dir, 'missing.db')]);
    expect(bad.code).toBe(2);
    // Before any run: what makes a store, not a bare "not found".
    expect(bad.stderr).toMatch(
      /missing\.db: --store: store not found: a run writes one \(waver run, ladder, sago or paraphrase\)/,
    );
  });

  it('with no --out and no --format writes .waver/report.html, not the terminal; --out - is stdout', async () => {
    assertBuilt();
    const cwd = mkdtempSync(join(tmpdir(), 'waver-report-default-'));
    const plain = await runCli(['report', '--store', storePath], { cwd });
    expect(plain.code).toBe(0);
    expect(plain.stdout).toBe('');
    expect(plain.stderr).toMatch(/^waver: wrote \.waver\/report\.html \(html, /);
    expect(readFileSync(join(cwd, '.waver/report.html'), 'utf8')).toContain('<h1>waver report</h1>');
    const piped = await runCli(['report', '--store', storePath, '--out', '-'], { cwd });
    expect(piped.stdout).toMatch(/^<!doctype html>/i);
  }, 120_000);
});
