import { InputError } from '../../errors.js';
import { type DataRecord, fieldNames, pick } from '../records.js';
import { cleanText, type OpenPrompt } from './open-prompt.js';

/** Which fields of a record hold the prompt, its id and (optionally) reference answers. Dotted paths reach into objects. */
export interface FieldMapping {
  /** Default: the first of `prompt`, `question`, `instruction`, `problem`, `query`, `text` that the first record has. */
  prompt?: string;
  /** Default: `id` when the first record has one, else none (the row number is the id). */
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
 * Open prompts from records of any file (JSONL, JSON, CSV, Parquet) or Hub dataset, with a field
 * mapping (docs/datasets.md#fields). `dataset` is what the dataset is (docs/datasets.md#identity).
 * Ids are the mapped id field, else the record's own `id`, else `row-<n>`, n its 0-based position.
 */
export function promptsFromRecords(
  records: readonly DataRecord[],
  dataset: string,
  mapping: FieldMapping = {},
): OpenPrompt[] {
  if (records.length === 0) return [];
  const first = records[0] as DataRecord;
  const promptField =
    mapping.prompt ?? PROMPT_FIELD_GUESSES.find((f) => typeof pick(first.value, f) === 'string');
  if (promptField === undefined) {
    throw new InputError(
      `no prompt field: none of ${PROMPT_FIELD_GUESSES.join(', ')} is a string in the first record (fields: ${fieldNames(first.value)}); name one with --prompt-field`,
      { file: first.where.file, line: first.where.line },
    );
  }
  // Unmapped, a record's own `id` names it, as in the paraphrase items
  // (docs/decisions.md#e32-datasets-are-read-by-what-their-records-hold).
  const firstId = pick(first.value, 'id');
  const idField =
    mapping.id ?? (typeof firstId === 'string' || typeof firstId === 'number' ? 'id' : undefined);
  const seen = new Map<string, number | undefined>();
  return records.flatMap((r) => {
    const where = { file: r.where.file, ...(r.where.line !== undefined ? { line: r.where.line } : {}) };
    const raw = pick(r.value, promptField);
    if (typeof raw !== 'string') throw new InputError('must be a string', { ...where, field: promptField });
    if (cleanText(raw) === '') return [];
    // By position, as every format counts it (a line number would differ between JSONL, CSV and Parquet).
    const rowId = `row-${r.where.index}`;
    let id = rowId;
    if (idField !== undefined) {
      const v = pick(r.value, idField);
      if (typeof v !== 'string' && typeof v !== 'number')
        throw new InputError('must be a string or a number', { ...where, field: idField });
      id = String(v);
      if (seen.has(id)) throw new InputError(`duplicate id '${id}'`, { ...where, field: idField });
      seen.set(id, r.where.line);
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
        dataset,
        text: raw.trim(),
        ...(references.length > 0 ? { references } : {}),
        source: {
          file: r.where.file,
          ...(r.where.line !== undefined ? { line: r.where.line } : { index: r.where.index }),
        },
      },
    ];
  });
}
