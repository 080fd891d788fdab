/**
 * Structural/Format's own scans (suite-scans.ts lists them): an L5 that breaks no sentence
 * mid-line, and a heading that holds a premise (docs/ladder-families.md#f-units, E69).
 */
import type { Scan } from '../../scan-types.js';
import { formatKindLevel } from '../../severity/content-level.js';
import type { LadderTest } from '../../types.js';
import { clearlyHeavier } from './choose.js';
import { readLayout } from './layout-read.js';
import { fenceWraps, L5_MIN_WRAPS, titleLine } from './layouts.js';
import { sentenceClauses } from './units.js';

/**
 * Whether a fenced line of the candidate ends inside a sentence of the original: L5's pasted
 * text, hard-wrapped. A wrap at a clause's comma counts (the sentence goes on on the next line).
 */
export function wrapsMidSentence(original: string, candidate: string): boolean {
  const units = readLayout(original, candidate);
  return units?.some((u) => u.region === 'fence' && !u.endsSentence) === true;
}

/** F L5: a fence (or table) around whole sentences, no more disruptive than L1/L2 (issue 36: gsm-symbolic-94, trivia-2). */
const fL5NoWrap: Scan = {
  id: 'f-l5-no-wrap',
  title: 'F L5: no sentence broken mid-line (a fence or table around whole sentences)',
  check(t) {
    if (t.family !== 'F' || formatKindLevel(t.original, t.text) !== 5) return undefined;
    return wrapsMidSentence(t.original, t.text) ? undefined : 'no line of it breaks a sentence';
  },
};

/**
 * F: a markdown heading over a problem of several sentences that holds a quantity or a long
 * premise (issue 36: gsm-symbolic-55's 17-word premise as an H1). A one-line question as its own
 * heading is fine.
 */
const fHeadingPremise: Scan = {
  id: 'f-heading-premise',
  title: 'F: a heading that holds a premise (a quantity or over 8 words) of a longer problem',
  check(t) {
    if (t.family !== 'F') return undefined;
    const heading = t.text.match(/^\s*#{1,6}\s+(.+)$/m)?.[1];
    if (heading === undefined || sentenceClauses(t.original).length < 2) return undefined;
    return titleLine(heading) ? undefined : `"${heading}" made a heading`;
  },
};

/** The tests of one family, by seed. */
export function bySeed(tests: readonly LadderTest[], family: string): Map<string, LadderTest[]> {
  const out = new Map<string, LadderTest[]>();
  for (const t of tests) if (t.family === family) out.set(t.seedId, [...(out.get(t.seedId) ?? []), t]);
  return out;
}

/**
 * F L5 no heavier than every lower level of the same seed, on the paper's measure or with autojunk
 * off (review v6: arc-challenge-11's fence .021 under its quoted outline's .058, E77; review v8:
 * trivia-24's fence with one wrap, .0427, under its L2 heading's .0435).
 */
const fL5NotHeaviest: Scan = {
  id: 'f-l5-not-heaviest',
  title:
    'F L5: not clearly heavier than every lower level of the same seed (the ladder inverts within a seed)',
  check: () => undefined,
  checkSuite(tests) {
    const hits: { test: LadderTest; why: string }[] = [];
    for (const own of bySeed(tests, 'F').values()) {
      const l5 = own.find((t) => t.measuredLevel === 5);
      const lower = own.find(
        (t) => l5 && (t.measuredLevel ?? 0) < 5 && !clearlyHeavier(l5.original, l5.text, t.text),
      );
      if (l5 && lower)
        hits.push({
          test: l5,
          why: `no heavier than its L${lower.measuredLevel} "${lower.text.slice(0, 40)}..."`,
        });
    }
    return hits;
  },
};

/**
 * The fenced lines of a text: for each fence, its lines, and the width each wrap implies (a line
 * broken before a word that would have fitted on it could not come from one width).
 */
export function unevenWrap(text: string): string | undefined {
  for (const fence of text.match(/^```\n([\s\S]*?)\n```$/gm) ?? []) {
    const lines = fence.split('\n').slice(1, -1);
    const longest = Math.max(...lines.map((l) => l.length));
    for (let i = 0; i + 1 < lines.length; i++) {
      const line = lines[i] as string;
      const next = lines[i + 1] as string;
      // A wrap: the paragraph goes on, no sentence or option ends here.
      if (line === '' || next === '' || /[.?!:]$/.test(line) || /^[A-Z]\. /.test(next)) continue;
      const room = line.length + 1 + (next.split(' ')[0] as string).length;
      // A ragged phrase-by-phrase margin is how people lay out a paste (the default suite: 0.63 and
      // up); a break with room for 40% more is no width at all (arc-challenge-22: 21 beside 57).
      if (room < 0.6 * longest)
        return `"${line}" broken at ${line.length} characters beside a line of ${longest}`;
    }
  }
  return undefined;
}

/** F: one fence wrapped at different widths (review v6: arc-challenge-22's stem at 15 beside 57-character options). */
const fL5UnevenWrap: Scan = {
  id: 'f-l5-uneven-wrap',
  title: 'F: lines of one fence wrapped at different widths (no fixed-width paste breaks so)',
  check(t) {
    return t.family === 'F' ? unevenWrap(t.text) : undefined;
  },
};

/** F L5 of prose (not an option list): a fence whose paragraphs wrap once reads as an ordinary paste (review v8, trivia-24). */
const fL5OneWrap: Scan = {
  id: 'f-l5-one-wrap',
  title: 'F L5: a fence of prose wrapped fewer than twice (an ordinary wrapped paragraph, no L5)',
  check(t) {
    if (t.family !== 'F' || t.measuredLevel !== 5 || t.answerType === 'choice') return undefined;
    const wraps = fenceWraps(t.text);
    return wraps < L5_MIN_WRAPS ? `the fence wraps ${wraps} time(s)` : undefined;
  },
};

export const F_SCANS: readonly Scan[] = [
  fL5NoWrap,
  fHeadingPremise,
  fL5NotHeaviest,
  fL5UnevenWrap,
  fL5OneWrap,
];
