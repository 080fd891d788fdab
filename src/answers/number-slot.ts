import { type NumberForm, type NumberToken, numberTokens } from './number-tokens.js';
import { numberWordsAt } from './number-words.js';

/**
 * Reading the number in the place a reply gives its answer (after a marker, inside `\boxed{}`, a
 * JSON answer's string): docs/ladder.md#scoring. A place that offers two answers (`18 or 20`, a
 * range) is `ambiguous`: no number is read from it.
 */
export type SlotReading = { value: number; form?: NumberForm; end: number } | 'ambiguous' | undefined;

/** A number standing alone, its groups of three split by plain spaces (`1 234`): only a whole answer reads so. */
const SPACE_GROUPED = /^[\s*_]*([$€£]?)(-?)[$€£]?(\d{1,3}(?: \d{3})+)(?:[.,](\d+))?[\s*_.]*$/;
/** `1 234` as a whole answer; undefined for anything else. */
export function spaceGrouped(place: string): { value: number; form: 'grouped'; end: number } | undefined {
  const m = SPACE_GROUPED.exec(place);
  if (!m) return undefined;
  const value = Number(`${m[3]?.replace(/ /g, '')}.${m[4] ?? '0'}`);
  return { value: m[2] ? -value : value, form: 'grouped', end: place.length };
}

/** What may stand between a place's start and its number: a few words, no sentence end. */
const LEAD_IN = /^[^.!?\n]*$/;
const MAX_LEAD_WORDS = 6;
/** A number the text rejects (`not 16`, `rather than 16`) is not the answer. */
const NEGATED = /(?:\bnot|n't|\brather\s+than|\binstead\s+of)\s*[$€£]?$/i;
/** Words a lone answer may carry after it: a unit or a noun or two (`18 apples`, `2 h`). */
export const UNIT_TAIL = /^\s*%?(?:[ \t]+[\p{L}°/][\p{L}°/.]*){0,2}[*_$\\\])]*\s*(?:$|\n|[,;:(]|\.(?:\s|$))/u;

/**
 * The number of the place `[from, to)` of a text (its tokens given): the first number after at
 * most a few words, or after the place's last `=` when it shows a sum (`9 + 9 = 18`); a number in
 * words when it stands alone there. Undefined when the place holds none.
 */
export function readSlot(
  text: string,
  from: number,
  to: number,
  tokens?: readonly NumberToken[],
): SlotReading {
  const grouped = spaceGrouped(text.slice(from, to));
  if (grouped) return { ...grouped, end: to };
  const inPlace = (tokens ?? numberTokens(text)).filter(
    (t) => t.start >= from && t.end <= to && !NEGATED.test(text.slice(Math.max(from, t.start - 20), t.start)),
  );
  const words = wordsAt(text, from, to);
  let token = inPlace[0];
  if (words && (!token || words.start < token.start)) return words.reading;
  if (!token || !leadIn(text.slice(from, token.start))) return undefined;
  const sum = lastEquals(text, token.end, to);
  if (sum !== undefined) token = inPlace.find((t) => t.start > sum) ?? token;
  if (offersAlternative(text, token)) return 'ambiguous';
  const value = spacedMinus(text.slice(from, token.start)) ? -token.value : token.value;
  return { value, ...(token.form && { form: token.form }), end: token.end };
}

/** Few enough words before the number, and no sentence ended: `Let's see. 9 + 9` is not an answer `9`. */
function leadIn(before: string): boolean {
  return LEAD_IN.test(before) && (before.match(/\p{L}+/gu)?.length ?? 0) <= MAX_LEAD_WORDS;
}

/** `#### - 5`: a minus with a space after it, where nothing but markup comes before it, is the answer's sign. */
function spacedMinus(before: string): boolean {
  return /^[\s*_:=]*-\s$/.test(before);
}

/** The last `=` between `from` and `to` outside brackets, in the first sentence; undefined if none. */
function lastEquals(text: string, from: number, to: number): number | undefined {
  let depth = 0;
  let at: number | undefined;
  for (let i = from; i < to; i++) {
    const c = text[i] as string;
    if (c === '\n' || (/[.!?]/.test(c) && /^\s?$/.test(text[i + 1] ?? ''))) break;
    if (c === '(' || c === '[') depth++;
    else if ((c === ')' || c === ']') && depth > 0) depth--;
    else if (c === '=' && depth === 0) at = i;
  }
  return at;
}

/** A number in words at the place's start, standing alone (at most two words after it). */
function wordsAt(
  text: string,
  from: number,
  to: number,
): { start: number; reading: SlotReading & object } | undefined {
  const lead = /^[\s*_:]*/.exec(text.slice(from, to))?.[0].length ?? 0;
  const start = from + lead;
  const words = numberWordsAt(text.slice(start, to));
  if (!words || !UNIT_TAIL.test(text.slice(start + words.end, to))) return undefined;
  return { start, reading: { value: words.value, form: 'number-word', end: start + words.end } };
}

const AFTER_ALTERNATIVE = /^\s*\(?\s*(?:or|to|–|—|~)\s*(?:\\boxed\{)?[$€£]?-?\d/i;
const BEFORE_ALTERNATIVE = /(?:\d|\})\s*(?:or|to|–|—|~)\s*(?:\\boxed\{)?[$€£]?$/i;
const FROM_TO = /\bfrom\s+[$€£]?\d[\d,.]*\s*to\s*$/i;
const BETWEEN = /\bbetween\s+[$€£]?\d[\d,.]*\s+and\s+[$€£]?$/i;

/**
 * Whether the number is one of two answers offered: `18 or 20`, `either 18 or 20`, a range
 * (`15-20`, `15–20`, `15 to 20`, `between 15 and 20`); `from 16 to 18` is a change, not a range.
 */
export function offersAlternative(text: string, token: NumberToken): boolean {
  const after = text.slice(token.end, token.end + 40);
  const before = text.slice(Math.max(0, token.start - 40), token.start);
  // The same value said twice (`0.75 (or 3/4)`) is one answer.
  const differs = (other: NumberToken | undefined) =>
    other !== undefined &&
    Math.abs(Math.abs(other.value) - Math.abs(token.value)) > 1e-9 * Math.abs(token.value);
  if (AFTER_ALTERNATIVE.test(after) || /^[-–]\d/.test(after))
    return differs(numberTokens(after.replace(/^[-–]/, ''))[0]);
  const previous = numberTokens(before).at(-1);
  if (/\d[-–]$/.test(before) || BETWEEN.test(before)) return differs(previous);
  return BEFORE_ALTERNATIVE.test(before) && !FROM_TO.test(before) && differs(previous);
}

/** Whether a token is rejected by the words just before it (`not 1,000`). */
export function isNegated(text: string, token: NumberToken): boolean {
  return NEGATED.test(text.slice(Math.max(0, token.start - 20), token.start));
}
