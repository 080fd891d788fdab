import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, type CliResult, cleanEnv, queryStore, runCli } from '../test-support/cli/cli.js';
import { type RecordFileFormat, type Row, writeRecordFile } from '../test-support/data/record-files.js';
import { type FaultServer, startFaultServer } from '../test-support/fault-server.js';

/**
 * An item's identity is its content (docs/datasets.md#identity): the same records as JSONL, JSON,
 * CSV and Parquet, under different names and paths, give byte-identical suites and, on a store that
 * holds their answers, identical results with no call.
 */

beforeAll(assertBuilt);

let server: FaultServer;
beforeAll(async () => {
  server = await startFaultServer({ faultRate: 0, seed: 34 });
});
afterAll(() => server.close());

const model = () => `openai:echo@${server.url}`;

/** Each test runs the CLI once per file (four or five processes): minutes on a loaded machine. */
const CLI_RUNS_MS = 240_000;

/** Each format under a name and folder of its own; the first is given relative to the run's folder. */
const LAYOUT: Record<RecordFileFormat, string> = {
  jsonl: 'a/qa.jsonl',
  json: 'b/c/questions.json',
  csv: 'data.csv',
  parquet: 'x/qa.snappy.parquet',
};

/** Writes the rows in every format; returns the run folder and each file as a command names it. */
async function writeEveryFormat(rows: readonly Row[]): Promise<{ cwd: string; given: string[] }> {
  const root = mkdtempSync(join(tmpdir(), 'waver-identity-'));
  const cwd = join(root, 'run');
  mkdirSync(cwd);
  const given: string[] = [];
  for (const [format, path] of Object.entries(LAYOUT) as [RecordFileFormat, string][]) {
    await writeRecordFile(join(root, path), rows, format);
    given.push(format === 'jsonl' ? `../${path}` : join(root, path));
  }
  return { cwd, given };
}

function waver(args: string[], cwd: string): Promise<CliResult> {
  return runCli(args, { cwd, env: cleanEnv() });
}

/**
 * A command's JSON results without what differs from run to run by design: the run's own record
 * (id, calls, time), the cells it found stored, and the settings as given (the file's path).
 */
function results(r: CliResult): unknown {
  expect(r.stderr).not.toMatch(/internal error/);
  const perRun = new Set(['run', 'cached', 'settings']);
  return JSON.parse(r.stdout, (key, value) => (perRun.has(key) ? undefined : value));
}

/** Every suite stored, by name, as its tests' JSON in order (what makes a suite's identity), one a hash. */
function storedSuites(store: string): Record<string, string[]> {
  const rows = queryStore<{ name: string; hash: string; json: string }>(
    store,
    'SELECT s.name, s.hash, t.json FROM suites s JOIN tests t ON t.suite_hash = s.hash ORDER BY s.hash, t.position',
  );
  const byHash = new Map<string, { name: string; text: string }>();
  for (const r of rows) {
    const suite = byHash.get(r.hash) ?? { name: r.name, text: '' };
    suite.text += `${r.json}\n`;
    byHash.set(r.hash, suite);
  }
  const out: Record<string, string[]> = {};
  // A sago manifest is a run's record (its settings name the files as given), one per run.
  for (const { name, text } of byHash.values())
    if (name !== 'sago/manifest') out[name] = [...(out[name] ?? []), text];
  return out;
}

/** The store holds one suite of each name, none of them naming a file: the suites are the same from every file. */
function expectOneSuiteOfEachName(store: string): void {
  const suites = storedSuites(store);
  expect(Object.keys(suites).length).toBeGreaterThan(0);
  for (const [name, versions] of Object.entries(suites)) {
    expect({ name, versions: versions.length }).toEqual({ name, versions: 1 });
    expect(versions[0]).not.toMatch(/qa|questions|data\.csv|snappy/);
  }
}

/**
 * Runs the command once per file into one store: the first calls the model; every other asks
 * nothing, finds every cell done (exit 0) and prints the same results; the store holds one suite
 * of each name.
 */
async function expectSameRunFromEveryFile(
  given: readonly string[],
  cwd: string,
  command: (dataset: string) => string[],
): Promise<void> {
  const first = await waver(command(given[0] as string), cwd);
  expect(first.code, first.stderr).toBe(0);
  const calls = server.requests();
  expect(calls).toBeGreaterThan(0);
  for (const dataset of given.slice(1)) {
    const again = await waver(command(dataset), cwd);
    expect({ dataset, code: again.code, stderr: again.stderr }).toMatchObject({ code: 0 });
    expect({ dataset, results: results(again) }).toEqual({ dataset, results: results(first) });
  }
  expect(server.requests()).toBe(calls);
}

