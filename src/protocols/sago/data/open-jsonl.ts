import { extname } from 'node:path';
import { parseCsv } from '../../../data/csv.js';
import { InputError } from '../../../errors.js';
import { cleanText, type OpenPrompt, parseJsonFile, parseJsonl, readDataFile } from './open-prompt.js';

/** Which fields of a record hold the prompt, its id and (optionally) reference answers. Dotted paths reach into objects. */
export interface FieldMapping {
  /** Default: the first of `prompt`, `question`, `instruction`, `problem`, `query`, `text` that the first record has. */
  prompt?: string;
  /** Default: none (the row number is the id). */
  id?: string;
  references?: string;
}

export const PROMPT_FIELD_GUESSES = [
  'prompt',
  'question',
  'instruction',
  'problem',
  'query',
  'text',
] as const;

/**
 * Any JSONL (`.jsonl`), JSON array (`.json`) or CSV (`.csv`) file of open prompts. The dataset
 * name is the path as given; ids are the mapped id field, else `row-<n>` (1-based line for JSONL
 * and CSV, 0-based index for JSON arrays).
 */
export function loadOpenFile(path: string, mapping: FieldMapping = {}): OpenPrompt[] {
  const text = readDataFile(path, path);
  const ext = extname(path).toLowerCase();
  let records: { line?: number; index?: number; value: unknown }[];
  if (ext === '.jsonl' || ext === '.ndjson') records = parseJsonl(text, path);
  else if (ext === '.json') {
    const value = parseJsonFile(text, path);
    if (!Array.isArray(value)) throw new InputError('expected a JSON array of records', { file: path });
    records = value.map((v, index) => ({ index, value: v }));
  } else if (ext === '.csv')
    records = parseCsv(text, path).records.map((r) => ({ line: r.line, value: r.fields }));
  else
    throw new InputError(
      `unknown dataset '${path}': expected a named dataset or a .jsonl, .json or .csv file`,
      {
        field: 'datasets',
      },
    );
  if (records.length === 0) return [];
  const first = records[0] as { line?: number; index?: number; value: unknown };
  const promptField =
    mapping.prompt ?? PROMPT_FIELD_GUESSES.find((f) => typeof pick(first.value, f) === 'string');
  if (promptField === undefined) {
    const keys =
      first.value && typeof first.value === 'object' ? Object.keys(first.value).join(', ') : 'none';
    throw new InputError(
      `no prompt field: none of ${PROMPT_FIELD_GUESSES.join(', ')} is a string in the first record (fields: ${keys}); name one with --prompt-field`,
      { file: path, line: first.line },
    );
  }
  const seen = new Map<string, number | undefined>();
  return records.flatMap((r) => {
    const where = { file: path, ...(r.line !== undefined ? { line: r.line } : {}) };
    const raw = pick(r.value, promptField);
    if (typeof raw !== 'string') throw new InputError('must be a string', { ...where, field: promptField });
    if (cleanText(raw) === '') return [];
    const rowId = r.line !== undefined ? `row-${r.line}` : `row-${r.index}`;
    let id = rowId;
    if (mapping.id !== undefined) {
      const v = pick(r.value, mapping.id);
      if (typeof v !== 'string' && typeof v !== 'number')
        throw new InputError('must be a string or a number', { ...where, field: mapping.id });
      id = String(v);
      if (seen.has(id)) throw new InputError(`duplicate id '${id}'`, { ...where, field: mapping.id });
      seen.set(id, r.line);
    }
    const refs = mapping.references !== undefined ? pick(r.value, mapping.references) : undefined;
    const references = Array.isArray(refs)
      ? refs.filter((x): x is string => typeof x === 'string')
      : typeof refs === 'string'
        ? [refs]
        : [];
    return [
      {
        id,
        dataset: path,
        text: raw.trim(),
        ...(references.length > 0 ? { references } : {}),
        source: { file: path, ...(r.line !== undefined ? { line: r.line } : { index: r.index }) },
      },
    ];
  });
}

/** A dotted-path member of a record (`question.stem`), or undefined. */
function pick(value: unknown, path: string): unknown {
  let v: unknown = value;
  for (const part of path.split('.')) {
    if (!v || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[part];
  }
  return v;
}
