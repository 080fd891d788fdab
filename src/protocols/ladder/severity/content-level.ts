/**
 * Levels from what a test is, not from the measure (issue 36; docs/ladder-measure.md#content-levels,
 * docs/fidelity.md L58): Input Quality by the share of its words altered, Structural/Format by its
 * kind of layout. difflib's ratio with autojunk binned every IQ L2-L5 test of the paper's seeds at L1
 * once autojunk was off, and F's added markup lighter than L1's re-spacing: the measure says how
 * much the characters moved, not what a reader meets. The measure stays the reported magnitude.
 */
import { sequenceMatcherRatio } from '../../../text-measures/difflib.js';
import { whitespaceWords, wordTokens } from '../text/tokens.js';
import type { Level } from '../types.js';

/** The most share of words altered at each level (docs/ladder-families.md#iq-noise): L1 5%, ... L5 32%. */
const NOISE_SHARE: readonly [Level, number][] = [
  [1, 0.05],
  [2, 0.1],
  [3, 0.15],
  [4, 0.22],
  [5, 0.32],
];

/** A lettered option line of a choice item ("B. 42"). */
const OPTION_LINE = /^[A-Z]\. /;

/**
 * Input Quality's level by the share of whitespace words altered: one slip is L1 whatever the
 * length; else the first level whose share it does not pass. Undefined for no word altered, a
 * changed word count, or more than L5's share.
 */
export function contentLevelOfNoise(original: string, candidate: string): Level | undefined {
  // A choice item's options, kept as they are, are not part of what the noise was spread over.
  const kept = new Set(candidate.split('\n').filter((l) => OPTION_LINE.test(l)));
  const stem = (text: string) =>
    text
      .split('\n')
      .filter((l) => !(OPTION_LINE.test(l) && kept.has(l)))
      .join('\n');
  const o = whitespaceWords(stem(original));
  const c = whitespaceWords(stem(candidate));
  if (o.length !== c.length || o.length === 0) return undefined;
  const altered = o.filter((w, i) => c[i] !== w).length;
  if (altered === 0) return undefined;
  if (altered === 1) return 1;
  const share = altered / o.length;
  return NOISE_SHARE.find(([, most]) => share <= most + 1e-9)?.[0];
}

/** Markdown constructs: a heading, a list item, a quote, emphasis, code, a table's divider, a horizontal rule. */
const MARKUP = [
  /^\s*#{1,6}\s/m,
  /^\s*[-*+]\s/m,
  /^\s*>/m,
  /\*\*|__/,
  /`/,
  /\|/,
  /^ {0,3}-{3,}\s*$/m,
] as const;
/** A quote block holding a list ("> - ..."): two constructs nested, as documents nest them. */
const QUOTED_LIST = /^>\s*(?:>\s*)*[-*+] /m;
const added = (re: RegExp, original: string, candidate: string) => re.test(candidate) && !re.test(original);

/**
 * Structural/Format's level by its kind of layout (docs/ladder-families.md#f-units): L1 whitespace
 * only, L2 one device, L3 a nested list, L4 a quote block holding a list, L5 a table or a fenced
 * plain-text block. A markdown construct counts when the original lacks it ("dik-dik" has a
 * hyphen, not a list).
 */
export function formatKindLevel(original: string, candidate: string): Level {
  if (/^\|.*\|\s*$/m.test(candidate) && /^\|\s*:?-{3,}/m.test(candidate)) return 5;
  // A plain-text block in a code fence, the words re-wrapped in it (the default suite's L5).
  if (added(/^```/m, original, candidate)) return 5;
  if (added(QUOTED_LIST, original, candidate)) return 4;
  if (added(/^[ \t]{2,}(?:[-*+]|\d+\.) /m, original, candidate)) return 3;
  return MARKUP.some((m) => added(m, original, candidate)) ? 2 : 1;
}

