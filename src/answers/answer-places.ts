import {
  isNegated,
  offersAlternative,
  readSlot,
  type SlotReading,
  spaceGrouped,
  UNIT_TAIL,
} from './number-slot.js';
import { type NumberToken, numberTokens } from './number-tokens.js';
import { numberWordsAt } from './number-words.js';

/**
 * Where a reply puts its answer, other than JSON (number.ts), each read as a careful reader does
 * (docs/ladder.md#scoring): an answer marker (`####`, `\boxed{}`, `Final answer:`, `The answer
 * is`, a `Final Answer` heading), a number in bold, a number the reply opens with, and the last
 * number. Each gives the reading and where it ends, for a correction after it.
 */
export type Place = 'json' | 'hashes' | 'boxed' | 'final-marker' | 'bold' | 'leading-number' | 'last-number';
export interface PlaceReading {
  place: Place;
  reading: Exclude<SlotReading, undefined>;
  /** Where the marker starts (the last marker wins). */
  at: number;
}

/** Where a reading ends: a correction after it replaces it. */
export function readingEnd(r: PlaceReading): number {
  return r.reading === 'ambiguous' ? r.at + 1 : r.reading.end;
}

const HASHES = /####/g;
const ANSWER_MARKER =
  /\b(?:final\s+answer|(?:the\s+)?(?:correct\s+|final\s+)?answer|final\s+result)\b[*_\s]*(?:\([^)\n]{0,30}\)[*_\s]*)?(?::|=|\bis\b|\bwould\s+be\b|\bwill\s+be\b|\bshould\s+be\b)[*_:\s]*/gi;
/** A `Final Answer` heading with the answer on the next line. */
const ANSWER_HEADING = /\bfinal\s+answer\b[*_:#\t ]*\r?\n\s*/gi;
const BOXED = /\\(?:boxed|fbox)\s*\{/g;

/** The answer at the last marker that gives one (a number, or two offered: ambiguous). */
export function markedAnswer(
  text: string,
  tokens: readonly NumberToken[],
  from = 0,
): PlaceReading | undefined {
  const found: PlaceReading[] = [];
  const lineSlot = (re: RegExp, place: Place) => {
    for (const m of text.slice(from).matchAll(re)) {
      const start = from + m.index + m[0].length;
      const eol = text.indexOf('\n', start);
      const reading = readSlot(text, start, eol < 0 ? text.length : eol, tokens);
      if (reading) found.push({ place, reading, at: from + m.index });
    }
  };
  lineSlot(HASHES, 'hashes');
  lineSlot(ANSWER_MARKER, 'final-marker');
  lineSlot(ANSWER_HEADING, 'final-marker');
  for (const m of text.slice(from).matchAll(BOXED)) {
    const reading = boxedReading(text, from + m.index, from + m.index + m[0].length);
    if (reading) found.push({ place: 'boxed', reading, at: from + m.index });
  }
  return found.sort((a, b) => a.at - b.at).at(-1);
}

/** `\boxed{...}`: its content without LaTeX's text and spacing commands; two boxed answers offered are ambiguous. */
function boxedReading(text: string, at: number, open: number): SlotReading {
  const close = matchingBrace(text, open);
  if (close === undefined) return undefined;
  const content = text
    .slice(open, close)
    .replace(/\\(?:text|mathrm|textbf|mbox)\s*\{([^{}]*)\}/g, ' $1 ')
    .replace(/\\([$%])/g, '$1')
    .replace(/\\[,;:!]|~|\^\s*\{?\\circ\}?/g, ' ');
  const reading = readSlot(content, 0, content.length);
  if (reading === undefined || reading === 'ambiguous') return reading;
  if (/(?:\d|\})\s*(?:or|–|—)\s*$/i.test(text.slice(Math.max(0, at - 20), at))) return 'ambiguous';
  if (/^\s*(?:or|–|—)\s*\\boxed/i.test(text.slice(close + 1, close + 20))) return 'ambiguous';
  return { ...reading, end: close + 1 };
}

function matchingBrace(text: string, open: number): number | undefined {
  let depth = 1;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth === 0) return i;
  }
  return undefined;
}

const BOLD = /\*\*([^*\n]{1,60}?)\*\*|__([^_\n]{1,60}?)__/g;
/** A bold answer: the number, a label before it (`Total:`), a unit or two after it. */
const BOLD_BEFORE = /^\s*(?:\p{L}[\p{L} ]{0,30}[:=]\s*)?$/u;
const BOLD_AFTER = /^\s*%?(?:\s*[\p{L}°/]+){0,3}\s*[.!]?\s*$/u;

