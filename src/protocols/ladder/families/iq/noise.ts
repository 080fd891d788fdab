/**
 * Input Quality's noise, as people and OCR make it (docs/ladder-families.md#iq-noise), one slip per
 * word:
 * - typing slips, Damerau's four single-error classes: a letter replaced by a QWERTY neighbour, a
 *   letter left out, a letter doubled or a neighbour struck with it, two neighbours swapped; and an
 *   apostrophe or a comma left out;
 * - case and spacing slips: a capital missed ("mary"), Shift held one letter long ("MAry"), the
 *   space struck one letter early ("ho wmany"), a space doubled;
 * - OCR confusions of letter shapes: rn/m, cl/d, li/h, vv/w, e/c, u/v, and l/1, O/0 inside a word
 *   (never in a number, never the whole word a digit).
 * A slip returns undefined where it does not fit the word.
 */

import type { PyRandom } from '../../../../util/random.js';

export type Slip =
  | 'neighbor'
  | 'omit'
  | 'insert'
  | 'transpose'
  | 'apostrophe'
  | 'comma'
  | 'missed-capital'
  | 'held-shift'
  | 'space-shift'
  | 'double-space'
  | 'ocr';

/** Letters next to each other on a QWERTY keyboard. */
const NEIGHBORS: Record<string, string> = {
  a: 'qwsz',
  b: 'vghn',
  c: 'xdfv',
  d: 'serfcx',
  e: 'wsdr',
  f: 'drtgvc',
  g: 'ftyhbv',
  h: 'gyujnb',
  i: 'ujko',
  j: 'huikmn',
  k: 'jiolm',
  l: 'kop',
  m: 'njk',
  n: 'bhjm',
  o: 'iklp',
  p: 'ol',
  q: 'wa',
  r: 'edft',
  s: 'awedxz',
  t: 'rfgy',
  u: 'yhji',
  v: 'cfgb',
  w: 'qase',
  x: 'zsdc',
  y: 'tghu',
  z: 'asx',
};

/** Letter shapes OCR confuses, both ways. */
const OCR_LETTERS: readonly [string, string][] = [
  ['rn', 'm'],
  ['m', 'rn'],
  ['cl', 'd'],
  ['d', 'cl'],
  ['li', 'h'],
  ['h', 'li'],
  ['vv', 'w'],
  ['w', 'vv'],
  ['e', 'c'],
  ['c', 'e'],
  ['u', 'v'],
];

/** A letter read as a digit: only inside a word of four letters or more, never its first letter. */
const OCR_DIGITS: readonly [string, string][] = [
  ['l', '1'],
  ['O', '0'],
  ['o', '0'],
];

const isLetter = (c: string | undefined) => c !== undefined && /^[a-z]$/i.test(c);

/** The positions of a word's letters (not its punctuation). */
function letterPositions(word: string): number[] {
  return [...word].map((c, i) => (isLetter(c) ? i : -1)).filter((i) => i >= 0);
}

/** One slip applied to a word, or undefined where it does not fit it. */
export function slipWord(word: string, slip: Slip, rng: PyRandom): string | undefined {
  const chars = [...word];
  const letters = letterPositions(word);
  if (letters.length < 3 && slip !== 'apostrophe' && slip !== 'comma') return undefined;
  // Not the first letter: people seldom mistype it, and readers find a word by its first letter.
  const inner = letters.slice(1);
  switch (slip) {
    case 'neighbor': {
      const at = rng.choice(inner);
      const c = chars[at] as string;
      const options = NEIGHBORS[c.toLowerCase()];
      if (!options) return undefined;
      const n = rng.choice([...options]);
      chars[at] = c === c.toLowerCase() ? n : n.toUpperCase();
      return chars.join('');
    }
    case 'omit': {
      chars.splice(rng.choice(inner), 1);
      return chars.join('');
    }
    case 'insert': {
      const at = rng.choice(inner);
      const c = chars[at] as string;
      // A letter doubled, or the neighbour struck with it.
      const extra = rng.random() < 0.5 ? c : rng.choice([...(NEIGHBORS[c.toLowerCase()] ?? c)]);
      chars.splice(at, 0, extra);
      return chars.join('');
    }
    case 'transpose': {
      const pairs = inner.filter((i) => isLetter(chars[i + 1]) && chars[i] !== chars[i + 1]);
      if (pairs.length === 0) return undefined;
      const at = rng.choice(pairs);
      [chars[at], chars[at + 1]] = [chars[at + 1] as string, chars[at] as string];
      return chars.join('');
    }
    case 'apostrophe':
      return /[a-z]'[a-z]/i.test(word) ? word.replace("'", '') : undefined;
    case 'comma':
      return word.endsWith(',') && word.length > 1 ? word.slice(0, -1) : undefined;
    case 'missed-capital':
      return /^[A-Z][a-z]/.test(word) ? `${word[0]?.toLowerCase()}${word.slice(1)}` : undefined;
    case 'held-shift':
      return /^[A-Z][a-z]{2}/.test(word) ? `${word.slice(0, 2).toUpperCase()}${word.slice(2)}` : undefined;
    case 'ocr':
      return ocr(word, rng);
    case 'space-shift':
    case 'double-space':
      // Between words: see slipSpace.
      return undefined;
  }
}

function ocr(word: string, rng: PyRandom): string | undefined {
  const options: [number, string, string][] = [];
  const lower = word.toLowerCase();
  for (const [from, to] of OCR_LETTERS)
    for (let i = lower.indexOf(from, 1); i >= 0; i = lower.indexOf(from, i + 1))
      if (word.slice(i, i + from.length) === from) options.push([i, from, to]);
  if (letterPositions(word).length >= 4)
    for (const [from, to] of OCR_DIGITS)
      for (let i = word.indexOf(from, 1); i >= 0 && i < word.length - 1; i = word.indexOf(from, i + 1))
        options.push([i, from, to]);
  if (options.length === 0) return undefined;
  const [at, from, to] = rng.choice(options);
  return `${word.slice(0, at)}${to}${word.slice(at + from.length)}`;
}

/**
 * A slip across the gap after word `i`: the space struck one letter early ("how many" -> "ho
 * wmany"), or doubled. Returns the two words and the gap, or undefined where it does not fit.
 */
export function slipSpace(
  left: string,
  gap: string,
  right: string,
  slip: 'space-shift' | 'double-space',
): [string, string, string] | undefined {
  if (slip === 'double-space') return gap === ' ' ? [left, '  ', right] : undefined;
  // Both plain lowercase words, so the moved letter stays a letter: "ho wmany", never "Juli a's".
  if (!/^[a-z]{3,}$/.test(left) || !/^[a-z]{2,}[a-z.,?!]*$/.test(right) || gap !== ' ') return undefined;
  return [left.slice(0, -1), gap, `${left.slice(-1)}${right}`];
}
