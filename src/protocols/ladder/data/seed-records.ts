import { type DataRecord, fieldNames, firstPresent, pick } from '../../../data/records.js';
import { InputError } from '../../../errors.js';
import type { Seed } from '../types.js';
import { goldAfterHashes, plainNumber } from './gsm8k.js';

/**
 * Seeds from records of any file or Hub dataset (docs/datasets.md#fields). A seed needs a question
 * and a numeric gold: the gold is the `gold` field when the mapping names one, else read from the
 * answer (GSM8K's worked solution ending `#### <number>`, or a plain number).
 */

export interface LadderFields {
  /** Default: the first of `question`, `problem`, `prompt` the first record has. */
  question?: string;
  /** A worked solution ending `#### <gold>`, or the number itself. Default `answer`, else `solution`. */
  answer?: string;
  /** A field holding the gold number itself (wins over `answer`). */
  gold?: string;
  /** Default: none (the record's 0-based position is the id). */
  id?: string;
}

export const QUESTION_GUESSES = ['question', 'problem', 'prompt'] as const;
export const ANSWER_GUESSES = ['answer', 'solution'] as const;

/** Seeds named `<prefix>-<id or index>`; `label` names the dataset in each seed's `source`. */
export function seedsFromRecords(
  records: readonly DataRecord[],
  opts: { prefix: string; label: string; fields?: LadderFields },
): Seed[] {
  const first = records[0];
  if (!first) return [];
  const fields = opts.fields ?? {};
  const question = fields.question ?? firstPresent(first.value, QUESTION_GUESSES);
  if (question === undefined)
    throw new InputError(
      `no question field: none of ${QUESTION_GUESSES.join(', ')} (fields: ${fieldNames(first.value)}); map one with ladder.fields.question`,
      { file: first.where.file, line: first.where.line },
    );
  const answer =
    fields.gold === undefined ? (fields.answer ?? firstPresent(first.value, ANSWER_GUESSES)) : undefined;
  if (fields.gold === undefined && answer === undefined)
    throw new InputError(
      `no answer field: none of ${ANSWER_GUESSES.join(', ')} (fields: ${fieldNames(first.value)}); map one with ladder.fields.answer or ladder.fields.gold`,
      { file: first.where.file, line: first.where.line },
    );
  const seen = new Map<string, number>();
  return records.map((r) => {
    const where = { file: r.where.file, ...(r.where.line !== undefined && { line: r.where.line }) };
    const text = pick(r.value, question);
    if (typeof text !== 'string' || text.trim() === '')
      throw new InputError('must be a non-empty string', { ...where, field: question });
    const goldField = fields.gold ?? (answer as string);
    const goldValue = pick(r.value, goldField);
    const gold = goldOf(goldValue, fields.gold !== undefined);
    if (gold === undefined)
      throw new InputError(
        fields.gold !== undefined
          ? 'must be a number'
          : "no parsable gold (expected '#### <number>' or a number)",
        { ...where, field: goldField },
      );
    let key = String(r.where.index);
    if (fields.id !== undefined) {
      const v = pick(r.value, fields.id);
      if (typeof v !== 'string' && typeof v !== 'number')
        throw new InputError('must be a string or a number', { ...where, field: fields.id });
      key = String(v);
      const earlier = seen.get(key);
      if (earlier !== undefined)
        throw new InputError(`duplicate id '${key}' (first at record ${earlier})`, {
          ...where,
          field: fields.id,
        });
      seen.set(key, r.where.index);
    }
    // A worked solution (GSM8K's, ending `#### <gold>`) is kept for the Knowledge Boundary checks.
    const solution =
      fields.gold === undefined && typeof goldValue === 'string' && goldAfterHashes(goldValue) !== undefined
        ? goldValue
        : undefined;
    return {
      id: `${opts.prefix}-${key}`,
      question: text,
      gold,
      ...(solution !== undefined && { solution }),
      source: `${opts.label} #${r.where.index}`,
    };
  });
}

function goldOf(value: unknown, plain: boolean): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  return plain ? plainNumber(value) : (goldAfterHashes(value) ?? plainNumber(value));
}

/**
 * The 100 seeds of `apple/GSM-Symbolic` (its `main` config): each template's GSM8K original
 * (`original_question`, gold after `####` in `original_answer`), once per template `id` however
 * many instances the file has, in template order. Named `gsm-symbolic-<id>` as the templates
 * folder's seeds are, so both routes give the same ids.
 */
export function gsmSymbolicSeeds(records: readonly DataRecord[], label: string): Seed[] {
  const byTemplate = new Map<number, Seed>();
  const origOf = new Map<number, number>();
  for (const r of records) {
    const where = { file: r.where.file, ...(r.where.line !== undefined && { line: r.where.line }) };
    const v = r.value as Record<string, unknown>;
    const id = v?.id;
    const orig = v?.original_id;
    if (!Number.isInteger(id)) throw new InputError('must be the template number', { ...where, field: 'id' });
    if (!Number.isInteger(orig))
      throw new InputError('must be the GSM8K test index', { ...where, field: 'original_id' });
    if (byTemplate.has(id as number)) continue;
    const other = [...origOf].find(([, o]) => o === orig)?.[0];
    if (other !== undefined)
      throw new InputError(`original_id ${orig} is also template ${other}'s`, {
        ...where,
        field: 'original_id',
      });
    if (typeof v.original_question !== 'string' || v.original_question.trim() === '')
      throw new InputError('must be a non-empty string', { ...where, field: 'original_question' });
    const gold = typeof v.original_answer === 'string' ? goldAfterHashes(v.original_answer) : undefined;
    if (gold === undefined)
      throw new InputError("no parsable gold after '####'", { ...where, field: 'original_answer' });
    origOf.set(id as number, orig as number);
    byTemplate.set(id as number, {
      id: `gsm-symbolic-${id}`,
      question: v.original_question,
      gold,
      source: `${label} template ${id} (gsm8k test #${orig})`,
    });
  }
  return [...byTemplate.entries()].sort(([a], [b]) => a - b).map(([, s]) => s);
}
