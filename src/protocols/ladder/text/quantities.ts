/**
 * The quantities a word problem gives (digits, fractions, percentages, money, number words), with
 * what they count, so Knowledge Boundary can take away, blur or contradict one that the answer needs.
 */
import { isNumberWord } from './tokens.js';

export type QuantityKind = 'money' | 'percent' | 'fraction' | 'count' | 'word';

export interface Quantity {
  /** The quantity as written (`$68`, `20%`, `1/4`, `3`, `twice`). */
  text: string;
  kind: QuantityKind;
  /** Start offset in the question. */
  index: number;
  /** Up to three words after it (`dozen donuts`), without punctuation; empty when none. */
  follows: string;
  /** Integer value for counts, else undefined. */
  value?: number;
  /** Inside the last sentence (usually the question asked). */
  inQuestion: boolean;
  /** Joined to a word by a hyphen (`10-hour`): replacing it needs care. */
  hyphenated: boolean;
}

// `$400 000`: a space may group thousands in an amount of money ("her a certain amount 000 budget").
const QUANTITY =
  /\$\d+(?:[.,]\d+| \d{3}(?!\d))*|\d+\/\d+|\d+(?:[.,]\d+)*\s?%|\d+(?:[.,]\d+)*(?:\s+percent\b)?/g;

const STOP_AFTER =
  /^(which|that|who|and|or|but|for|per|each|to|of|in|on|at|with|from|by|as|than|if|is|are|was|were|the|a|an)$/i;

function followingWords(text: string, end: number): string {
  const rest = text.slice(end).replace(/^-?\s*/, '');
  const out: string[] = [];
  for (const raw of rest.split(/\s+/)) {
    const w = raw.replace(/[^A-Za-z-]/g, '');
    if (!w || STOP_AFTER.test(w) || /^[A-Z]/.test(raw)) break;
    out.push(w.toLowerCase());
    if (out.length >= 3 || /[,.;:!?)]$/.test(raw)) break;
  }
  return out.join(' ');
}

/** "per dozen", "each", "a pound" after an amount of money; empty when none. */
function moneyUnit(text: string, end: number): string {
  const m = /^\s+(per [a-z]+|each|an? [a-z]+)\b/.exec(text.slice(end));
  return m ? (m[1] as string).replace(/^an? /, 'per ') : '';
}

export function findQuantities(text: string): Quantity[] {
  const lastSentenceStart = Math.max(text.lastIndexOf('. '), text.lastIndexOf('! '), text.lastIndexOf('? '));
  const out: Quantity[] = [];
  for (const m of text.matchAll(QUANTITY)) {
    const written = m[0];
    const index = m.index ?? 0;
    const end = index + written.length;
    const kind: QuantityKind = written.startsWith('$')
      ? 'money'
      : /%|percent/.test(written)
        ? 'percent'
        : written.includes('/')
          ? 'fraction'
          : 'count';
    const integer = /^\d+$/.test(written) ? Number(written) : undefined;
    out.push({
      text: written,
      kind,
      index,
      follows: kind === 'count' ? followingWords(text, end) : kind === 'money' ? moneyUnit(text, end) : '',
      value: integer,
      inQuestion: index > lastSentenceStart,
      hyphenated: text[end] === '-' || text[index - 1] === '-',
    });
  }
  if (out.length > 0) return out;
  // No digits: the quantities are words ("twice", "three times", "half").
  for (const m of text.matchAll(/\b[A-Za-z]+(?:-[A-Za-z]+)?\b/g)) {
    if (!isNumberWord(m[0]) && !/^once$/i.test(m[0])) continue;
    const index = m.index ?? 0;
    out.push({
      text: m[0],
      kind: 'word',
      index,
      follows: followingWords(text, index + m[0].length),
      inQuestion: index > lastSentenceStart,
      hyphenated: m[0].includes('-'),
    });
  }
  return out;
}

/** Replaces every occurrence of the quantity's written form (so a repeated value does not give it back). */
/**
 * `q` replaced where it stands, its other occurrences left as they are: a premise made impossible
 * changes one given ("stopped being penpals with 8", not also "8 letters a week"; blind read v9,
 * gsm-symbolic-72). The text comes back unchanged when `q` is not at its index.
 */
export function replaceQuantityAt(text: string, q: Quantity, replacement: string): string {
  if (text.slice(q.index, q.index + q.text.length) !== q.text) return text;
  return text.slice(0, q.index) + replacement + text.slice(q.index + q.text.length);
}

export function replaceQuantity(text: string, q: Quantity, replacement: string): string {
  const escaped = q.text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern =
    q.kind === 'word'
      ? new RegExp(`\\b${escaped}\\b`, 'gi')
      : new RegExp(`(?<![\\d.,$/])${escaped}(?![\\d/]|[.,]\\d)`, 'g');
  return text.replace(pattern, replacement);
}
