/**
 * Input Quality: typing slips (swapped, dropped, doubled or neighbouring-key letters), punctuation
 * slips, stray capitals, doubled spaces and, at L4-L5, OCR-style confusions (rn/m, cl/d, l/i, e/c),
 * at a density chosen by measuring (see aim.ts). A word holding a digit is never touched, no digit
 * is ever written, and no whitespace is added inside a word or removed between words, so the
 * numbers and the whitespace word count stay as they were.
 */

import type { PyRandom } from '../../../util/random.js';
import { inputQualityGate } from '../gates/family-gates.js';
import type { Level } from '../types.js';
import { aimAtLevel } from './aim.js';
import { instructionsFor } from './model-instructions.js';
import { rulesFor } from './rules-common.js';
import type { FamilyModule } from './types.js';

type Op = 'swap' | 'drop' | 'double' | 'neighbor' | 'punct' | 'case' | 'space' | 'ocr';

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

/** OCR confusions between letter groups; none involves a digit. */
const OCR: readonly [string, string][] = [
  ['rn', 'm'],
  ['m', 'rn'],
  ['cl', 'd'],
  ['d', 'cl'],
  ['l', 'i'],
  ['i', 'l'],
  ['e', 'c'],
  ['c', 'e'],
  ['h', 'b'],
  ['u', 'v'],
  ['w', 'vv'],
  ['n', 'ri'],
];

const OPS_BY_LEVEL: Record<Level, readonly Op[]> = {
  1: ['swap', 'drop', 'double', 'neighbor'],
  2: ['swap', 'drop', 'double', 'neighbor', 'punct'],
  3: ['swap', 'drop', 'double', 'neighbor', 'punct', 'case', 'space'],
  4: ['swap', 'drop', 'double', 'neighbor', 'punct', 'case', 'ocr', 'ocr'],
  5: ['swap', 'drop', 'double', 'neighbor', 'punct', 'case', 'ocr', 'ocr', 'space'],
};

const SUBTYPE: Record<Level, string> = {
  1: 'typo',
  2: 'typos',
  3: 'typos+case+spacing',
  4: 'typos+ocr',
  5: 'typos+ocr+spacing',
};

interface Edit {
  token: number;
  op: Op;
  /** Where in the word, as a fraction of its length. */
  at: number;
  /** A second random draw (which neighbour, which OCR pair). */
  pick: number;
}

const isLetter = (c: string | undefined) => c !== undefined && /\p{L}/u.test(c);

/** Applies one edit to a word; returns the word unchanged when the edit does not fit it. */
function applyEdit(word: string, edit: Edit): string {
  const chars = Array.from(word);
  const letters = chars.map((c, i) => (isLetter(c) ? i : -1)).filter((i) => i >= 0);
  if (letters.length === 0 && edit.op !== 'punct') return word;
  const li = letters[Math.min(letters.length - 1, Math.floor(edit.at * letters.length))] as number;
  switch (edit.op) {
    case 'swap': {
      const j = letters.find((x) => x > li && chars[x] !== chars[li] && x === li + 1);
      if (j === undefined) return word;
      [chars[li], chars[j]] = [chars[j] as string, chars[li] as string];
      return chars.join('');
    }
    case 'drop':
      if (letters.length < 3) return word;
      chars.splice(li, 1);
      return chars.join('');
    case 'double':
      chars.splice(li, 0, chars[li] as string);
      return chars.join('');
    case 'neighbor': {
      const c = chars[li] as string;
      const lower = c.toLowerCase();
      const options = NEIGHBORS[lower];
      if (!options) return word;
      const n = options[Math.floor(edit.pick * options.length)] as string;
      chars[li] = c === lower ? n : n.toUpperCase();
      return chars.join('');
    }
    case 'punct': {
      const last = chars[chars.length - 1] as string;
      if (/[,.;:!?]/.test(last)) {
        // Drop it, or double it.
        if (edit.pick < 0.5) chars.pop();
        else chars.push(last);
        return chars.length > 0 ? chars.join('') : word;
      }
      return edit.pick < 0.3 ? `${word},` : word;
    }
    case 'case': {
      const c = chars[li] as string;
      chars[li] = c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase();
      return chars.join('');
    }
    case 'space':
      // Handled between words (a doubled space keeps the word count).
      return word;
    case 'ocr': {
      const lowerWord = word.toLowerCase();
      const start = Math.floor(edit.at * word.length);
      // Start the search at a seeded pair, so different edits try different confusions first.
      const first = Math.floor(edit.pick * OCR.length);
      const pairs = OCR.map((_, k) => OCR[(k + first) % OCR.length] as [string, string]);
      for (const [from, to] of pairs) {
        let idx = lowerWord.indexOf(from, start);
        if (idx < 0) idx = lowerWord.indexOf(from);
        if (idx >= 0) return word.slice(0, idx) + to + word.slice(idx + from.length);
      }
      return word;
    }
  }
}

