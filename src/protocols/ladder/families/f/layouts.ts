/**
 * Structural/Format's layouts of a problem or question, by level (docs/ladder-families.md#f-units,
 * docs/decisions.md E63; the level of each is its kind, severity/content-level.ts
 * `formatKindLevel`). Every line, list item and quoted line is a whole sentence or clause
 * (units.ts): the blind read rejected breaks
 * mid-phrase at L1 ("between\n\n1988"), width-wrapped nested bullets at L3 ("- has."), " |" at
 * the ends of quoted lines at L4 and tables of fragments at L5 (issue 36). Only a fenced block,
 * pasted text, wraps at a width.
 */
import type { Level } from '../../types.js';
import { sentenceClauses, wordsOf } from './units.js';

export interface Layout {
  text: string;
  /** The kind of layout, recorded as the test's subtype. */
  subtype: string;
}

/** A sentence's line as a bullet, its further clauses as bullets nested under it. */
export function clauseBullets(clauses: readonly string[], bullet = '- ', indent = '  '): string[] {
  const [head, ...rest] = clauses;
  return [`${bullet}${head}`, ...rest.map((c) => `${indent}${bullet}${c}`)];
}

/** A sentence that leans on the one before ("He gets 1 hour free.", "The first paid hour is $15."). */
const LEANS_BACK =
  /^(?:He|She|It|They|His|Her|Its|Their|This|That|These|Those|Each|Every|The|Both|All|Half|Of|Then|Also)\b/;

/**
 * The sentences as an outline: the first at the top, the givens that lean on the one before nested
 * under it (else, none leaning back, every given after the first: the scene, then its facts), the
 * question back at the top; undefined for a problem of one given.
 */
function outline(sentences: readonly string[]): string[] | undefined {
  const question = sentences.at(-1) as string;
  const givens = sentences.slice(0, -1);
  if (givens.length < 2) return undefined;
  const leans = givens.some((s, i) => i > 0 && LEANS_BACK.test(s));
  const nested = (s: string, i: number) => i > 0 && (!leans || LEANS_BACK.test(s));
  return [...givens.map((s, i) => (nested(s, i) ? `  - ${s}` : `- ${s}`)), `- ${question}`];
}

/**
 * Lines of at most `width` characters (a word longer than that on a line of its own), never one
 * opening with a lone capital and a stop ("C."), which would read as an option's letter.
 */
export function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const w of wordsOf(text)) {
    if (line !== '' && line.length + 1 + w.length > width && !/^\(?[A-Z][.)]\)?$/.test(w)) {
      lines.push(line);
      line = w;
    } else line = line === '' ? w : `${line} ${w}`;
  }
  if (line !== '') lines.push(line);
  return lines;
}

/** Fence widths: a mail client's 72 down to a narrow pasted column. */
export const FENCE_WIDTHS = [72, 60, 48, 40, 32];

/**
 * The widths to wrap `sentences` at in a fence, each narrower than the longest sentence, so at
 * least one sentence breaks mid-line: a fence around whole sentences is no L5 (issue 36, E69).
 * A short question (under 32 characters) wraps once, at about two thirds or half its length.
 */
export function fenceWidths(sentences: readonly string[]): number[] {
  const longest = Math.max(0, ...sentences.map((x) => x.length));
  const short = [Math.ceil(longest * 0.7), Math.ceil(longest * 0.55)];
  return [...new Set([...FENCE_WIDTHS, ...short])].filter((w) => w < longest && w >= 8);
}

/**
 * The givens hard-wrapped and the question after a blank line, in a code fence (pasted plain
 * text); undefined when a wrapped paragraph would leave a word alone on a line ("mostly\nof").
 */
export function fencedWrap(givens: readonly string[], question: string, width: number): string | undefined {
  const paragraphs = [givens.join(' '), question].filter((p) => p !== '').map((p) => wrapWords(p, width));
  if (paragraphs.some((p) => p.length > 1 && p.some((l) => !l.includes(' ')))) return undefined;
  return ['```', ...paragraphs.flatMap((p, i) => (i === 0 ? p : ['', ...p])), '```'].join('\n');
}

/** How many times a fence's paragraphs wrap: a fenced line followed by another of the same paragraph. */
export function fenceWraps(text: string): number {
  const body = text.match(/^```\n([\s\S]*?)\n```$/m)?.[1] ?? '';
  const lines = body.split('\n');
  return lines.filter((l, i) => l !== '' && (lines[i + 1] ?? '') !== '').length;
}

