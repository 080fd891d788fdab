import { jsonObjects } from '../../answers/json-objects.js';
import { pyLower, pySplit } from '../../text-measures/python.js';

/**
 * Reading and scoring a short-answer reply (docs/ladder.md#answer-types). The answer is taken from
 * the reply (a JSON `answer`, the last `####` line, a final "The answer is ..." statement, else the
 * whole reply), then compared with every accepted answer (the gold and its aliases) after SQuAD's
 * normalisation (`normalize_answer` of the SQuAD v1.1 evaluation script: lowercase, ASCII
 * punctuation removed, the articles a, an, the removed, whitespace collapsed):
 *
 * - `exact`: the normalised answer is a normalised accepted answer;
 * - `contains`: an accepted answer stands as whole words inside the stated answer, not within three
 *   words after a negation ("not", "rather than", ...): "The capital of France is Paris." is Paris. A reply with
 *   no stated answer is searched this way only when it is short (at most SHORT_REPLY_WORDS words):
 *   in a longer one a mention may be part of the reasoning, not the answer;
 * - otherwise normalisation cannot decide: the judge is asked (fail closed: no usable verdict
 *   scores it wrong), and without a judge it is wrong. An empty reply is wrong.
 */

export type TextVia = 'json' | 'hashes' | 'statement' | 'reply';

export interface ExtractedText {
  answer: string;
  via: TextVia;
}

/** `answer`: what the reply stated (empty for an empty reply); `alias`: the accepted answer it matched. */
export type TextMatch =
  | { decided: true; correct: true; via: 'exact' | 'contains'; answer: string; alias: string }
  | { decided: true; correct: false; via: 'empty'; answer: '' }
  | { decided: false; answer: string; reason: string };

/** A reply of at most this many words may be searched for an accepted answer without a stated one. */
export const SHORT_REPLY_WORDS = 20;

const ASCII_PUNCTUATION = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g;

/** Python's `\b(a|an|the)\b` on a str: a word character is a letter, a number or `_`. */
const ARTICLE = /(?<![\p{L}\p{N}_])(?:a|an|the)(?![\p{L}\p{N}_])/gu;

/**
 * SQuAD v1.1's `normalize_answer`, `white_space_fix(remove_articles(remove_punc(lower(s))))`, with
 * Python's semantics: `str.lower`, `string.punctuation` (ASCII only), `re`'s Unicode `\b` and
 * `str.split()`'s whitespace.
 */
export function normaliseAnswer(text: string): string {
  return pySplit(pyLower(text).replace(ASCII_PUNCTUATION, '').replace(ARTICLE, ' ')).join(' ');
}

const STATEMENT =
  /(?:final answer|the answer|answer|the correct answer)\s*(?:is|would be|:|=|-|–|—)\s*:?\s*(.+)$/gim;

/** The answer a reply states, and where it was found. */
export function extractTextAnswer(reply: string): ExtractedText {
  const fromJson = jsonAnswer(reply);
  if (fromJson !== undefined) return { answer: fromJson, via: 'json' };
  const hashes = [...reply.matchAll(/####(.*)$/gm)].at(-1)?.[1]?.trim();
  if (hashes) return { answer: hashes, via: 'hashes' };
  const stated = [...reply.matchAll(STATEMENT)].at(-1)?.[1]?.trim();
  if (stated) return { answer: firstSentence(stated), via: 'statement' };
  return { answer: reply.trim(), via: 'reply' };
}

function jsonAnswer(reply: string): string | undefined {
  for (const value of jsonObjects(reply)) {
    for (const field of ['answer', 'ground_truth']) {
      const v = value[field];
      if (typeof v === 'string' && v.trim() !== '') return v.trim();
      if (typeof v === 'number' && Number.isFinite(v)) return String(v);
    }
  }
  return undefined;
}

/** A stated answer up to its sentence's end ("Paris. It is also..." is "Paris"), a decimal point kept. */
function firstSentence(text: string): string {
  const m = text.match(/^(.*?[^\s.!?])[.!?](?:\s|$)/);
  return (m?.[1] ?? text).trim();
}

const NEGATION = new Set(['not', 'no', 'never', 'isnt', 'wasnt', 'arent', 'nor', 'neither', 'except']);
/** How many words before a mention a negation reaches. */
const NEGATION_REACH = 3;
const NEGATING_PAIRS = [
  ['rather', 'than'],
  ['instead', 'of'],
  ['other', 'than'],
];

/** Whether `reply`'s answer is one of `answers` (the gold first, then its aliases), as far as normalisation can tell. */
export function matchTextAnswer(reply: string, answers: readonly string[]): TextMatch {
  if (reply.trim() === '') return { decided: true, correct: false, via: 'empty', answer: '' };
  const { answer, via } = extractTextAnswer(reply);
  const said = normaliseAnswer(answer);
  const accepted = answers.map((a) => ({ alias: a, norm: normaliseAnswer(a) })).filter((a) => a.norm !== '');
  const exact = accepted.find((a) => a.norm === said);
  if (exact) return { decided: true, correct: true, via: 'exact', answer, alias: exact.alias };
  const words = said === '' ? [] : said.split(' ');
  if (via !== 'reply' || words.length <= SHORT_REPLY_WORDS) {
    const inside = accepted.find((a) => occursUnnegated(words, a.norm.split(' ')));
    if (inside) return { decided: true, correct: true, via: 'contains', answer, alias: inside.alias };
  }
  return {
    decided: false,
    answer,
    reason:
      via === 'reply' && words.length > SHORT_REPLY_WORDS
        ? `no stated answer, and no accepted answer is the reply (${words.length} words)`
        : `the answer '${shortened(answer)}' matches no accepted answer after normalisation`,
  };
}

function occursUnnegated(words: readonly string[], alias: readonly string[]): boolean {
  for (let i = 0; i + alias.length <= words.length; i++) {
    if (!alias.every((w, k) => words[i + k] === w)) continue;
    // "not X", "not King X", "rather than X": a negation among the three words before the mention.
    const before = words.slice(Math.max(0, i - NEGATION_REACH), i);
    if (before.some((w) => NEGATION.has(w))) continue;
    if (before.some((w, k) => NEGATING_PAIRS.some(([a, b]) => w === a && before[k + 1] === b))) continue;
    return true;
  }
  return false;
}

function shortened(text: string): string {
  const s = text.replace(/\s+/g, ' ').trim();
  return s.length > 60 ? `${s.slice(0, 60)}…` : s;
}
