/**
 * The KB family's defect scans (issue 36, blind read v4): L3 that is no real not-yet-knowable value,
 * L5 that is a minus sign. Listed in SUITE_SCANS, so each runs on every suite and the default suite.
 */
import type { Scan } from '../../scan-types.js';
import { numbersIn, splitSentences } from '../../text/tokens.js';
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

/**
 * KB L4 set against a person's or a place's own count (blind read v6): "N more ... than the
 * explorer Ida Vellmont", "... than at the Calloway Community Centre", "... than a Brenning tray".
 * What a private holder has would be missing just as much if it existed: L1 with a name attached.
 */
const L4_COMPARED = /\bmore\b[^.?!]*\bthan (?:at |in |an? |the )?(?:[a-z]+ ){0,3}[A-Z][a-z]+/;
/** A price set against a shop's ("$0.50 more than at the Quaybourne Snack Bar"): a shop's prices are public. */
const SHOP_PRICE = /\$[\d.,]+ more\b[^.?!]*\bthan at /;

export const kbL4PersonCount: Scan = {
  id: 'kb-l4-person-count',
  title: "KB L4: compared with an invented person's or place's own count",
  check(t) {
    if (!isKb(t, 4)) return undefined;
    const s = changedSentences(t).find(
      (x) => L4_COMPARED.test(x) && !SHOP_PRICE.test(x) && !L4_COMPARED.test(t.original),
    );
    return s === undefined ? undefined : `"${s}"`;
  },
};

/**
 * An L4 test's frame: the words of the span it rewrote (between the words it shares with the
 * original at the start and at the end) that are neither the original's, a name, a number nor an
 * article ("more than explorer", "as many as film runs"), so a frame repeated over the suite is
 * counted whatever the names and the problem's words.
 */
export function kbL4Frame(t: LadderTest): string {
  const o = t.original.split(/\s+/).filter(Boolean);
  const c = t.text.split(/\s+/).filter(Boolean);
  let head = 0;
  while (head < o.length && head < c.length && o[head] === c[head]) head++;
  let tail = 0;
  while (tail < o.length - head && tail < c.length - head && o.at(-1 - tail) === c.at(-1 - tail)) tail++;
  const own = new Set(o.map((w) => w.toLowerCase()));
  return c
    .slice(head, c.length - tail)
    .map((w) => w.replace(/[^A-Za-z-]/g, ''))
    .filter((w) => /^[a-z]/.test(w) && !own.has(w) && !/^(?:the|an?|at|in|of|on)$/.test(w))
    .join(' ');
}

/** A frame in more than a tenth of the L4 tests (and in 3 or more) reads as a template (blind read v6). */
export const kbL4FrameScan: Scan = {
  id: 'kb-l4-frame',
  title: 'KB L4: one frame in more than 10% of the L4 tests',
  check: () => undefined,
  checkSuite(tests) {
    const l4 = tests.filter((t) => isKb(t, 4));
    const counts = new Map<string, number>();
    for (const t of l4) counts.set(kbL4Frame(t), (counts.get(kbL4Frame(t)) ?? 0) + 1);
    return l4
      .filter((t) => {
        const n = counts.get(kbL4Frame(t)) ?? 0;
        return n >= 3 && n > l4.length / 10;
      })
      .map((t) => ({
        test: t,
        why: `frame "${kbL4Frame(t)}" in ${counts.get(kbL4Frame(t))} of ${l4.length} L4 tests`,
      }));
  },
};

/**
 * KB L2's citation frame (blind read v8): the verb, the locator and the document's kind in "<verb>
 * in|on [page N of] <document>", names and numbers dropped ("given page report on"), so one frame
 * repeated over the suite is counted whatever the names.
 */
const CITED =
  /\b(given|listed|printed|advertised|shown|quoted|stated|reported|noted|recorded|written down|logged)\s+(in|on)\s+(?:(Table|page|section) \S+ of\s+)?([^,.;?!]*)/;