/**
 * Fewest wraps an L5 fence of prose needs: one break at normal width reads as an ordinary wrapped
 * paragraph pasted in a block, no heavier than an L2 (review v8, trivia-24).
 */
export const L5_MIN_WRAPS = 2;

type Builder = (s: string[], c: string[][]) => string | undefined;

/** How many widths `fenceWidths` may give: FENCE_WIDTHS and two for a short question. */
export const FENCE_WIDTH_COUNT = FENCE_WIDTHS.length + 2;

/** Most words a title may have (E69). */
const TITLE_WORDS = 8;

/**
 * Whether a problem's first sentence may stand as its heading: a short line with no quantity.
 * A long premise made a title is one a reader may skip (issue 36: "Elise is learning to write and
 * decides to keep re-writing the alphabet until she knows it." as an H1 was rejected).
 */
export function titleLine(sentence: string): boolean {
  return wordsOf(sentence).length <= TITLE_WORDS && !/\d/.test(sentence);
}

/** Each level's builders, by kind; one returning undefined does not fit this text. */
const BUILDERS: Record<Level, [string, Builder][]> = {
  1: [
    // The lightest: a break where a space stood between sentences (the paper's measure puts L1
    // under the same seed's L2-L5, f.test.ts). A lone sentence has none: the runner strips the
    // whitespace around it, and a break inside it is no L1 (issue 36).
    ['line-breaks', (s) => (s.length > 1 ? s.join('\n') : undefined)],
    ['question-apart', (s) => (s.length > 2 ? `${s.slice(0, -1).join(' ')}\n\n${s.at(-1)}` : undefined)],
  ],
  2: [
    [
      'heading',
      (s) =>
        s.length === 1
          ? `# ${s[0]}`
          : titleLine(s[0] as string)
            ? `# ${s[0]}\n\n${s.slice(1).join(' ')}`
            : undefined,
    ],
    [
      'rule-before-question',
      (s) => (s.length > 1 ? `${s.slice(0, -1).join(' ')}\n\n---\n\n${s.at(-1)}` : undefined),
    ],
    ['bullets', (s) => (s.length > 1 ? s.map((x) => `- ${x}`).join('\n') : undefined)],
    ['quote', (s) => s.map((x) => `> ${x}`).join('\n')],
    [
      'bold-question',
      (s) => [...(s.length > 1 ? [s.slice(0, -1).join(' '), ''] : []), `**${s.at(-1)}**`].join('\n'),
    ],
  ],
  3: [
    ['outline', (s) => outline(s)?.join('\n')],
    [
      'clause-bullets',
      (_, c) => (c.some((x) => x.length > 1) ? c.flatMap((x) => clauseBullets(x)).join('\n') : undefined),
    ],
  ],
  4: [
    [
      'quoted-list',
      (s) =>
        s.length > 1
          ? [...s.slice(0, -1).map((x) => `> - ${x}`), '>', `> ${s.at(-1)}`].join('\n')
          : undefined,
    ],
    [
      'quoted-outline',
      (s) =>
        outline(s)
          ?.map((l) => `> ${l}`)
          .join('\n'),
    ],
    [
      'quoted-clauses',
      (_, c) =>
        c.some((x) => x.length > 1)
          ? c
              .flatMap((x) => clauseBullets(x))
              .map((l) => `> ${l}`)
              .join('\n')
          : undefined,
    ],
  ],
  // Only hard-wrapped: a fence around whole sentences reads as L1 plus a fence (issue 36, E69).
  5: Array.from({ length: FENCE_WIDTH_COUNT }, (_, i): [string, Builder] => [
    'fence-wrapped',
    (s) => {
      const w = fenceWidths(s)[i];
      return w === undefined ? undefined : fencedWrap(s.slice(0, -1), s.at(-1) as string, w);
    },
  ]),
};

/** Every layout of `text` at `level`'s kinds, in a fixed order (the caller draws among those that measure there). */
export function proseLayouts(text: string, level: Level): Layout[] {
  const clauses = sentenceClauses(text);
  const sentences = clauses.map((c) => c.join(' '));
  if (sentences.length === 0) return [];
  const out: Layout[] = [];
  for (const [subtype, build] of BUILDERS[level]) {
    const made = build(sentences, clauses);
    if (made !== undefined && made !== text && !out.some((l) => l.text === made))
      out.push({ text: made, subtype });
  }
  return out;
}
