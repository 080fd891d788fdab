import type { OpenPrompt } from '../../../data/open/open-prompt.js';
import { type DataRecord, fieldNames, firstPresent, pick } from '../../../data/records.js';
import { InputError } from '../../../errors.js';
import type { TextSeed } from '../types.js';
import { type LadderFields, QUESTION_GUESSES } from './fields.js';

/**
 * Short-answer seeds (docs/ladder.md#answer-types): a question and its accepted answers, the first
 * the gold and the rest its aliases. The named datasets come through the shared open-question
 * loaders (src/data/open): TriviaQA's answer and aliases, NQ-open's answer list, SimpleQA's answer.
 */

/** A seed from an open question with references; an error naming where it came from when it has none. */
export function textSeedOf(prompt: OpenPrompt): TextSeed {
  const answers = distinct([...(prompt.references ?? []), ...(prompt.aliases ?? [])]);
  const [gold, ...aliases] = answers;
  if (gold === undefined)
    throw new InputError(`question '${prompt.id}' has no reference answer to score against`, {
      file: prompt.source.file,
      ...(prompt.source.line !== undefined && { line: prompt.source.line }),
      field: 'answer',
    });
  const where = prompt.source.line !== undefined ? `:${prompt.source.line}` : ` #${prompt.source.index ?? 0}`;
  return {
    id: prompt.id,
    answerType: 'text',
    question: prompt.text,
    gold,
    aliases,
    source: `${prompt.dataset} ${prompt.source.file}${where}`,
  };
}

/**
 * Why a text seed's gold looks cut short in its source file (TriviaQA: "A HAWKER RIDES: A P",
 * "LEE CHILD (accept his real name J"), or undefined: a bracket or quote left open, a last word of
 * one letter that is no word or numeral, or an ending on a joining word or mark. No reply can match
 * such a gold, so the seed would score a right answer wrong (issue 36).
 */
