/**
 * A number written in English words (`eighteen`, `twenty-five`, `one hundred and five`), for an
 * answer given in words (docs/ladder.md#scoring). Only whole numbers: `one and a half` is not read.
 */

import { SMALL_NUMBER_WORDS, TEEN_NUMBER_WORDS } from '../util/number-words.js';

const SMALL: Record<string, number> = Object.fromEntries(
  [...SMALL_NUMBER_WORDS, ...TEEN_NUMBER_WORDS].map((w, i) => [w, i]),
);
const TENS: Record<string, number> = Object.fromEntries(
  ['twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'].map((w, i) => [
    w,
    20 + 10 * i,
  ]),
);
const SCALES: Record<string, number> = { thousand: 1e3, million: 1e6, billion: 1e9 };

/** The number words at the start of a text (after spaces), with where they end; undefined if none. */
export function numberWordsAt(text: string): { value: number; end: number } | undefined {
  const words = /\s*(minus\s+|negative\s+)?([a-z]+)/iy;
  const next = /(?:\s+(?:and\s+)?|-)([a-z]+)/iy;
  const first = words.exec(text);
  if (!first || !isNumberWord(first[2] as string)) return undefined;
  const sign = first[1] ? -1 : 1;
  let total = 0;
  let current = 0;
  let end = 0;
  let word: string | undefined = first[2];
  let at = words.lastIndex;
  while (word !== undefined && isNumberWord(word)) {
    const w = word.toLowerCase();
    if (w === 'hundred') current = (current || 1) * 100;
    else if (w in SCALES) {
      total += (current || 1) * (SCALES[w] as number);
      current = 0;
    } else current += SMALL[w] ?? TENS[w] ?? 0;
    end = at;
    next.lastIndex = at;
    const m = next.exec(text);
    word = m?.[1];
    at = next.lastIndex;
  }
  return { value: sign * (total + current), end };
}

function isNumberWord(word: string): boolean {
  const w = word.toLowerCase();
  return w in SMALL || w in TENS || w in SCALES || w === 'hundred';
}
