import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * The same table of string records written as JSONL, a JSON array, CSV and Parquet, for tests that
 * check a dataset is read by what it holds, whatever its format, name or path.
 */

export type Row = Record<string, string>;

export type RecordFileFormat = 'jsonl' | 'json' | 'csv' | 'parquet';

/** Whether a `zstd` tool is there to write a zstd Parquet file with (Node 20's zlib cannot). */
export const zstdCli = spawnSync('zstd', ['--version']).status === 0;

export type ParquetCodec = 'SNAPPY' | 'GZIP' | 'ZSTD';

const compressors = {
  GZIP: (b: Uint8Array) => new Uint8Array(gzipSync(b)),
  // A real zstd frame from the zstd tool.
  ZSTD: (b: Uint8Array) => new Uint8Array(spawnSync('zstd', ['-q', '-c'], { input: b }).stdout),
};

/** CSV with every field quoted and CRLF line ends (what spreadsheets write). */
function csvOf(rows: readonly Row[]): string {
  const header = Object.keys(rows[0] as Row);
  const quote = (v: string) => `"${v.replace(/"/g, '""')}"`;
  return [header.map(quote).join(','), ...rows.map((r) => header.map((h) => quote(r[h] ?? '')).join(','))]
    .map((l) => `${l}\r\n`)
    .join('');
}

/** A Parquet file of string columns. */
async function stringParquetOf(rows: readonly Row[], codec: ParquetCodec = 'SNAPPY'): Promise<Buffer> {
  const { parquetWriteBuffer } = await import('hyparquet-writer');
  const columnData = Object.keys(rows[0] as Row).map((name) => ({
    name,
    data: rows.map((r) => r[name] ?? null),
    type: 'STRING' as const,
  }));
  return Buffer.from(parquetWriteBuffer({ columnData, codec: codec as 'SNAPPY', compressors }));
}

/** The rows in one format, as a file's bytes. */
async function recordFileOf(
  rows: readonly Row[],
  format: RecordFileFormat,
  codec?: ParquetCodec,
): Promise<string | Buffer> {
  if (format === 'jsonl') return rows.map((r) => `${JSON.stringify(r)}\n`).join('');
  if (format === 'json') return JSON.stringify(rows);
  if (format === 'csv') return csvOf(rows);
  return stringParquetOf(rows, codec);
}

/** Writes the rows to `path` (its folders made) in the given format. */
export async function writeRecordFile(
  path: string,
  rows: readonly Row[],
  format: RecordFileFormat,
  codec?: ParquetCodec,
): Promise<string> {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, await recordFileOf(rows, format, codec));
  return path;
}
