import { InputError } from '../../errors.js';
import { type DataRecord, fieldNames, firstPresent, pick } from '../records.js';
import { checkMcItems, type McItem, type McItemInput, OPTION_LETTERS, parseMcItem } from './mc-item.js';

/**
 * Multiple-choice items from records of any file or Hub dataset (docs/datasets.md#fields). An item
 * needs a stem, its options and the key; options may be written the ways datasets write them:
 * an array of texts, an object of letter -> text, an array of `{label, text}`, or the Hub's column
 * of parallel lists `{text: [...], label: [...]}` (ARC, CommonsenseQA). The key may be a letter, an
 * option's own label (ARC's `1`..`4`), or a 0-based index.
 */

export interface McFields {
  /** Default: none (the record's 0-based position is the id). */
  id?: string;
  /** Default: `stem`, else `question`. */
  stem?: string;
  /** Default: `options`, else `choices`. */
  options?: string;
  /** Default: `key`, else `answerKey`, `answer`, `label`. */
  key?: string;
  category?: string;
}

const STEM_GUESSES = ['stem', 'question'] as const;
const OPTIONS_GUESSES = ['options', 'choices'] as const;
const KEY_GUESSES = ['key', 'answerKey', 'answer', 'label'] as const;

export function mcItemsFromRecords(
  records: readonly DataRecord[],
  opts: {
    prefix: string;
    category: string;
    sourcePrefix: string;
    fields?: McFields;
    /** The config key that maps fields, named in an error (`paraphrase.fields`, `ladder.fields`). */
    mapping?: string;
  },
): McItem[] {
  const first = records[0];
  if (!first) throw new InputError('the dataset has no items', { field: 'dataset' });
  const f = opts.fields ?? {};
  const guess = (given: string | undefined, names: readonly string[], what: string, config: string) => {
    const field = given ?? firstPresent(first.value, names);
    if (field === undefined)
      throw new InputError(
        `no ${what} field: none of ${names.join(', ')} (fields: ${fieldNames(first.value)}); map one with ${opts.mapping ?? '--fields'}.${config}`,
        { file: first.where.file, line: first.where.line },
      );
    return field;
  };
  const stemField = guess(f.stem, STEM_GUESSES, 'stem', 'stem');
  // A table (CSV) writes options as letter columns A, B, ... when no options field is named.
  const letterColumns = f.options === undefined ? letterColumnsOf(first.value) : [];
  const optionsField =
    letterColumns.length > 0 ? undefined : guess(f.options, OPTIONS_GUESSES, 'options', 'options');
  const keyField = guess(f.key, KEY_GUESSES, 'key', 'key');
  // Unmapped, a record's own `id` and `category` are used, as in waver's item form.
  const idField = f.id ?? (opts.fields === undefined ? firstPresent(first.value, ['id']) : undefined);
  const categoryField =
    f.category ?? (opts.fields === undefined ? firstPresent(first.value, ['category']) : undefined);
  const items = records.map((r) => {
    const where = { file: r.where.file, line: r.where.line, index: r.where.index };
    const rawId = idField !== undefined ? pick(r.value, idField) : undefined;
    const named = typeof rawId === 'string' || typeof rawId === 'number';
    const id = named ? String(rawId) : `${opts.prefix}-${r.where.index}`;
    const { options, labels } =
      optionsField === undefined ? lettered(r.value, letterColumns) : optionsOf(pick(r.value, optionsField));
    const input: McItemInput = {
      id,
      stem: pick(r.value, stemField) as string,
      options,
      key: keyOf(pick(r.value, keyField), labels),
      category:
        (categoryField !== undefined ? String(pick(r.value, categoryField) ?? '') : '') || opts.category,
      ...waverExtras(r.value),
      source: `${opts.sourcePrefix}:${named ? rawId : r.where.index}`,
    };
    return parseMcItem(input, where);
  });
  checkMcItems(items, { file: first.where.file });
  return items;
}

/**
 * Options as texts lettered A, B, ... in order, with the labels the dataset gave them (so a key
 * written as a label can be found). Anything else is passed through for parseMcItem to refuse.
 */
function optionsOf(value: unknown): { options: McItemInput['options']; labels: string[] } {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const v = value as Record<string, unknown>;
    if (Array.isArray(v.text)) {
      const texts = v.text.map(String);
      const labels = Array.isArray(v.label) ? v.label.map(String) : [];
      return { options: texts, labels };
    }
    // Letter -> text: the letters are the labels already.
    return { options: v as Record<string, string>, labels: [] };
  }
  if (Array.isArray(value) && value.every((o) => o && typeof o === 'object' && 'text' in o)) {
    const list = value as { label?: unknown; letter?: unknown; text: unknown }[];
    return {
      options: list.map((o) => String(o.text)),
      labels: list.map((o) => String(o.label ?? o.letter ?? '')),
    };
  }
  return { options: value as McItemInput['options'], labels: [] };
}

/** The letter columns A, B, ... a record has, in order, from A with no gap. */
function letterColumnsOf(value: unknown): string[] {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return [];
  const v = value as Record<string, unknown>;
  const out: string[] = [];
  for (const letter of OPTION_LETTERS) {
    if (v[letter] === undefined) break;
    out.push(letter);
  }
  return out.length >= 2 ? out : [];
}

/** Options from letter columns; an empty cell ends them (a CSV row with fewer options than columns). */
function lettered(
  value: unknown,
  letters: readonly string[],
): { options: Record<string, string>; labels: [] } {
  const options: Record<string, string> = {};
  for (const letter of letters) {
    const text = pick(value, letter);
    if (text === undefined || text === null || String(text).trim() === '') break;
    options[letter] = String(text);
  }
  return { options, labels: [] };
}

/** The parts of waver's own item form (docs/paraphrase.md) a record may carry in any format. */
function waverExtras(value: unknown): Pick<McItemInput, 'alternates' | 'rule' | 'shuffleSeed'> {
  const v = (value && typeof value === 'object' ? value : {}) as Record<string, unknown>;
  return {
    ...(v.alternates !== undefined && { alternates: v.alternates as McItemInput['alternates'] }),
    ...(v.rule !== undefined && { rule: v.rule as McItemInput['rule'] }),
    ...(v.shuffleSeed !== undefined && { shuffleSeed: v.shuffleSeed }),
  };
}

function keyOf(value: unknown, labels: readonly string[]): string {
  if (typeof value === 'number' && Number.isInteger(value)) return OPTION_LETTERS[value] ?? String(value);
  const text = typeof value === 'string' ? value.trim() : String(value ?? '');
  const at = labels.indexOf(text);
  if (at >= 0) return OPTION_LETTERS[at] ?? text;
  return text;
}