/** The last bold span that is a number and little else (`**18**`, `**18 apples**`, `**Total: $1,250**`). */
export function boldAnswer(text: string): PlaceReading | undefined {
  let last: PlaceReading | undefined;
  for (const m of text.matchAll(BOLD)) {
    const content = (m[1] ?? m[2]) as string;
    const tokens = numberTokens(content);
    const words = tokens.length === 0 ? numberWordsAt(content) : undefined;
    const only = tokens.length === 1 ? tokens[0] : undefined;
    const end = m.index + m[0].length;
    if (only && BOLD_BEFORE.test(content.slice(0, only.start)) && BOLD_AFTER.test(content.slice(only.end)))
      last = {
        place: 'bold',
        reading: { value: only.value, ...(only.form && { form: only.form }), end },
        at: m.index,
      };
    else if (words && BOLD_AFTER.test(content.slice(words.end)))
      last = { place: 'bold', reading: { value: words.value, form: 'number-word', end }, at: m.index };
  }
  return last;
}

/** What may come before a reply's opening number: markup only. */
const OPENING = /^[\s>#*_$]*(?:\\\(|\\\[)?[\s$]*/;
/**
 * A conclusion after the opening number's own clause: the reply works towards another answer
 * (`9 eggs, sold at $2 each: $18`, `... so 18`). A colon right after the number explains it instead.
 */
const CONCLUSION =
  /\b(?:so|therefore|thus|hence|total|altogether|in all|equals|comes to)\b[^\n.]*?\d|(?:=|=>|→|:)\s*[$€£]?-?\d/i;
const NUMBERED_LIST = /^\s*\d+[.)]\s.*\n\s*\d+[.)]\s/s;

/**
 * A reply that opens with its answer (`18 apples, of which 2 are left`, `18. She started with...`):
 * the number, a unit or two, then a pause. Not a numbered list, and not when the reply goes on to
 * conclude with another number (`2 boxes, each with 9, so 18`).
 */
export function leadingAnswer(text: string, tokens: readonly NumberToken[]): PlaceReading | undefined {
  if (NUMBERED_LIST.test(text)) return undefined;
  const grouped = spaceGrouped(text);
  if (grouped) return { place: 'leading-number', reading: grouped, at: 0 };
  const opening = OPENING.exec(text)?.[0].length ?? 0;
  const first = tokens[0];
  const opens = first !== undefined && first.start <= opening && OPENING.test(text.slice(0, first.start));
  const words = opens ? undefined : numberWordsAt(text.slice(opening));
  const end = opens ? first.end : words && opening + words.end;
  if (end === undefined) return undefined;
  const tail = UNIT_TAIL.exec(text.slice(end));
  if (!tail || CONCLUSION.test(text.slice(end + tail[0].length))) return undefined;
  let reading: PlaceReading['reading'];
  if (words) reading = { value: words.value, form: 'number-word', end };
  else if (offersAlternative(text, first as NumberToken)) reading = 'ambiguous';
  else reading = { value: (first as NumberToken).value, ...(first?.form && { form: first.form }), end };
  return { place: 'leading-number', reading, at: 0 };
}

/**
 * The last number of the text (after `from`), leaving out asides in brackets (`18 (as of 2024)`)
 * where a number stands outside them, and numbers the text rejects (`not 1,000`).
 */
export function lastNumber(text: string, tokens: readonly NumberToken[], from = 0): PlaceReading | undefined {
  const after = tokens.filter((t) => t.start >= from && !isNegated(text, t));
  const depths = bracketDepths(text, after);
  const outside = after.filter((_, i) => depths[i] === 0);
  const token = (outside.length > 0 ? outside : after).at(-1);
  if (!token) return undefined;
  const reading = offersAlternative(text, token)
    ? 'ambiguous'
    : { value: token.value, ...(token.form && { form: token.form }), end: token.end };
  return { place: 'last-number', reading, at: token.start };
}

/** How many brackets are open where each token (in order) starts, in one pass over the text. */
function bracketDepths(text: string, tokens: readonly NumberToken[]): number[] {
  const out: number[] = [];
  let depth = 0;
  let i = 0;
  for (const t of tokens) {
    for (; i < t.start; i++) {
      const c = text[i];
      if (c === '(' || c === '[') depth++;
      else if ((c === ')' || c === ']') && depth > 0) depth--;
    }
    out.push(depth);
  }
  return out;
}

/** A correction of an answer already given: the reply says it was wrong (`Wait, I mis-added: it's 20`). */
const CORRECTION =
  /\b(?:I\s+(?:mis-?\w+|made\s+(?:a|an)\s+(?:mistake|error)|was\s+wrong|meant)|my\s+(?:mistake|error|bad)|correction\b|that(?:'s|\s+is|\s+was)\s+(?:wrong|incorrect)|actually,?\s+(?:it'?s|it\s+is|the\s+answer)|let\s+me\s+(?:correct|recalculate|redo|recompute|fix)|scratch\s+that|oops)/gi;

/** Where the first correction after `from` starts; undefined if the reply makes none. */
export function correctionAfter(text: string, from: number): number | undefined {
  CORRECTION.lastIndex = from;
  return CORRECTION.exec(text)?.index;
}