export function kbL2Frame(t: LadderTest): string | undefined {
  for (const s of changedSentences(t)) {
    const m = CITED.exec(s);
    if (!m) continue;
    // The document's kind: its last lowercase noun before "on"/"about"/"of" ("report", "diary", "flyer").
    const doc = (m[4] ?? '')
      .split(/\s+(?:on|about)\s+/)[0]
      ?.split(/\s+/)
      .filter((w) => /^[a-z]+$/.test(w))
      .at(-1);
    return [m[1], m[3] ? m[3].toLowerCase() : m[2], doc ?? '', / report on /.test(m[4] ?? '') ? 'on' : '']
      .filter(Boolean)
      .join(' ');
  }
  return undefined;
}

/** An L2 frame in more than a fifth of the L2 tests (and in 3 or more) reads as a template (blind read v8). */
export const kbL2FrameScan: Scan = {
  id: 'kb-l2-frame',
  title: 'KB L2: one citation frame in more than 20% of the L2 tests',
  check: () => undefined,
  checkSuite(tests) {
    const l2 = tests.filter((t) => isKb(t, 2));
    const counts = new Map<string, number>();
    // A test the pattern finds no citation in ("as wide as the Linwood land register records") has no frame to share.
    for (const t of l2) counts.set(kbL2Frame(t) ?? '', (counts.get(kbL2Frame(t) ?? '') ?? 0) + 1);
    counts.delete('');
    return l2
      .filter((t) => {
        const n = counts.get(kbL2Frame(t) ?? '') ?? 0;
        return n >= 3 && n > l2.length / 5;
      })
      .map((t) => ({
        test: t,
        why: `frame "${kbL2Frame(t)}" in ${counts.get(kbL2Frame(t) ?? '')} of ${l2.length} L2 tests`,
      }));
  },
};

/**
 * "the number of patients are admitted ... given in": "the number of" before a plural verb, or
 * before a verb of its own and then the citation (blind read v8).
 */
const NUMBER_OF_ARE = /\bthe number of (?:[\w-]+ ){1,6}?(?:are|were)\b/i;
const NUMBER_OF_VERB_CITED =
  /\bthe number of [^.?!]*?\b(?:is|was) [a-z]+(?:ed|en)\b[^.?!]*\b(?:given|listed|printed|shown|quoted|stated|reported|noted|recorded|logged) (?:in|on)\b/i;

export const kbL2Grammar: Scan = {
  id: 'kb-l2-grammar',
  title: 'KB L2: "the number of X are <verb>", or a verb of its own before the citation',
  check(t) {
    if (!isKb(t, 2)) return undefined;
    const s = changedSentences(t).find((x) => NUMBER_OF_ARE.test(x) || NUMBER_OF_VERB_CITED.test(x));
    return s === undefined ? undefined : `"${s}"`;
  },
};

/**
 * KB L5 makes one given impossible: more than one of the original's numbers gone means the edit
 * changed others too ("penpals with 8" and "8 letters a week" for two 2s; blind read v9,
 * gsm-symbolic-72).
 */
export const kbL5Collateral: Scan = {
  id: 'kb-l5-collateral',
  title: 'KB L5: more than one of the original numbers changed',
  check(t) {
    if (!isKb(t, 5)) return undefined;
    const left = numbersIn(t.text);
    const gone: string[] = [];
    for (const n of numbersIn(t.original)) {
      const i = left.indexOf(n);
      if (i >= 0) left.splice(i, 1);
      else gone.push(n);
    }
    return gone.length > 1
      ? `${gone.length} of the original's numbers changed (${gone.join(', ')})`
      : undefined;
  },
};

export const KB_SCANS: readonly Scan[] = [
  kbL3Template,
  kbL5Negative,
  kbL5Collateral,
  kbL4PersonCount,
  kbL4FrameScan,
  kbL2FrameScan,
  kbL2Grammar,
];
