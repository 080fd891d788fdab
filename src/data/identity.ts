import { createHash } from 'node:crypto';
import { canonicalJson } from '../util/hash.js';
import type { DatasetSource } from './provenance.js';
import type { DataRecord } from './records.js';

/**
 * What a local data file is, for everything made from it: the content of its records, never its
 * path, its file name or its format (docs/datasets.md#identity). So the same records as JSONL,
 * JSON, CSV or Parquet, under any name, give the same seeds, prompts and items, the same suite,
 * and the answers a store holds for them.
 */

/** The digest of a file's records: how many, and the sha256 of their normalised form. */
export interface RecordsDigest {
  count: number;
  sha256: string;
}

/** Hex digits of the digest in a content name: 48 bits, no collision among a user's files. */
const NAME_HEX = 12;

/** The name a local dataset goes by: `records-<first 12 hex digits of its digest>`. */
export function contentName(kind: 'records' | 'templates', sha256: string): string {
  return `${kind}-${sha256.slice(0, NAME_HEX)}`;
}

/**
 * The records' digest: each record normalised (normalisedValue), written as canonical JSON, one a
 * line, in file order; the sha256 of those lines.
 */
export function recordsDigest(records: readonly DataRecord[]): RecordsDigest {
  const hash = createHash('sha256');
  records.forEach((r, i) => {
    if (i > 0) hash.update('\n');
    hash.update(canonicalJson(normalisedValue(r.value) ?? null));
  });
  return { count: records.length, sha256: hash.digest('hex') };
}

/**
 * A value as every format writes it: a number or a boolean as its text (CSV has only text), an
 * empty field as no field (CSV's empty cell, JSON's null or missing member, Parquet's null), bytes
 * as base64, a date as ISO 8601; arrays keep their order and objects lose their key order.
 */
export function normalisedValue(value: unknown): unknown {
  if (value === null || value === undefined || value === '') return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  if (Array.isArray(value)) return value.map((v) => normalisedValue(v) ?? null);
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const n = normalisedValue(v);
      if (n !== undefined) out[k] = n;
    }
    return out;
  }
  return String(value);
}

/**
 * The record of a local file's records in every suite built from them: named by their content,
 * or by the named dataset the user declared the file to be (`NAME:FILE`), with their digest.
 */
export function localRecordsSource(records: readonly DataRecord[], declared?: string): DatasetSource {
  const digest = recordsDigest(records);
  return { name: declared ?? contentName('records', digest.sha256), records: digest, files: [] };
}
