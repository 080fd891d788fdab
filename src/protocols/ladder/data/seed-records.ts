import { goldAfterHashes, plainNumber } from '../../../data/number/gsm8k.js';
import { type DataRecord, fieldNames, firstPresent, pick } from '../../../data/records.js';
import { InputError } from '../../../errors.js';
import type { AnswerType, NumberSeed, Seed } from '../types.js';
import { choiceSeedsFromRecords } from './choice-seeds.js';
import { type LadderFields, QUESTION_GUESSES } from './fields.js';
import { TEXT_ANSWER_GUESSES, textSeedsFromRecords } from './text-seeds.js';

/**
 * Seeds from records of any file or Hub dataset (docs/datasets.md#fields). A number seed needs a
 * question and a numeric gold: the gold is the `gold` field when the mapping names one, else read
 * from the answer (GSM8K's worked solution ending `#### <number>`, or a plain number). A choice
 * seed needs a stem, options and the key (choice-seeds.ts); a text seed a question and its answers
 * (text-seeds.ts). Which one a file holds is `answerType` when given (`--answer-type`), else read
 * from its first record (inferAnswerType).
 */

export const ANSWER_GUESSES = ['answer', 'solution'] as const;
const OPTIONS_GUESSES = ['options', 'choices'] as const;

/**
 * Seeds named `<prefix>-<id or index>`; `label` names the dataset in each seed's `source`. The
 * answer type is `answerType` when given, else inferred from the first record and the mapping.
 */
export function seedsFromRecords(
  records: readonly DataRecord[],
  opts: { prefix: string; label: string; fields?: LadderFields; answerType?: AnswerType },
): Seed[] {
  const type = opts.answerType ?? inferAnswerType(records, opts.fields);
  const { answerType: _, ...rest } = opts;
  if (type === 'choice') return choiceSeedsFromRecords(records, rest);
  if (type === 'text') return textSeedsFromRecords(records, rest);
  return numberSeedsFromRecords(records, rest);
}

/**
 * The answer type a file's records hold: `choice` when the mapping names options or a key, or the
 * first record has options (`options`, `choices`, or letter columns A and B); `text` when the
 * mapping names aliases; `number` when the first record's gold reads as a number. A gold that is
 * not a number cannot tell text from a malformed number: that is an InputError asking for
 * `--answer-type` (naming file, line and field), never a guess.
 */
export function inferAnswerType(records: readonly DataRecord[], fields: LadderFields = {}): AnswerType {
  const first = records[0];
  if (!first) return 'number';
  if (fields.options !== undefined || fields.key !== undefined) return 'choice';
  if (fields.aliases !== undefined) return 'text';
  const v = first.value as Record<string, unknown> | undefined;
  if (firstPresent(v, OPTIONS_GUESSES) !== undefined || (v?.A !== undefined && v?.B !== undefined))
    return 'choice';
  const goldField =
    fields.gold ?? fields.answer ?? firstPresent(v, [...ANSWER_GUESSES, ...TEXT_ANSWER_GUESSES]);
  if (goldField === undefined) return 'number'; // the number reader names what is missing
  const value = pick(v, goldField);
  if (goldOf(value, fields.gold !== undefined) !== undefined) return 'number';
  if (typeof value === 'string' && /####/.test(value)) return 'number'; // a GSM8K solution with a bad gold: said so there
  throw new InputError(
    `cannot tell the answer type: ${JSON.stringify(shorten(value))} is not a number; pass --answer-type text (a short answer) or choice (ladder.answerType)`,
    {
      file: first.where.file,
      ...(first.where.line !== undefined && { line: first.where.line }),
      field: goldField,
    },
  );
}

function shorten(value: unknown): unknown {
  const s = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return s.length > 60 ? `${s.slice(0, 60)}…` : s;
}

/** Number seeds, the paper's: a question and a numeric gold. */
export function numberSeedsFromRecords(
  records: readonly DataRecord[],
  opts: { prefix: string; label: string; fields?: LadderFields },
): NumberSeed[] {
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
          : "no parsable gold (expected '#### <number>' or a number; for short answers pass --answer-type text)",
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
export function gsmSymbolicSeeds(records: readonly DataRecord[], label: string): NumberSeed[] {
  const byTemplate = new Map<number, NumberSeed>();
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