/** Length of the longest common subsequence of two word lists. */
function commonRun(a: readonly string[], b: readonly string[]): number {
  let prev = new Array<number>(b.length + 1).fill(0);
  for (const x of a) {
    const cur = [0];
    b.forEach((y, j) => {
      cur.push(x === y ? (prev[j] as number) + 1 : Math.max(prev[j + 1] as number, cur[j] as number));
    });
    prev = cur;
  }
  return prev[b.length] as number;
}

/** The share of the original's words a rewrite may drop and still be word swaps (E71). */
const REWORDED_SHARE = 0.25;

/** Sentences, counted by their ends. */
const sentenceCount = (text: string) => (text.match(/[.?!](?=\s|$)/g) ?? []).length;

/** How many words two texts share, each counted as often as both have it (a multiset intersection). */
export function sharedWordCount(a: readonly string[], b: readonly string[]): number {
  const left = new Map<string, number>();
  for (const w of a) left.set(w, (left.get(w) ?? 0) + 1);
  let shared = 0;
  for (const w of b) {
    const n = left.get(w) ?? 0;
    if (n > 0) {
      shared++;
      left.set(w, n - 1);
    }
  }
  return shared;
}

/**
 * Whether a Semantic Variation rewrite restructures, not only swaps words: a sentence merged or
 * split, at least two of the words it keeps moved (a clause or the facts reordered), or a quarter
 * of the original's words reworded. Review v4
 * read three word swaps in place as L1 whatever the measure said (gsm-symbolic-47; E71).
 */
export function restructures(original: string, candidate: string): boolean {
  if (sentenceCount(original) !== sentenceCount(candidate)) return true;
  const a = wordTokens(original);
  const b = wordTokens(candidate);
  const kept = sharedWordCount(a, b);
  // Rewording most of a sentence is a paraphrase at any level, structure kept or not.
  return kept - commonRun(a, b) >= 2 || 1 - kept / Math.max(a.length, 1) >= REWORDED_SHARE;
}

/**
 * The share of words a rewrite changed: 1 - difflib's ratio over the lowercase word tokens with
 * autojunk off (each distinct word one code point). The paper's character ratio turns autojunk on at
 * 200 characters, so kilograms -> kilos three times measured .33 on gsm-symbolic-76 (review v6; E77).
 */
export function wordChange(original: string, candidate: string): number {
  const ids = new Map<string, string>();
  // Private-use code points from U+F0000: one per distinct word, never a real character.
  const encode = (text: string) =>
    wordTokens(text)
      .map((w) => {
        if (!ids.has(w)) ids.set(w, String.fromCodePoint(0xf0000 + ids.size));
        return ids.get(w) as string;
      })
      .join('');
  return 1 - sequenceMatcherRatio(encode(original), encode(candidate), { autojunk: false });
}

/**
 * The least share of words changed at each SV level (E77): chosen from the v6 suite's own
 * distribution (medians L1 .09, L2 .18, L3 .29, L4 .36; gsm-symbolic-76's kilograms -> kilos, .12, read as L1)
 * so each level rewrites more than the one below; the bands do not overlap, so a seed's levels rise strictly.
 * L4's .30 keeps the reviewed default suite's lightest L4 (.309) in its band.
 */
export const REWORDING_BANDS: readonly [Level, number][] = [
  [5, 0.42],
  [4, 0.3],
  [3, 0.24],
  [2, 0.15],
  [1, 0],
];

/** Semantic Variation's level by the share of words it changed; undefined when nothing changed. */
export function contentLevelOfRewording(original: string, candidate: string): Level | undefined {
  const change = wordChange(original, candidate);
  if (change <= 0) return undefined;
  return REWORDING_BANDS.find(([, least]) => change >= least - 1e-9)?.[0];
}

/**
 * How much a layout moved the characters, read as a reader meets them: 1 - difflib's ratio of the
 * lowercased texts with autojunk off (the paper's ratio turns autojunk on at 200 characters, which
 * put a fenced item at .021 beside its own quoted outline's .058, review v6; E77). Structural/Format
 * holds a seed's L5 above its L4 by it.
 */
export function layoutChange(original: string, candidate: string): number {
  return 1 - sequenceMatcherRatio(original.toLowerCase(), candidate.toLowerCase(), { autojunk: false });
}
