import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { resolveLadderSeeds } from './ladder/data/datasets.js';
import { resolveMcItems } from './paraphrase/data/datasets.js';
import { loadOpenDataset } from './sago/data/datasets.js';

/**
 * The same records written as JSONL, JSON, CSV and Parquet (snappy, gzip, zstd) load as the same
 * seeds, items and prompts for every protocol: a dataset is read by what it holds, not by its
 * extension (docs/decisions.md#e32-datasets-are-read-by-what-their-records-hold).
 * Only the provenance (which file) differs.
 */

type Row = Record<string, string>;

const LADDER: Row[] = [
  { question: 'Ann has 3 apples and buys 9 more. How many now?', answer: '3 + 9 = <<3+9=12>>12\n#### 12' },
  {
    question: 'A ticket costs $1,250. What do 2 cost?',
    answer: '2 * 1250 = <<2*1250=2500>>2500\n#### 2,500',
  },
];
const PARAPHRASE: Row[] = [
  { id: 'q1', question: 'Which is a mammal?', A: 'trout', B: 'whale', C: 'shark', D: 'squid', answer: 'B' },
  {
    id: 'q2',
    question: 'Water boils at, "at sea level"?',
    A: '90 C',
    B: '50 C',
    C: '100 C',
    D: '0 C',
    answer: 'C',
  },
];
const SAGO: Row[] = [
  { id: 'p1', prompt: 'Why is the sky blue?' },
  { id: 'p2', prompt: 'Name, with a comma, a prime over 10.' },
];

const zstdCli = spawnSync('zstd', ['--version']).status === 0;
const codecs = ['SNAPPY', 'GZIP', ...(zstdCli ? (['ZSTD'] as const) : [])] as const;

const compressors = {
  GZIP: (b: Uint8Array) => new Uint8Array(gzipSync(b)),
  // A real zstd frame from the zstd tool (Node 20's zlib cannot write one).
  ZSTD: (b: Uint8Array) => new Uint8Array(spawnSync('zstd', ['-q', '-c'], { input: b }).stdout),
};

function csv(rows: readonly Row[]): string {
  const header = Object.keys(rows[0] as Row);
  const quote = (v: string) => `"${v.replace(/"/g, '""')}"`;
  return [header.map(quote).join(','), ...rows.map((r) => header.map((h) => quote(r[h] ?? '')).join(','))]
    .map((l) => `${l}\r\n`)
    .join('');
}

async function parquet(rows: readonly Row[], codec: string): Promise<Buffer> {
  const { parquetWriteBuffer } = await import('hyparquet-writer');
  const columnData = Object.keys(rows[0] as Row).map((name) => ({
    name,
    data: rows.map((r) => r[name] ?? null),
    type: 'STRING' as const,
  }));
  return Buffer.from(parquetWriteBuffer({ columnData, codec: codec as 'SNAPPY', compressors }));
}

/** Each format in a folder of its own, every file named `items.EXT` (the ladder names seeds by file stem). */
async function writeAll(rows: readonly Row[]): Promise<Record<string, string>> {
  const root = mkdtempSync(join(tmpdir(), 'waver-formats-'));
  const files: Record<string, string> = {};
  const put = (format: string, ext: string, body: string | Buffer) => {
    mkdirSync(join(root, format));
    files[format] = join(root, format, `items.${ext}`);
    writeFileSync(files[format], body);
  };
  put('jsonl', 'jsonl', rows.map((r) => `${JSON.stringify(r)}\n`).join(''));
  put('json', 'json', JSON.stringify(rows));
  put('csv', 'csv', csv(rows));
  for (const codec of codecs) put(`parquet-${codec.toLowerCase()}`, 'parquet', await parquet(rows, codec));
  return files;
}

/** Loads every format. */
async function loadEach<T>(rows: readonly Row[], load: (file: string) => Promise<T>) {
  const files = await writeAll(rows);
  const out: Record<string, T> = {};
  for (const [format, file] of Object.entries(files)) out[format] = await load(file);
  return out;
}

function expectAllEqual<T>(loaded: Record<string, T>) {
  const [first, ...rest] = Object.entries(loaded);
  expect(rest.length).toBeGreaterThanOrEqual(4);
  for (const [format, value] of rest) expect({ format, value }).toEqual({ format, value: first?.[1] });
}

describe('the same records in every format', () => {
  it('ladder: the same seeds from JSONL, JSON, CSV and Parquet', async () => {
    const loaded = await loadEach(LADDER, async (file) =>
      (await resolveLadderSeeds(file)).map(({ id, question, gold, solution }) => ({
        id,
        question,
        gold,
        solution,
      })),
    );
    expect(loaded.jsonl?.map((s) => [s.id, s.gold])).toEqual([
      ['gsm8k-items-0', 12],
      ['gsm8k-items-1', 2500],
    ]);
    expect(loaded.jsonl?.[0]?.solution).toContain('<<3+9=12>>');
    expectAllEqual(loaded);
  });

  it('paraphrase: the same items from JSONL, JSON, CSV and Parquet (options as letter columns)', async () => {
    const loaded = await loadEach(PARAPHRASE, async (file) =>
      (await resolveMcItems(file)).items.map(({ source: _source, ...item }) => item),
    );
    expect(loaded.csv?.map((i) => [i.id, i.key, i.options.length])).toEqual([
      ['q1', 'B', 4],
      ['q2', 'C', 4],
    ]);
    expect(loaded.csv?.[1]?.stem).toBe('Water boils at, "at sea level"?');
    expectAllEqual(loaded);
  });

  it('sago: the same prompts from JSONL, JSON, CSV and Parquet', async () => {
    const loaded = await loadEach(SAGO, async (file) =>
      (await loadOpenDataset(file)).map(({ id, text, references }) => ({ id, text, references })),
    );
    expect(loaded['parquet-snappy']).toEqual([
      { id: 'p1', text: 'Why is the sky blue?', references: undefined },
      { id: 'p2', text: 'Name, with a comma, a prime over 10.', references: undefined },
    ]);
    expectAllEqual(loaded);
  });

  it.skipIf(!zstdCli)('zstd Parquet: read (node:zlib on Node 22.15+, fzstd before)', async () => {
    const files = await writeAll(SAGO);
    const file = files['parquet-zstd'] as string;
    expect((await loadOpenDataset(file)).map((p) => p.id)).toEqual(['p1', 'p2']);
  });

  it.skipIf(zstdCli)('zstd Parquet: skipped, no zstd tool to write a test file with', () => {});
});

describe('a dataset path that is not there', () => {
  it('says no such file for every protocol, not "unknown dataset"', async () => {
    const missing = './no-such-dir/missing.parquet';
    await expect(resolveLadderSeeds(missing)).rejects.toThrow('cannot read dataset: no such file');
    await expect(resolveMcItems(missing)).rejects.toThrow('cannot read dataset: no such file');
    await expect(loadOpenDataset(missing)).rejects.toThrow('cannot read dataset: no such file');
  });
});
