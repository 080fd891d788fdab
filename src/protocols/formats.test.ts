import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type ParquetCodec,
  type RecordFileFormat,
  type Row,
  writeRecordFile,
  zstdCli,
} from '../test-support/data/record-files.js';
import { resolveLadderSeeds } from './ladder/data/datasets.js';
import { resolveMcItems } from './paraphrase/data/datasets.js';
import { loadOpenDataset } from './sago/data/datasets.js';

/**
 * The same records written as JSONL, JSON, CSV and Parquet (snappy, gzip, zstd), each under a name
 * of its own, load as the same seeds, items and prompts for every protocol, with the same dataset
 * record: a dataset is read by what it holds, not by its extension
 * (docs/decisions.md#e32-datasets-are-read-by-what-their-records-hold), and is what it holds, not
 * its path or name (docs/datasets.md#identity).
 */

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

const codecs: ParquetCodec[] = ['SNAPPY', 'GZIP', ...(zstdCli ? (['ZSTD'] as const) : [])];

/** Each format in a folder and under a name of its own. */
async function writeAll(rows: readonly Row[]): Promise<Record<string, string>> {
  const root = mkdtempSync(join(tmpdir(), 'waver-formats-'));
  const files: Record<string, string> = {};
  const put = async (name: string, format: RecordFileFormat, file: string, codec?: ParquetCodec) => {
    files[name] = await writeRecordFile(join(root, name, file), rows, format, codec);
  };
  await put('jsonl', 'jsonl', 'items.jsonl');
  await put('json', 'json', 'records.json');
  await put('csv', 'csv', 'table.csv');
  for (const codec of codecs)
    await put(`parquet-${codec.toLowerCase()}`, 'parquet', `${codec.toLowerCase()}.parquet`, codec);
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
    // Everything but `source`, which says for people which file a seed came from (never in a suite).
    const loaded = await loadEach(LADDER, async (file) =>
      (await resolveLadderSeeds(file)).map(({ source: _where, ...seed }) => seed),
    );
    const name = loaded.jsonl?.[0]?.dataset?.name;
    expect(name).toMatch(/^records-[0-9a-f]{12}$/);
    expect(loaded.jsonl?.map((s) => [s.id, s.gold])).toEqual([
      [`${name}-0`, 12],
      [`${name}-1`, 2500],
    ]);
    expect(loaded.jsonl?.[0]?.solution).toContain('<<3+9=12>>');
    expectAllEqual(loaded);
  });

  it('paraphrase: the same items from JSONL, JSON, CSV and Parquet (options as letter columns)', async () => {
    const loaded = await loadEach(PARAPHRASE, async (file) => {
      const { items, name, source } = await resolveMcItems(file);
      return { items, name, source };
    });
    expect(loaded.csv?.items.map((i) => [i.id, i.key, i.options.length])).toEqual([
      ['q1', 'B', 4],
      ['q2', 'C', 4],
    ]);
    expect(loaded.csv?.items[1]?.stem).toBe('Water boils at, "at sea level"?');
    expect(loaded.csv?.items[1]?.source).toBe(`${loaded.csv?.name}:q2`);
    expectAllEqual(loaded);
  });

  it('sago: the same prompts from JSONL, JSON, CSV and Parquet', async () => {
    // Everything but `source`, which says for people where a prompt came from (never in a suite).
    const loaded = await loadEach(SAGO, async (file) =>
      (await loadOpenDataset(file)).map(({ id, dataset, text, references }) => ({
        id,
        dataset,
        text,
        references,
      })),
    );
    const dataset = loaded.jsonl?.[0]?.dataset;
    expect(dataset).toMatch(/^records-[0-9a-f]{12}$/);
    expect(loaded['parquet-snappy']).toEqual([
      { id: 'p1', dataset, text: 'Why is the sky blue?', references: undefined },
      { id: 'p2', dataset, text: 'Name, with a comma, a prime over 10.', references: undefined },
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
