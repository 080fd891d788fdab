/**
 * Levels from what a test is, not from the measure (issue 36; docs/ladder-measure.md#content-levels,
 * docs/fidelity.md L58): Input Quality by the share of its words altered, Structural/Format by its
 * kind of layout. difflib's ratio with autojunk binned every IQ L2-L5 test of the paper's seeds at L1
 * once autojunk was off, and F's added markup lighter than L1's re-spacing: the measure says how
 * much the characters moved, not what a reader meets. The measure stays the reported magnitude.
 */
import { whitespaceWords } from '../text/tokens.js';
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
