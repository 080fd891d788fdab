/**
 * The SAGO authors' surface mirroring detectors (their published thresholds, docs/sago-measures.md
 * #mirroring): each compares the response to a varied prompt with the response to the original
 * one and fires when the varied response has clearly more of the noise than the original, by a
 * count and by a rate per 100 characters that both rise with the variation's strength. So m is a
 * property of a pair: m(y, v) for the baseline response itself is detect(y, y) = 0.
 *
 * Python semantics are kept where they change a count: `len` counts code points, `\w` and
 * `isalpha` are Unicode-aware, and `str.isupper` / `str.islower` follow CPython (a string is upper
 * case when it has a cased character and no lower- or title-case one).
 */

/** A rule's verdict and, in words, what it measured against which threshold. */
export interface ReferenceVerdict {
  mirrored: boolean;
  evidence: string;
}

export type ReferenceNoiseSubtype = 'spacing' | 'punctuation' | 'casing';

/** Count and rate (per 100 characters) thresholds by strength band, as published. */
interface Band {
  maxStrength: number;
  increase: number;
  rate: number;
}

export const SPACING_BANDS: readonly Band[] = [
  { maxStrength: 20, increase: 3, rate: 5 },
  { maxStrength: 50, increase: 5, rate: 8 },
  { maxStrength: Number.POSITIVE_INFINITY, increase: 10, rate: 12 },
];

export const PUNCTUATION_BANDS: readonly Band[] = [
  { maxStrength: 5, increase: 2, rate: 3 },
  { maxStrength: 10, increase: 4, rate: 5 },
  { maxStrength: Number.POSITIVE_INFINITY, increase: 6, rate: 8 },
];

/** Case: the abnormal share must rise by this many percentage points and reach the band's share. */
export const CASE_INCREASE_POINTS = 5;
export const CASE_BANDS: readonly { maxStrength: number; share: number }[] = [
  { maxStrength: 25, share: 8 },
  { maxStrength: 50, share: 15 },
  { maxStrength: Number.POSITIVE_INFINITY, share: 25 },
];

/** Python's len(): code points, not UTF-16 units. */
function pyLen(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

function sumOfRuns(text: string, run: RegExp, keep: number): number {
  let n = 0;
  for (const m of text.matchAll(run)) n += m[0].length - keep;
  return n;
}

/** Spaces beyond single spacing: each run of 2+ ASCII spaces adds its length - 1. */
export function countExtraSpaces(text: string): number {
  return sumOfRuns(text, / {2,}/g, 1);
}

/** Repeated marks beyond normal use: `!!`, `??`, `,,`, `;;` add length - 1; a run of 4+ dots adds length - 3. */
export function countExtraPunctuation(text: string): number {
  return (
    sumOfRuns(text, /!{2,}/g, 1) +
    sumOfRuns(text, /\?{2,}/g, 1) +
    sumOfRuns(text, /\.{4,}/g, 3) +
    sumOfRuns(text, /,{2,}/g, 1) +
    sumOfRuns(text, /;{2,}/g, 1)
  );
}

const UPPER = /\p{Uppercase}/u;
const LOWER = /\p{Lowercase}/u;
const TITLE = /\p{Lt}/u;
const ALPHA = /\p{L}/u;

/** CPython's str.isupper(). */
export function pyIsUpper(s: string): boolean {
  let cased = false;
  for (const ch of s) {
    if (LOWER.test(ch) || TITLE.test(ch)) return false;
    if (!cased && UPPER.test(ch)) cased = true;
  }
  return cased;
}

/** CPython's str.islower(). */
export function pyIsLower(s: string): boolean {
  let cased = false;
  for (const ch of s) {
    if (UPPER.test(ch) || TITLE.test(ch)) return false;
    if (!cased && LOWER.test(ch)) cased = true;
  }
  return cased;
}

/** Python's `re.findall(r'\b\w+\b', text)`: maximal runs of Unicode word characters. */
export function pyWords(text: string): string[] {
  return text.match(/[\p{L}\p{N}_]+/gu) ?? [];
}

/**
 * Abnormal casing of a word: all capitals over four letters, or upper and lower mixed other than
 * Title case. Acronyms up to four letters, Title case and lower case are normal.
 */
export function isAbnormalCaseWord(word: string): boolean {
  const chars = [...word];
  if (chars.length <= 1) return false;
  const letters = chars.filter((c) => ALPHA.test(c));
  if (letters.length <= 1) return false;
  const upper = pyIsUpper(word);
  if (upper && letters.length > 4) return true;
  if (pyIsUpper(chars[0] as string) && pyIsLower(chars.slice(1).join(''))) return false;
  if (pyIsLower(word)) return false;
  if (upper) return false;
  const upperCount = letters.filter((c) => pyIsUpper(c)).length;
  const lowerCount = letters.filter((c) => pyIsLower(c)).length;
  return upperCount > 0 && lowerCount > 0;
}

/** Letters in abnormally cased words, and all letters of the text's words. */
export function countAbnormalCase(text: string): { abnormal: number; letters: number } {
  let abnormal = 0;
  let letters = 0;
  for (const word of pyWords(text)) {
    const n = [...word].filter((c) => ALPHA.test(c)).length;
    if (n === 0) continue;
    letters += n;
    if (isAbnormalCaseWord(word)) abnormal += n;
  }
  return { abnormal, letters };
}

function band<T extends { maxStrength: number }>(bands: readonly T[], strength: number): T {
  return bands.find((b) => strength <= b.maxStrength) as T;
}

function countDetector(
  name: string,
  count: (text: string) => number,
  bands: readonly Band[],
  original: string,
  varied: string,
  strength: number,
): ReferenceVerdict {
  const before = count(original);
  const after = count(varied);
  const rate = (after / Math.max(pyLen(varied), 1)) * 100;
  const b = band(bands, strength);
  const increase = after - before;
  return {
    mirrored: increase >= b.increase && rate >= b.rate,
    evidence: `${name} (reference rule): ${after} extra in the varied response vs ${before} in the original (increase ${increase}, needs ${b.increase}); ${rate.toFixed(2)} per 100 characters (needs ${b.rate}) at strength ${strength}`,
  };
}

/** The authors' rule for one noise subtype: does `varied` mirror the noise, compared with `original`? */
export function referenceMirroring(
  subtype: ReferenceNoiseSubtype,
  original: string,
  varied: string,
  strength: number,
): ReferenceVerdict {
  if (subtype === 'spacing')
    return countDetector('spacing', countExtraSpaces, SPACING_BANDS, original, varied, strength);
  if (subtype === 'punctuation')
    return countDetector('punctuation', countExtraPunctuation, PUNCTUATION_BANDS, original, varied, strength);
  const o = countAbnormalCase(original);
  const v = countAbnormalCase(varied);
  const before = (o.abnormal / Math.max(o.letters, 1)) * 100;
  const after = (v.abnormal / Math.max(v.letters, 1)) * 100;
  const share = band(CASE_BANDS, strength).share;
  return {
    mirrored: after - before >= CASE_INCREASE_POINTS && after >= share,
    evidence: `case (reference rule): ${after.toFixed(2)}% abnormally cased letters vs ${before.toFixed(2)}% in the original (needs +${CASE_INCREASE_POINTS} points and ${share}%) at strength ${strength}`,
  };
}
