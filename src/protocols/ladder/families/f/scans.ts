/**
 * Structural/Format's own scans (suite-scans.ts lists them): an L5 that breaks no sentence
 * mid-line, and a heading that holds a premise (docs/ladder-families.md#f-units, E69).
 */
import type { Scan } from '../../scan-types.js';
import { formatKindLevel } from '../../severity/content-level.js';
import { readLayout } from './layout-read.js';
import { titleLine } from './layouts.js';
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

export const F_SCANS: readonly Scan[] = [fL5NoWrap, fHeadingPremise];