export function cutGold(gold: string): string | undefined {
  const g = gold.trim();
  const words = g.split(/\s+/);
  if ((g.match(/\(/g) ?? []).length > (g.match(/\)/g) ?? []).length) return 'a bracket left open';
  if ((g.match(/"/g) ?? []).length % 2 === 1 || (/^'/.test(g) && !/'$/.test(g))) return 'a quote left open';
  if (words.length < 2) return undefined;
  if (/[:,\-(&/]$/.test(g)) return `it ends on "${g.at(-1)}"`;
  const last = words.at(-1) as string;
  // "A HAWKER RIDES: A P": a last letter of an answer in capitals, or after a mark ("Cash, J"); a
  // letter that names ("Model T") or a numeral ("GEORGE V", "VITAMIN C") is whole.
  const before = words.at(-2) as string;
  if (/^[ABEFGHJKNOPQRSTUWYZ]$/.test(last) && (g === g.toUpperCase() || /[,:;]$/.test(before)))
    return `it ends on the letter "${last}"`;
  if (/^(?:and|or|of|the|to|in|by|a|an|with|for)$/i.test(last)) return `it ends on "${last}"`;
  return undefined;
}

/**
 * Why a text seed's question is damaged in its source file, or undefined: TriviaQA keeps a CSV
 * field's escaping, `"What type of clothing is a ""sou-wester""?"` (outer quote, doubled inner
 * quotes), which no user writes and every test of the seed would carry (review v8, trivia-5).
 */
export function damagedQuestion(question: string): string | undefined {
  return /^\s*"/.test(question) && question.includes('""')
    ? 'the question keeps its CSV escaping (an outer quote, doubled inner quotes)'
    : undefined;
}

/** The seeds whose gold and question are whole, and those left out with why (see cutGold, damagedQuestion). */
export function withoutCutGolds<
  S extends { id: string; answerType?: string; gold: unknown; question?: string },
>(seeds: readonly S[]): { kept: S[]; leftOut: { id: string; gold: string; why: string }[] } {
  const kept: S[] = [];
  const leftOut: { id: string; gold: string; why: string }[] = [];
  for (const s of seeds) {
    const why =
      s.answerType === 'text' ? (cutGold(String(s.gold)) ?? damagedQuestion(s.question ?? '')) : undefined;
    if (why === undefined) kept.push(s);
    else leftOut.push({ id: s.id, gold: String(s.gold), why });
  }
  return { kept, leftOut };
}

export const TEXT_ANSWER_GUESSES = ['answer', 'answers', 'gold'] as const;

/**
 * Text seeds from records: `ladder.fields.question` (else `question`, `problem`, `prompt`),
 * `answer` (else `answer`, `answers`, `gold`: a string, a list of strings, or `{value, aliases}` as
 * the Hub's TriviaQA writes it) and `aliases` (else the record's own `aliases` when it has one).
 */
export function textSeedsFromRecords(
  records: readonly DataRecord[],
  opts: { prefix: string; label: string; fields?: LadderFields },
): TextSeed[] {
  const first = records[0];
  if (!first) return [];
  const fields = opts.fields ?? {};
  const at = (r: DataRecord) => ({
    file: r.where.file,
    ...(r.where.line !== undefined && { line: r.where.line }),
  });
  const question = fields.question ?? firstPresent(first.value, QUESTION_GUESSES);
  if (question === undefined)
    throw new InputError(
      `no question field: none of ${QUESTION_GUESSES.join(', ')} (fields: ${fieldNames(first.value)}); map one with ladder.fields.question`,
      at(first),
    );
  const answer = fields.answer ?? fields.gold ?? firstPresent(first.value, TEXT_ANSWER_GUESSES);
  if (answer === undefined)
    throw new InputError(
      `no answer field: none of ${TEXT_ANSWER_GUESSES.join(', ')} (fields: ${fieldNames(first.value)}); map one with ladder.fields.answer`,
      at(first),
    );
  const aliasField = fields.aliases ?? firstPresent(first.value, ['aliases']);
  const seen = new Map<string, number>();
  return records.map((r) => {
    const text = pick(r.value, question);
    if (typeof text !== 'string' || text.trim() === '')
      throw new InputError('must be a non-empty string', { ...at(r), field: question });
    const answers = answersOf(pick(r.value, answer));
    if (answers.length === 0)
      throw new InputError('must be an answer: a string, a list of strings or {value, aliases}', {
        ...at(r),
        field: answer,
      });
    const extra = aliasField === undefined ? [] : answersOf(pick(r.value, aliasField));
    let key = String(r.where.index);
    if (fields.id !== undefined) {
      const v = pick(r.value, fields.id);
      if (typeof v !== 'string' && typeof v !== 'number')
        throw new InputError('must be a string or a number', { ...at(r), field: fields.id });
      key = String(v);
      const earlier = seen.get(key);
      if (earlier !== undefined)
        throw new InputError(`duplicate id '${key}' (first at record ${earlier})`, {
          ...at(r),
          field: fields.id,
        });
      seen.set(key, r.where.index);
    }
    const [gold, ...aliases] = distinct([...answers, ...extra]);
    return {
      id: `${opts.prefix}-${key}`,
      answerType: 'text',
      question: text.trim(),
      gold: gold as string,
      aliases,
      source: `${opts.label} #${r.where.index}`,
    };
  });
}

/** A string, a number, a list of them, or `{value, aliases}`: the non-empty answers, in order. */
function answersOf(value: unknown): string[] {
  if (typeof value === 'string') return value.trim() === '' ? [] : [value.trim()];
  if (typeof value === 'number' && Number.isFinite(value)) return [String(value)];
  if (Array.isArray(value)) return value.flatMap(answersOf);
  if (value && typeof value === 'object') {
    const v = value as Record<string, unknown>;
    if ('value' in v) return [...answersOf(v.value), ...answersOf(v.aliases)];
  }
  return [];
}

/** Each answer once (exact text), first occurrence kept. */
function distinct(answers: readonly string[]): string[] {
  return [...new Set(answers.map((a) => a.trim()).filter((a) => a !== ''))];
}
