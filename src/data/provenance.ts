import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { z } from 'zod';

/**
 * Where a dataset's records came from, recorded in every suite built from it: the Hub repository
 * and the commit its revision resolved to, each file read with its sha256, and the licence. So a
 * suite says exactly which bytes it was made from, and whether its perturbations may be published
 * (docs/datasets.md#provenance). Paths are inside the repository or relative to the data
 * directory: never a path of this machine's cache, nor a local file's (docs/datasets.md#identity).
 */
export interface DatasetSource {
  /** The dataset as named: `gsm8k`, `hf:openai/gsm8k?config=main&split=test`, `seeds.parquet`. */
  name: string;
  hub?: {
    repo: string;
    /** What was asked for (`main`, a tag, a commit). */
    revision: string;
    /** The commit it resolved to. */
    commit: string;
    config?: string;
    split?: string;
  };
  /** The files read, each with its sha256; none for a local file, which `records` identifies. */
  files: { path: string; sha256: string; bytes: number }[];
  /**
   * A local file's records, by content: how many, and their digest (docs/datasets.md#identity).
   * Its path, name and format are not recorded: the same records from any file make the same suite.
   */
  records?: { count: number; sha256: string };
  /** SPDX-style id (`MIT`, `CC-BY-NC-ND-4.0`), or unset when neither the card nor waver knows it. */
  licence?: string;
  /** What the licence means for publishing what waver makes from the data, when it restricts that. */
  licenceNote?: string;
}

/** The record as a suite file holds it (checked when a suite is read back). */
export const DatasetSourceSchema = z
  .object({
    name: z.string().min(1),
    hub: z
      .object({
        repo: z.string().min(1),
        revision: z.string().min(1),
        commit: z.string().min(1),
        config: z.string().min(1).optional(),
        split: z.string().min(1).optional(),
      })
      .strict()
      .optional(),
    files: z.array(
      z
        .object({
          path: z.string().min(1),
          sha256: z.string().regex(/^[0-9a-f]{64}$/),
          bytes: z.int().nonnegative(),
        })
        .strict(),
    ),
    records: z
      .object({ count: z.int().nonnegative(), sha256: z.string().regex(/^[0-9a-f]{64}$/) })
      .strict()
      .optional(),
    licence: z.string().min(1).optional(),
    licenceNote: z.string().min(1).optional(),
  })
  .strict();

/** A local file's entry: sha256 and size of the bytes read. */
export function localFileEntry(file: string, label: string): DatasetSource['files'][number] {
  const bytes = readFileSync(file);
  return { path: label, sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length };
}

/**
 * A folder of files as one entry (a GSM-Symbolic templates folder is 100 files): the sha256 of
 * the sorted `relative path NUL sha256 LF` lines, and the total size.
 */
export function localFolderEntry(dir: string, label: string): DatasetSource['files'][number] {
  const lines: string[] = [];
  let bytes = 0;
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const full = join(d, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.isFile()) {
        const content = readFileSync(full);
        bytes += content.length;
        lines.push(`${relative(dir, full)}\0${createHash('sha256').update(content).digest('hex')}\n`);
      }
    }
  };
  walk(dir);
  lines.sort();
  return {
    path: `${label.replace(/\/+$/, '')}/`,
    sha256: createHash('sha256').update(lines.join('')).digest('hex'),
    bytes,
  };
}

/** One line for a report or a log: `gsm8k: hf:openai/gsm8k@<commit> main/test (MIT)`. */
export function describeDatasetSource(source: DatasetSource): string {
  const where = source.hub
    ? `hf:${source.hub.repo}@${source.hub.commit.slice(0, 12)}${source.hub.config ? ` ${source.hub.config}` : ''}${source.hub.split ? `/${source.hub.split}` : ''}`
    : source.records
      ? `${source.records.count} records, sha256 ${source.records.sha256.slice(0, 12)}`
      : source.files.map((f) => f.path).join(', ');
  const files = source.hub ? `, ${source.files.length} file${source.files.length === 1 ? '' : 's'}` : '';
  return `${source.name}: ${where}${files} (licence: ${source.licence ?? 'not stated'})${source.licenceNote ? ` — ${source.licenceNote}` : ''}`;
}

/**
 * The distinct datasets of a suite's records, in first-seen order (one per name and file set):
 * each record of a suite carries its dataset's source, so thousands of tests hold a few datasets.
 */
export function distinctSources(sources: Iterable<DatasetSource | undefined>): DatasetSource[] {
  const out = new Map<string, DatasetSource>();
  for (const s of sources) {
    if (!s) continue;
    const key = `${s.name}\0${s.records?.sha256 ?? ''}\0${s.files.map((f) => f.sha256).join(',')}`;
    if (!out.has(key)) out.set(key, s);
  }
  return [...out.values()];
}
