/**
 * Input Quality: the problem as a person might type it or OCR might read it (noise.ts), at a
 * share of its words per level that published error rates support (docs/ladder-families.md#iq-noise):
 *   L1 one typing slip (at most 5% of the words);   L2 5-10% of the words, typing slips;
 *   L3 10-15%, typing, case and spacing slips;       L4 15-22%, mostly OCR confusions;
 *   L5 22-32%, OCR confusions, typing and spacing slips.
 * Numbers, number words, units and the word after a number are never touched, and a capitalised
 * word never slips into another word or name ("Mary" -> "May": real-word.ts). Every candidate is
 * checked to read back (`readsBack`) before its level is measured; seeded placements are tried until
 * one measures at the requested level (the measure, difflib on the lowercased text, depends on
 * where the slips fall, not only on how many there are), else there is no candidate.
 */

import { editDistance } from '../../../../util/closest.js';
import type { PyRandom } from '../../../../util/random.js';
import { isNumberWord, multiset, numbersIn, whitespaceWords } from '../../text/tokens.js';
import type { Level } from '../../types.js';
import { assess, lowerEdge } from '../aim.js';
import type { RulesInput, RulesMade } from '../contract.js';
import { type Slip, slipSpace, slipWord } from './noise.js';
import { realWordSlip } from './real-word.js';

interface LevelNoise {
  /** Share of the whitespace words altered, [lo, hi]. */
  rate: readonly [number, number];
  /** The slips drawn from (a slip listed twice is drawn twice as often). */
  slips: readonly Slip[];
  /** The most edits (optimal string alignment, case ignored) between a word and its slipped form. */
  maxEdits: number;
  subtype: string;
}

const TYPING: readonly Slip[] = ['neighbor', 'omit', 'insert', 'transpose'];

/** The noise of each level (docs/ladder-families.md#iq-noise gives the sources of the rates). */
export const IQ_NOISE: Record<Level, LevelNoise> = {
  1: { rate: [0, 0.05], slips: TYPING, maxEdits: 1, subtype: 'typo' },
  2: { rate: [0.05, 0.1], slips: [...TYPING, 'apostrophe', 'comma'], maxEdits: 1, subtype: 'typos' },
  3: {
    rate: [0.1, 0.15],
    slips: [...TYPING, 'apostrophe', 'comma', 'missed-capital', 'held-shift', 'space-shift', 'space-shift'],
    maxEdits: 1,
    subtype: 'typos+case+spacing',
  },
  4: {
    rate: [0.15, 0.22],
    slips: ['ocr', 'ocr', 'ocr', ...TYPING, 'missed-capital'],
    maxEdits: 2,
    subtype: 'ocr',
  },
  5: {
    rate: [0.22, 0.32],
    slips: ['ocr', 'ocr', 'ocr', 'ocr', ...TYPING, 'space-shift', 'held-shift'],
    maxEdits: 2,
    subtype: 'ocr+typos',
  },
};

/** Units and measures: what a number counts stays as written. */
const UNITS =
  /^(?:seconds?|minutes?|hours?|days?|weeks?|months?|years?|decades?|miles?|meters?|metres?|kilometers?|km|feet|foot|inches?|inch|yards?|pounds?|lbs?|ounces?|oz|grams?|kilograms?|kg|liters?|litres?|gallons?|cups?|teaspoons?|tablespoons?|dollars?|cents?|percent|hectares?|acres?|dozens?|pairs?|times?|mph)$/i;