describe('ladder: seed ids and perturbations come from the records, not the file name (issue 34 item 2)', () => {
  const ROWS: Row[] = [
    { question: 'Tom has 2 apples and buys 3 more. How many apples does he have?', answer: '2+3=5\n#### 5' },
    { question: 'A box holds 12 pens. How many pens are in 4 boxes?', answer: '12*4=48\n#### 48' },
    { question: 'Sara reads 15 pages a day. How many pages does she read in 6 days?', answer: '#### 90' },
  ];

  it(
    'waver suite build: the same suite file, byte for byte, from every format, name and path',
    async () => {
      const { cwd, given } = await writeEveryFormat(ROWS);
      const built: string[] = [];
      for (const [i, dataset] of given.entries()) {
        const out = join(cwd, `suite-${i}.jsonl`);
        const r = await waver(
          ['suite', 'build', '--protocol', 'ladder', '--dataset', dataset, '--out', out],
          cwd,
        );
        expect(r.code, r.stderr).toBe(0);
        built.push(readFileSync(out, 'utf8'));
      }
      expect(built[0]).not.toMatch(/qa|questions|data\.csv|snappy/);
      for (const [i, text] of built.entries())
        expect({ file: given[i], text }).toEqual({ file: given[i], text: built[0] });
    },
    CLI_RUNS_MS,
  );

  it(
    'waver ladder: one suite in the store, the same results from every file, no call after the first',
    async () => {
      const { cwd, given } = await writeEveryFormat(ROWS);
      await expectSameRunFromEveryFile(given, cwd, (dataset) => [
        'ladder',
        '--models',
        model(),
        '--dataset',
        dataset,
        '--max-tokens',
        '16',
        '--store',
        'store.db',
        '--format',
        'json',
      ]);
      expectOneSuiteOfEachName(join(cwd, 'store.db'));
    },
    CLI_RUNS_MS,
  );
});

describe('sago: variants come from the records, not the spelling of their path (issue 34 item 1)', () => {
  const ROWS: Row[] = [
    { id: 'p1', prompt: 'Why is the sky blue during the day?' },
    { id: 'p2', prompt: 'Name a prime number larger than ten.' },
    { id: 'p3', prompt: 'How do bees make honey from nectar?' },
  ];
  const sago = (dataset: string) => [
    'sago',
    '--models',
    model(),
    '--dataset',
    dataset,
    '--limit',
    '3',
    '--families',
    'noise',
    '--max-tokens',
    '16',
    '--store',
    'store.db',
    '--format',
    'json',
  ];

  it(
    'the same file as ../a/qa.jsonl and as its absolute path: one suite, the second run all cached',
    async () => {
      const { cwd, given } = await writeEveryFormat(ROWS);
      const relative = given[0] as string;
      await expectSameRunFromEveryFile([relative, join(cwd, relative)], cwd, sago);
      expectOneSuiteOfEachName(join(cwd, 'store.db'));
    },
    CLI_RUNS_MS,
  );

  it(
    'JSONL, JSON, CSV and Parquet under other names: byte-identical suites, the same SGS',
    async () => {
      const { cwd, given } = await writeEveryFormat(ROWS);
      await expectSameRunFromEveryFile(given, cwd, sago);
      expectOneSuiteOfEachName(join(cwd, 'store.db'));
    },
    CLI_RUNS_MS,
  );
});

describe('paraphrase: the same items from every format, name and path', () => {
  const ROWS: Row[] = [
    {
      id: 'q1',
      question: 'Which of these is a mammal?',
      A: 'trout',
      B: 'whale',
      C: 'shark',
      D: 'squid',
      answer: 'B',
    },
    {
      id: 'q2',
      question: 'At sea level, water boils at?',
      A: '90 C',
      B: '50 C',
      C: '100 C',
      D: '0 C',
      answer: 'C',
    },
    {
      id: 'q3',
      question: 'How many legs has a spider?',
      A: 'six',
      B: 'four',
      C: 'ten',
      D: 'eight',
      answer: 'D',
    },
  ];

  it(
    'byte-identical suites and the same results, no call after the first',
    async () => {
      const { cwd, given } = await writeEveryFormat(ROWS);
      await expectSameRunFromEveryFile(given, cwd, (dataset) => [
        'paraphrase',
        '--models',
        model(),
        '--dataset',
        dataset,
        '--max-tokens',
        '8',
        '--store',
        'store.db',
        '--format',
        'json',
      ]);
      expectOneSuiteOfEachName(join(cwd, 'store.db'));
    },
    CLI_RUNS_MS,
  );
});
