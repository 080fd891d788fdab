/**
 * Surface noise (the paper's Table 3; docs/method.md#sago), seeded so that a (seed, item, subtype,
 * strength, position) always gives the same text, and reproducible in Python with
 * `random.Random(seed)` (PyRandom is an exact port). What strength means, per subtype:
 * - spacing s: s extra spaces, each added to a word gap drawn at random (with replacement);
 * - punctuation s: s marks from `. , ! ' ( ) [ ] ; : -`, each drawn at random and attached
 *   directly before or after a word drawn at random (with replacement);
 * - casing s: s% of the cased letters (rounded half up), drawn without replacement, upper-cased.
 * Position: `global` draws from the whole prompt, `prefix` from its first half of words (gaps),
 * `suffix` from its second half. The words themselves never change (beyond case), so meaning is
 * preserved by construction. See docs/sago-measures.md#noise.
 */
import { PY_WHITESPACE_CLASS } from '../../../text-measures/python.js';
import { deriveSeed, PyRandom } from '../../../util/random.js';
import type { NoiseSubtype, Variation } from './types.js';

export const SPACING_STRENGTHS = [1, 5, 20, 50, 100] as const;
export const PUNCTUATION_STRENGTHS = [1, 3, 5, 10, 20] as const;
export const CASING_STRENGTHS = [10, 25, 50, 75, 100] as const;
export const NOISE_STRENGTHS: Readonly<Record<NoiseSubtype, readonly number[]>> = {
  spacing: SPACING_STRENGTHS,
  punctuation: PUNCTUATION_STRENGTHS,
  casing: CASING_STRENGTHS,
};
export const NOISE_POSITIONS = ['prefix', 'suffix', 'global'] as const;
export type NoisePosition = (typeof NOISE_POSITIONS)[number];

/** The punctuation pool of docs/method.md, in this order (the order decides which mark a draw picks). */
export const PUNCTUATION_POOL = ['.', ',', '!', "'", '(', ')', '[', ']', ';', ':', '-'] as const;

// Words are split as Python's str.split() splits them, so a Python port segments the same way.
const PY_SPACE = new RegExp(`^[${PY_WHITESPACE_CLASS}]$`);

/** The prompt as alternating segments: gaps[i] precedes words[i]; gaps[n] trails. Code points throughout. */
interface Segmented {
  words: string[][];
  gaps: string[][];
}

function segment(text: string): Segmented {
  const words: string[][] = [];
  const gaps: string[][] = [[]];
  for (const ch of text) {
    if (PY_SPACE.test(ch)) {
      if (words.length === gaps.length) gaps.push([]);
      (gaps[gaps.length - 1] as string[]).push(ch);
    } else {
      if (words.length < gaps.length) words.push([]);
      (words[words.length - 1] as string[]).push(ch);
    }
  }
  if (gaps.length === words.length) gaps.push([]);
  return { words, gaps };
}

function join(s: Segmented): string {
  let out = '';
  for (let i = 0; i < s.words.length; i++)
    out += (s.gaps[i] as string[]).join('') + (s.words[i] as string[]).join('');
  return out + (s.gaps[s.words.length] as string[]).join('');
}

/** Indices of the words a position draws from: first half (rounded up), second half, or all. */
function wordRange(n: number, position: NoisePosition): number[] {
  const half = Math.ceil(n / 2);
  const all = Array.from({ length: n }, (_, i) => i);
  if (position === 'prefix') return all.slice(0, half);
  if (position === 'suffix') return all.slice(n - half);
  return all;
}

/**
 * Inner gaps (between word g and g+1, stored as gaps[g+1]) a position draws from. A prompt of one
 * word has none; then the spaces go at its start (prefix), end (suffix) or both ends (global).
 */
function gapSites(n: number, position: NoisePosition): number[] {
  const inner = Array.from({ length: Math.max(0, n - 1) }, (_, g) => g + 1);
  if (inner.length === 0) {
    if (position === 'prefix') return [0];
    if (position === 'suffix') return [n];
    return [0, n];
  }
  const half = Math.ceil(inner.length / 2);
  if (position === 'prefix') return inner.slice(0, half);
  if (position === 'suffix') return inner.slice(inner.length - half);
  return inner;
}

