import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parquetOf } from '../test-support/hub/loopback-hub.js';
import { describeDatasetSource, localFileEntry, localFolderEntry } from './provenance.js';
import { pick, readRecords } from './records.js';

describe('records of a data file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'waver-records-'));

  it('reads Parquet (lists, structs, INT64 as numbers), JSONL, JSON and CSV alike, each record with where it was', async () => {
    const pq = join(dir, 'a.parquet');
    writeFileSync(
      pq,
      await parquetOf([{ q: 'x', n: 7n, c: { text: ['a', 'b'], label: ['A', 'B'] }, l: ['u'] }]),
    );
    expect(await readRecords(pq)).toEqual([
      {
        value: { q: 'x', n: 7, c: { text: ['a', 'b'], label: ['A', 'B'] }, l: ['u'] },
        where: { file: pq, index: 0 },
      },
    ]);
    const jl = join(dir, 'a.jsonl');
    writeFileSync(jl, '{"q":"x"}\n\n{"q":"y"}\n');
    expect((await readRecords(jl, 'label.jsonl')).map((r) => r.where)).toEqual([
      { file: 'label.jsonl', line: 1, index: 0 },
      { file: 'label.jsonl', line: 3, index: 1 },
    ]);
    const csv = join(dir, 'a.csv');
    writeFileSync(csv, 'q,a\n"x, y",1\n');
    expect(await readRecords(csv)).toEqual([
      { value: { q: 'x, y', a: '1' }, where: { file: csv, line: 2, index: 0 } },
    ]);
    expect(pick({ a: { b: 2 } }, 'a.b')).toBe(2);
  });

  it('a file that is not what its name says is an input error naming it', async () => {
    const bad = join(dir, 'bad.parquet');
    writeFileSync(bad, 'not parquet at all');
    await expect(readRecords(bad)).rejects.toThrow(/not a readable Parquet file/);
    const json = join(dir, 'obj.json');
    writeFileSync(json, '{"a": 1}');
    await expect(readRecords(json)).rejects.toThrow(/expected a JSON array of records/);
    await expect(readRecords(join(dir, 'x.txt'))).rejects.toThrow(/cannot read '.txt' files/);
  });

  it('dataset records: a file by sha256, a folder by a digest of its files, one line for a report', () => {
    const f = join(dir, 'f.txt');
    writeFileSync(f, 'abc');
    expect(localFileEntry(f, 'f.txt')).toEqual({
      path: 'f.txt',
      sha256: 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
      bytes: 3,
    });
    const sub = mkdtempSync(join(dir, 'folder-'));
    writeFileSync(join(sub, '0000.json'), '{}');
    expect(localFolderEntry(sub, 'templates')).toMatchObject({ path: 'templates/', bytes: 2 });
    expect(
      describeDatasetSource({
        name: 'gsm-symbolic',
        hub: {
          repo: 'apple/GSM-Symbolic',
          revision: 'main',
          commit: 'a'.repeat(40),
          config: 'main',
          split: 'test',
        },
        files: [{ path: 'main/test.jsonl', sha256: 'b'.repeat(64), bytes: 1 }],
        licence: 'cc-by-nc-nd-4.0',
        licenceNote: 'keep it private',
      }),
    ).toBe(
      'gsm-symbolic: hf:apple/GSM-Symbolic@aaaaaaaaaaaa main/test, 1 file (licence: cc-by-nc-nd-4.0) — keep it private',
    );
    expect(
      describeDatasetSource({
        name: 'records-cccccccccccc',
        files: [],
        records: { count: 3, sha256: 'c'.repeat(64) },
      }),
    ).toBe('records-cccccccccccc: 3 records, sha256 cccccccccccc (licence: not stated)');
  });
});