/** Whether a word must stay as written: a number, a number word, a unit, or the word after a number. */
function isProtected(word: string, previous: string | undefined): boolean {
  const bare = word.replace(/[^A-Za-z'-]/g, '');
  if (/[\d$%]/.test(word) || bare.length === 0) return true;
  if (isNumberWord(bare) || UNITS.test(bare.replace(/'s$/, ''))) return true;
  // "5 new spoons", "three kinds": the word after a number belongs to it.
  const prev = (previous ?? '').replace(/[^A-Za-z0-9$%'-]/g, '');
  return /\d/.test(prev) || isNumberWord(prev);
}

/** The text cut into words and the whitespace between them (parts[0] may be an empty word). */
function segments(text: string): { words: string[]; gaps: string[] } {
  const parts = text.split(/(\s+)/);
  return { words: parts.filter((_, i) => i % 2 === 0), gaps: parts.filter((_, i) => i % 2 === 1) };
}

function join(words: readonly string[], gaps: readonly string[]): string {
  return words.map((w, i) => w + (gaps[i] ?? '')).join('');
}

/** Why a candidate does not read back, or undefined when it does (docs/ladder-families.md#iq-readback). */
export function readsBack(original: string, candidate: string, level: Level): string | undefined {
  const o = whitespaceWords(original);
  const c = whitespaceWords(candidate);
  if (o.length !== c.length) return `word count ${c.length}, not ${o.length}`;
  const have = multiset(numbersIn(candidate));
  for (const [n, count] of multiset(numbersIn(original)))
    if ((have.get(n) ?? 0) < count) return `number ${n} missing`;
  const noise = IQ_NOISE[level];
  let altered = 0;
  for (let i = 0; i < o.length; i++) {
    const a = o[i] as string;
    const b = c[i] as string;
    if (a === b) continue;
    altered++;
    if (isProtected(a, o[i - 1])) return `"${a}" (a number, number word, unit or counted word) changed`;
    const edits = editDistance(a.toLowerCase(), b.toLowerCase());
    if (edits > noise.maxEdits) return `"${a}" -> "${b}": ${edits} edits, more than ${noise.maxEdits}`;
    // A word keeps its first letter, unless a space struck early carried the last one of the word before.
    const shifted = b.slice(1) === a && b[0] === (o[i - 1] ?? '').at(-1);
    if (level <= 3 && b[0]?.toLowerCase() !== a[0]?.toLowerCase() && !shifted)
      return `"${a}" -> "${b}": first letter changed`;
    if ((b.match(/\d/g) ?? []).length > 1) return `"${b}": more than one digit read into a word`;
    const entity = realWordSlip(a, b, o[i - 1], {
      before: [o[i - 1] ?? '', c[i - 1] ?? ''],
      after: [o[i + 1] ?? '', c[i + 1] ?? ''],
    });
    if (entity !== undefined) return entity;
  }
  // One slip is always allowed (L1 on a problem under 20 words).
  if (altered > Math.max(1, Math.floor(noise.rate[1] * o.length + 1e-9)))
    return `${altered} of ${o.length} words altered, more than ${noise.rate[1] * 100}%`;
  return undefined;
}

/** One seeded placement: `count` eligible words slipped (a space slip alters the word after it too). */
function place(original: string, level: Level, count: number, rng: PyRandom): string | undefined {
  const { words, gaps } = segments(original);
  const eligible = words
    .map((w, i) => (w.length > 0 && !isProtected(w, words[i - 1]) ? i : -1))
    .filter((i) => i >= 0);
  if (eligible.length === 0) return undefined;
  const out = [...words];
  const outGaps = [...gaps];
  const touched = new Set<number>();
  const slips = IQ_NOISE[level].slips;
  for (const i of rng.sample(eligible, Math.min(count, eligible.length))) {
    if (touched.size >= count) break;
    if (touched.has(i)) continue;
    for (let tries = 0; tries < 4; tries++) {
      const slip = rng.choice(slips);
      if (slip === 'space-shift' || slip === 'double-space') {
        const j = i + 1;
        if (touched.has(j) || !eligible.includes(j) || touched.size + 2 > count) continue;
        const made = slipSpace(out[i] as string, outGaps[i] as string, out[j] as string, slip);
        if (!made) continue;
        [out[i], outGaps[i], out[j]] = made;
        touched.add(i).add(j);
        break;
      }
      const made = slipWord(out[i] as string, slip, rng);
      if (made === undefined || made === out[i]) continue;
      out[i] = made;
      touched.add(i);
      break;
    }
  }
  // A doubled space here and there from L3 on: no word changes, as people leave them.
  if (level >= 3)
    for (let k = rng.randrange(3); k > 0; k--) {
      const g = rng.randrange(Math.max(1, outGaps.length));
      if (outGaps[g] === ' ') outGaps[g] = '  ';
    }
  const text = join(out, outGaps);
  return text === original ? undefined : text;
}

/** Seeded placements tried per candidate. */
const PLACEMENTS = 40;
/** Below this length difflib has no autojunk, so the magnitude grows about linearly with the slips. */
const AUTOJUNK_LENGTH = 200;

export function inputQualityRules({ original, level, rng, target }: RulesInput): RulesMade | undefined {
  const noise = IQ_NOISE[level];
  const words = whitespaceWords(original).length;
  const most = Math.max(1, Math.floor(noise.rate[1] * words + 1e-9));
  const least = Math.min(most, Math.max(1, Math.ceil(noise.rate[0] * words - 1e-9)));
  const edge = lowerEdge(target);
  for (let p = 0; p < PLACEMENTS; p++) {
    // The heaviest placement first: if it stays below the band on a short problem, none will reach it.
    const count = p === 0 ? most : least + rng.randrange(most - least + 1);
    const text = place(original, level, count, rng);
    if (text === undefined || readsBack(original, text, level) !== undefined) continue;
    const before = whitespaceWords(original);
    const altered = whitespaceWords(text).filter((w, i) => w !== before[i]).length;
    // Slips that did not fit may leave fewer words altered than the level asks.
    if (altered < least) continue;
    const { severity, gatesPass } = assess(target, text);
    if (gatesPass && severity.level === level)
      return { text, name: `${noise.subtype}-${altered}w`, subtype: noise.subtype };
    if (p === 0 && original.length < AUTOJUNK_LENGTH && edge !== undefined && severity.score < edge)
      return undefined;
  }
  return undefined;
}