/** The text split into words and the whitespace runs between them, so edits never touch spacing. */
function segments(text: string): { words: string[]; gaps: string[] } {
  const parts = text.split(/(\s+)/);
  const words: string[] = [];
  const gaps: string[] = [];
  // parts alternates word, gap, word, ...; a leading gap makes parts[0] empty.
  for (let i = 0; i < parts.length; i++) {
    if (i % 2 === 0) words.push(parts[i] as string);
    else gaps.push(parts[i] as string);
  }
  return { words, gaps };
}

function planEdits(words: readonly string[], level: Level, rng: PyRandom): Edit[] {
  // A word holding a digit (or `$`) is never touched: numbers stay exactly as written.
  const eligible = words
    .map((w, i) => (w.length > 0 && !/[\d$]/.test(w) && /\p{L}/u.test(w) ? i : -1))
    .filter((i) => i >= 0);
  if (eligible.length === 0) return [];
  const letters = eligible.reduce((n, i) => n + Array.from(words[i] as string).length, 0);
  // Up to about two edits per letter: short problems need very dense noise to reach the upper bands.
  const count = Math.max(8, Math.ceil(letters * 2));
  const ops = OPS_BY_LEVEL[level];
  const edits: Edit[] = [];
  for (let k = 0; k < count; k++) {
    edits.push({ token: rng.choice(eligible), op: rng.choice(ops), at: rng.random(), pick: rng.random() });
  }
  return edits;
}

function build(text: string, edits: readonly Edit[], k: number): string {
  const { words, gaps } = segments(text);
  const out = [...words];
  const wideGaps = new Set<number>();
  for (const edit of edits.slice(0, k)) {
    if (edit.op === 'space') {
      // Double the gap after the word (never the leading or trailing whitespace).
      if (edit.token < gaps.length && words[edit.token + 1]) wideGaps.add(edit.token);
      continue;
    }
    out[edit.token] = applyEdit(out[edit.token] as string, edit);
  }
  let result = '';
  out.forEach((w, i) => {
    result += w;
    const gap = gaps[i];
    if (gap !== undefined) result += wideGaps.has(i) ? `${gap} ` : gap;
  });
  return result;
}

/** Edit plans tried per candidate: one edit can break a long matching block, so the magnitude jumps;
 * another seeded order often lands inside a band that the first one stepped over. */
const PLANS = 4;

const rules = rulesFor('IQ', inputQualityGate, ({ original, level, rng, target }) => {
  let aimed: ReturnType<typeof aimAtLevel>;
  for (let p = 0; p < PLANS; p++) {
    const edits = planEdits(segments(original).words, level, rng);
    if (edits.length === 0) return undefined;
    const tried = aimAtLevel(target, edits.length, (k) => {
      const text = build(original, edits, k + 1);
      return text === original ? undefined : text;
    });
    if (!aimed || (tried && tried.severity.level === level)) aimed = tried;
    if (aimed?.severity.level === level) break;
  }
  if (!aimed) return undefined;
  return { text: aimed.text, name: `${SUBTYPE[level]}-${aimed.strength + 1}`, subtype: SUBTYPE[level] };
});

export const inputQuality: FamilyModule = {
  family: 'IQ',
  rules,
  modelInstructions: (seed, level, attempt) => instructionsFor('IQ', seed, level, attempt),
  familyGate: (original, candidate) => inputQualityGate(original, candidate),
};
