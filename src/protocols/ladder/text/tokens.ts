/**
 * Tokenising for the perturbation families and their gates: numbers (docs/method.md's regex), whitespace
 * words (Python's `split()`, as the reference counted them), word tokens, sentences.
 */

import { pySplit } from '../../../text-measures/python.js';
import { SMALL_NUMBER_WORDS, TEEN_NUMBER_WORDS } from '../../../util/number-words.js';
import { splitSentences } from '../severity/ces.js';

/** docs/method.md#structural-gate: a number is `\$?\d+(?:[.,]\d+)*`. */
export const NUMBER_PATTERN = /\$?\d+(?:[.,]\d+)*/g;

/** Every number in `text`, in order, as written (`$68`, `1,200`, `2.5`). */
export function numbersIn(text: string): string[] {
  return text.match(NUMBER_PATTERN) ?? [];
}

/** A number's value for comparisons across spellings: `$1,200` and `1200` are the same quantity. */
export function numberValue(token: string): string {
  const bare = token.replace(/^\$/, '');
  // A comma followed by exactly three digits groups thousands; any other comma is a decimal mark.
  const grouped = /^\d{1,3}(,\d{3})+(\.\d+)?$/.test(bare) ? bare.replace(/,/g, '') : bare.replace(',', '.');
  const n = Number(grouped);
  return Number.isFinite(n) ? String(n) : bare;
}

/** Counts of each element. */
export function multiset(items: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(item, (counts.get(item) ?? 0) + 1);
  return counts;
}

/** Words as Python's `str.split()` sees them (the reference's word counts). */
export function whitespaceWords(text: string): string[] {
  return pySplit(text);
}

/** Lowercase word tokens (letters, digits, underscore), punctuation and markup ignored: what Format must keep. */
export function wordTokens(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}\p{M}_]+/gu) ?? [];
}

/** Sentences as the reference split them (after `.`, `!` or `?` and whitespace); the CES module's rule. */
export { splitSentences };

/** Number words a grade-school problem uses for quantities (KB removes them when a problem has no digits). */
export const NUMBER_WORDS = [
  // Not `zero`: "zero" is not a quantity a problem gives.
  ...SMALL_NUMBER_WORDS.slice(1),
  ...TEEN_NUMBER_WORDS,
  'twenty',
  'thirty',
  'forty',
  'fifty',
  'sixty',
  'seventy',
  'eighty',
  'ninety',
  'hundred',
  'thousand',
  'twice',
  'thrice',
  'double',
  'triple',
  'half',
  'third',
  'quarter',
  'fourth',
  'fifth',
] as const;

const NUMBER_WORD_SET = new Set<string>(NUMBER_WORDS);

/** Whether a word (any case, punctuation stripped) names a quantity. */
export function isNumberWord(word: string): boolean {
  const bare = word.toLowerCase().replace(/[^a-z-]/g, '');
  return bare
    .split('-')
    .some((part) => NUMBER_WORD_SET.has(part) || NUMBER_WORD_SET.has(part.replace(/s$/, '')));
}

/** Abbreviations whose dot ends no sentence ("Mr. Tan", "St. Louis"). */
export const ABBREVIATIONS = ['Mr', 'Mrs', 'Ms', 'Dr', 'St', 'Jr', 'Sr'] as const;
const ABBREVIATION_DOT = new RegExp(`\\b(${ABBREVIATIONS.join('|')})\\. `, 'g');
const ABBREVIATION_END = new RegExp(`\\b(?:${ABBREVIATIONS.join('|')})\\.$`);
/** A private-use character that stands for an abbreviation's dot while sentences are split. */
const HIDDEN_DOT = '\uE000';

/** Whether `text` ends on an abbreviation's dot ("... met Mr."), so the dot is no sentence end. */
export function endsWithAbbreviation(text: string): boolean {
  return ABBREVIATION_END.test(text);
}

/** `text` with every abbreviation's dot hidden, so a sentence splitter does not cut "Mr. Tan". */
export function hideAbbreviationDots(text: string): string {
  return text.replace(ABBREVIATION_DOT, `$1${HIDDEN_DOT} `);
}

/** Undoes `hideAbbreviationDots`. */
export function showAbbreviationDots(text: string): string {
  return text.replaceAll(HIDDEN_DOT, '.');
}

/** Upper-cases the first letter. */
export function capitalize(text: string): string {
  return text.length === 0 ? text : text[0]?.toUpperCase() + text.slice(1);
}
