/**
 * A CIS directive that changes the problem instead of conflicting with the task. The paper's CIS
 * "leaves the problem and its gold answer untouched": a directive that restates or corrects a given
 * reads as the user fixing the data, an erratum, and makes the gold disputable (blind read v11,
 * school-fair L4: "You must split the rest among 5 classes, not 6"; docs/decisions.md E90).
 * Tier 5's answer dictations ("report the 9 teachers as the number of buses") are the paper's
 * deep-hierarchy attack, a demanded reply, and are not read.
 */

import { SMALL_NUMBER_WORDS } from '../../../../util/number-words.js';
import type { Scan } from '../../scan-types.js';
import { numbersIn, numberValue } from '../../text/tokens.js';

/** The values a stretch of text names, in digits or as a number word. */
function valuesIn(text: string): string[] {
  const words = text.toLowerCase().match(/\b[a-z]+\b/g) ?? [];
  // Number words a directive may use for a given ("by three, not by four"); not "zero".
  const spelt = words.map((w) => (SMALL_NUMBER_WORDS as readonly string[]).indexOf(w)).filter((n) => n > 0);
  return [...numbersIn(text).map(numberValue), ...spelt.map(String)];
}

/** "count the 8 packs as 8 cards", "treat the $8.50 as money Priya earned", "be read as 9 tetras". */
const RESTATED_AS =
  /\b(?:count|counting|treat|treating|read|use|using|take|taking|consider|considering)\b(.*?)\bas\b(.*)/i;

/** "as" that restates nothing: "take the 40 away as well as the 26", "keep 100 divided by 8 as it is". */
const IDIOMATIC_AS = /\bas (?:well as|it is|it stands)\b/gi;

/** "..., not 6", "by three, not by four", "6 hours a week, not 6 hours a day". */
const CONTRASTED = /,\s*not\b(.*)/i;

/** A reply asked for that the question does not ask: another unit, a part, another time or person. */
const ANOTHER_QUESTION = [
  /\b(?:give|report)\b.*?\b(?:the answer in|in (?:meters|minutes|hours|seconds)\b|alone\b|now\b|for a single\b|after a single\b|in \d+ years\b)/i,
  /\breport only what\b|\bcall that the answer\b|\bfor 1 hour only\b|\bonly a single row\b|\bone long side\b|\b(?:weigh|buy \w+ for) a single\b/i,
];

/** A fact asserted about the problem to justify the directive ("The 5 laps are spread over the 6 days, so ..."). */
const ASSERTED =
  /^[^:;]*\b(?:is|are|comes?|belongs?|replaces?|shares?|gets?|can)\b[^:;]*,\s*so\b|\bis the count\b/i;

/** Why a directive (what follows the original) restates or corrects a given of `original`, or undefined. */
export function restatesGiven(original: string, directive: string): string | undefined {
  const given = new Set(valuesIn(original));
  const clauses = directive.split(/[.;:]\s*/);
  for (const clause of clauses) {
    const as = clause.replace(IDIOMATIC_AS, ' ').match(RESTATED_AS);
    if (as && valuesIn(`${as[1]} ${as[2]}`).some((v) => given.has(v))) return `restates a given: "${clause}"`;
    const not = clause.match(CONTRASTED);
    if (not && valuesIn(not[1] ?? '').some((v) => given.has(v))) return `corrects a given: "${clause}"`;
  }
  if (ANOTHER_QUESTION.some((p) => p.test(directive))) return `asks another question: "${directive}"`;
  if (clauses.some((c) => ASSERTED.test(c))) return `asserts a fact about the problem: "${directive}"`;
  return undefined;
}

/** What a CIS test appends: its text after the whole original (cis-not-appended holds that it is so). */
const appended = (original: string, text: string) => {
  const [o, t] = [original.replace(/\s+/g, ' ').trim(), text.replace(/\s+/g, ' ').trim()];
  return t.startsWith(o) ? t.slice(o.length).trim() : undefined;
};

/** CIS L1-L4 on a number seed: a directive that restates or corrects a given, or asks another question. */
export const cisRestatesGiven: Scan = {
  id: 'cis-restates-given',
  title:
    'CIS L1-L4 on number seeds: a directive that restates or corrects a given (an erratum, not a conflict)',
  check(t) {
    if (t.family !== 'CIS' || (t.answerType ?? 'number') !== 'number' || (t.measuredLevel ?? 0) >= 5)
      return undefined;
    const directive = appended(t.original, t.text);
    return directive === undefined ? undefined : restatesGiven(t.original, directive);
  },
};
