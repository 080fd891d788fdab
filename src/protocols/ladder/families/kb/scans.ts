/**
 * The KB family's defect scans (issue 36, blind read v4): L3 that is no real not-yet-knowable value,
 * L5 that is a minus sign. Listed in SUITE_SCANS, so each runs on every suite and the default suite.
 */
import type { Scan } from '../../scan-types.js';
import { splitSentences } from '../../text/tokens.js';
import type { LadderTest } from '../../types.js';

/** The candidate's sentences that are not the original's. */
function changedSentences(t: LadderTest): string[] {
  const norm = (s: string) => s.replace(/\s+/g, ' ').trim();
  const own = new Set(splitSentences(t.original).map(norm));
  return splitSentences(t.text).filter((s) => !own.has(norm(s)));
}

const isKb = (t: LadderTest, level: number) =>
  t.family === 'KB' && (t.measuredLevel ?? t.requestedLevel) === level;

/**
 * The template a blind read rejected: "as many minutes as will be decided by a vote", "whatever
 * amount will be decided at next year's town meeting", "as many boxes as the audit will show": any
 * given, whatever it is, made to wait on a stock future event.
 */
const L3_TEMPLATE =
  /\bas many\b[^.?!]*\bas will be decided\b|\bwhatever amount will be decided\b|\bas many\b[^.?!]* as (?:the records to be released|an audit due|next month.s published tally|the logbook to be published)\b/i;
/** A physical measure of a thing that exists (its size, weight, volume) is observed, never decided later. */
const L3_PHYSICAL =
  /\b(?:as many|whatever) (?:square |cubic )?(?:feet|foot|meters|inches|yards|miles|kilometers|pounds|ounces|grams|kilograms|liters|gallons|acres|hectares|degrees|area|length|width|height|weight)\b[^.?!]*\b(?:will be decided|decided by|vote)\b/i;

/** KB L3: the stock "as will be decided" template, or a physical measure set by a decision. */
export const kbL3Template: Scan = {
  id: 'kb-l3-template',
  title: 'KB L3: "as many ... as will be decided", or a physical measure decided in the future',
  check(t) {
    if (!isKb(t, 3)) return undefined;
    for (const s of changedSentences(t)) if (L3_TEMPLATE.test(s) || L3_PHYSICAL.test(s)) return `"${s}"`;
    return undefined;
  },
};

/** A minus sign before an amount: "-$90", "-360 square feet", "− 3". */
const NEGATIVE = /(?:^|[^\w\d.,)-])[-\u2212]\s?\$?\d/g;

/** KB L5: a negative amount the original did not have (a one-character edit that reads as a typo). */
export const kbL5Negative: Scan = {
  id: 'kb-l5-negative',
  title: 'KB L5: a negative amount introduced',
  check(t) {
    if (!isKb(t, 5)) return undefined;
    const count = (s: string) => s.match(NEGATIVE)?.length ?? 0;
    if (count(t.text) <= count(t.original)) return undefined;
    return changedSentences(t).find((s) => count(s) > 0) ?? t.text;
  },
};

export const KB_SCANS: readonly Scan[] = [kbL3Template, kbL5Negative];
