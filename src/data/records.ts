import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { InputError } from '../errors.js';
import { importModule } from '../util/import-module.js';
import { readTextFile } from '../util/text-file.js';
import { parseCsv } from './csv.js';
import { codecAdvice, parquetCompressors } from './parquet-codecs.js';

/**
 * The records of a data file, whatever its format: Parquet (the Hub's own format, read with
 * hyparquet), JSONL, a JSON array, or CSV. Every record keeps where it came from (the 1-based line
 * of JSONL and CSV, the 0-based index of JSON and Parquet), so a loader's error names it.
 */

export interface DataRecord {
  value: unknown;
  /** `file` is the name errors should show (a Hub file is named by its repository path). */
  where: { file: string; line?: number; index: number };
}

export const RECORD_FORMATS = ['.parquet', '.jsonl', '.ndjson', '.json', '.csv'] as const;

export function isRecordFile(path: string): boolean {
  return (RECORD_FORMATS as readonly string[]).includes(extname(path).toLowerCase());
}

/**
 * Whether a `--dataset` value that names no file was meant as one (a data file's extension, or a
 * path), so the error says "no such file" rather than "unknown dataset".
 */
export function looksLikePath(dataset: string): boolean {
  return isRecordFile(dataset) || /[/\\]/.test(dataset) || dataset.startsWith('.');
}

/** Reads every record of `file`; `label` names it in errors (default: the path). */
export async function readRecords(file: string, label = file): Promise<DataRecord[]> {
  const ext = extname(file).toLowerCase();
  if (!isRecordFile(file))
    throw new InputError(
      `cannot read '${ext || 'no extension'}' files: expected ${RECORD_FORMATS.join(', ')}`,
      {
        file: label,
      },
    );
  if (ext === '.parquet') return readParquet(file, label);
  const text = readText(file, label);
  if (ext === '.jsonl' || ext === '.ndjson') return jsonlRecords(text, label);
  if (ext === '.json') {
    const value = parseJson(text, { file: label });
    if (!Array.isArray(value)) throw new InputError('expected a JSON array of records', { file: label });
    return value.map((v, index) => ({ value: v, where: { file: label, index } }));
  }
  return parseCsv(text, label).records.map((r, index) => ({
    value: r.fields,
    where: { file: label, line: r.line, index },
  }));
}

function readText(file: string, label: string): string {
  try {
    return readTextFile(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new InputError(`cannot read dataset: ${code === 'ENOENT' ? 'no such file' : (code ?? String(e))}`, {
      file: label,
    });
  }
}

function parseJson(text: string, where: { file: string; line?: number }): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new InputError(`not valid JSON (${(e as Error).message})`, where);
  }
}

function jsonlRecords(text: string, file: string): DataRecord[] {
  const out: DataRecord[] = [];
  text.split('\n').forEach((raw, i) => {
    if (raw.trim() === '') return;
    out.push({
      value: parseJson(raw, { file, line: i + 1 }),
      where: { file, line: i + 1, index: out.length },
    });
  });
  return out;
}

async function readParquet(file: string, label: string): Promise<DataRecord[]> {
  const { parquetReadObjects } = await importModule<typeof import('hyparquet')>('hyparquet');
  let rows: Record<string, unknown>[];
  try {
    const bytes = readFileSync(file);
    const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    rows = await parquetReadObjects({ file: buffer, compressors: parquetCompressors() });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT')
      throw new InputError('cannot read dataset: no such file', { file: label });
    const message = (e as Error).message ?? String(e);
    throw new InputError(`not a readable Parquet file: ${message}${codecAdvice(message)}`, { file: label });
  }
  return rows.map((row, index) => ({ value: plain(row), where: { file: label, index } }));
}

/** Parquet INT64 arrives as bigint: a number when it fits, else its decimal text. */
function plain(value: unknown): unknown {
  if (typeof value === 'bigint')
    return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER)
      ? Number(value)
      : value.toString();
  if (Array.isArray(value)) return value.map(plain);
  if (value && typeof value === 'object' && !(value instanceof Date) && !(value instanceof Uint8Array))
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  return value;
}

/** A dotted-path member of a record (`question.stem`, `answer.aliases`), or undefined. */
export function pick(value: unknown, path: string): unknown {
  let v: unknown = value;
  for (const part of path.split('.')) {
    if (!v || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[part];
  }
  return v;
}

/** The first of `names` the record has (a dotted path each), for guessing a field mapping. */
export function firstPresent(value: unknown, names: readonly string[]): string | undefined {
  return names.find((n) => pick(value, n) !== undefined && pick(value, n) !== null);
}

/** The record's keys, for an error that says which fields there were. */
export function fieldNames(value: unknown): string {
  return value && typeof value === 'object' && !Array.isArray(value) ? Object.keys(value).join(', ') : 'none';
}