export function spacingNoise(text: string, strength: number, position: NoisePosition, rng: PyRandom): string {
  const s = segment(text);
  if (s.words.length === 0) return text;
  const sites = gapSites(s.words.length, position);
  for (let k = 0; k < strength; k++) (s.gaps[rng.choice(sites)] as string[]).push(' ');
  return join(s);
}

export function punctuationNoise(
  text: string,
  strength: number,
  position: NoisePosition,
  rng: PyRandom,
): string {
  const s = segment(text);
  if (s.words.length === 0) return text;
  const sites = wordRange(s.words.length, position);
  const before: string[][] = s.words.map(() => []);
  const after: string[][] = s.words.map(() => []);
  for (let k = 0; k < strength; k++) {
    const w = rng.choice(sites);
    const side = rng.random() < 0.5 ? before : after;
    (side[w] as string[]).push(rng.choice(PUNCTUATION_POOL));
  }
  s.words = s.words.map((word, i) => [...(before[i] as string[]), ...word, ...(after[i] as string[])]);
  return join(s);
}

export function casingNoise(text: string, strength: number, position: NoisePosition, rng: PyRandom): string {
  const s = segment(text);
  if (s.words.length === 0) return text;
  const letters: [number, number][] = [];
  for (const w of wordRange(s.words.length, position)) {
    (s.words[w] as string[]).forEach((ch, i) => {
      if (ch.toUpperCase() !== ch.toLowerCase()) letters.push([w, i]);
    });
  }
  const k = Math.floor((strength * letters.length) / 100 + 0.5);
  for (const [w, i] of rng.sample(letters, k)) {
    const word = s.words[w] as string[];
    word[i] = (word[i] as string).toUpperCase();
  }
  return join(s);
}

const APPLY: Readonly<Record<NoiseSubtype, typeof spacingNoise>> = {
  spacing: spacingNoise,
  punctuation: punctuationNoise,
  casing: casingNoise,
};

/** The seed of one noise variation's generator: one stream per (seed, item, subtype, strength, position). */
export function noiseSeed(
  seed: number,
  itemKey: string,
  subtype: NoiseSubtype,
  strength: number,
  position: NoisePosition,
): number {
  return deriveSeed(seed, itemKey, 'noise', subtype, strength, position);
}

export function noiseVariation(
  prompt: string,
  subtype: NoiseSubtype,
  strength: number,
  position: NoisePosition,
  opts: { seed: number; itemKey?: string },
): Variation {
  if (!NOISE_STRENGTHS[subtype].includes(strength)) {
    throw new RangeError(
      `${subtype} strength must be one of ${NOISE_STRENGTHS[subtype].join(', ')}; got ${strength}`,
    );
  }
  const rng = new PyRandom(noiseSeed(opts.seed, opts.itemKey ?? prompt, subtype, strength, position));
  return {
    family: 'noise',
    subtype,
    strength,
    position,
    text: APPLY[subtype](prompt, strength, position, rng),
    generator: 'rules',
    meaningCheck: { method: 'by-construction' },
  };
}

export interface NoiseOptions {
  seed: number;
  /** What identifies the item in the seed; defaults to the prompt text. */
  itemKey?: string;
  subtypes?: readonly NoiseSubtype[];
  positions?: readonly NoisePosition[];
}

/** Every noise variation of `prompt`: subtype x strength x position. */
export function noiseVariations(prompt: string, opts: NoiseOptions): Variation[] {
  const out: Variation[] = [];
  for (const subtype of opts.subtypes ?? (['spacing', 'punctuation', 'casing'] as const)) {
    for (const strength of NOISE_STRENGTHS[subtype]) {
      for (const position of opts.positions ?? NOISE_POSITIONS) {
        out.push(noiseVariation(prompt, subtype, strength, position, opts));
      }
    }
  }
  return out;
}
