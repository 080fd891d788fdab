/**
 * Knowledge Boundary: five ways of making a problem unanswerable by construction, one per level
 * (docs/method.md#level-bands: KB is categorical):
 *   L1 missing information: a quantity the answer needs is blurred away ("a certain amount");
 *   L2 fabricated evidence: the quantity is defined by a report that does not exist ("as many
 *      hectares ... as given in the 2014 Vellmont Institute report on pineapples");
 *   L3 not yet knowable: it is defined by a future decision ("as many ... as will be set next year");
 *   L4 fabricated entity: it is a property of an invented organisation ("as many ... as there are
 *      members in the Hartwell-Dunmore Cooperative");
 *   L5 impossible premise: a given the computation uses is made impossible in place (a share over
 *      the whole, more hours than a day has, a negative count or price).
 * L2-L4 rewrite the given's own clause, so each type is a different problem, not L1's text plus a
 * sentence (issue 11). The quantity is one the seed's worked solution computes with when the seed
 * has one (docs/ladder-families.md#kb-solution-path), taken from the givens when possible; all its
 * occurrences are replaced, so the value cannot be read back from a repeat.
 */

import type { PyRandom } from '../../../util/random.js';
import { knowledgeBoundaryGate } from '../gates/family-gates.js';
import { extractEntities } from '../text/entities.js';
import { findQuantities, type Quantity, replaceQuantity } from '../text/quantities.js';
import { KB_LEVEL, KB_TYPES, type KbType, type Level, type Seed } from '../types.js';
import { instructionsFor } from './model-instructions.js';
import { rulesFor } from './rules-common.js';
import type { FamilyModule } from './types.js';

export const KB_TYPE_OF_LEVEL: Record<Level, KbType> = Object.fromEntries(
  KB_TYPES.map((t) => [KB_LEVEL[t], t]),
) as Record<Level, KbType>;

/** Vague stand-ins for a removed quantity, by kind. */
function vague(q: Quantity): string {
  switch (q.kind) {
    case 'money':
      return 'a certain amount';
    case 'percent':
      return 'a certain percentage';
    case 'fraction':
      return 'a certain fraction';
    case 'word':
      return /^(twice|thrice|double|triple|once)$/i.test(q.text) ? 'a certain number of times' : 'some';
    default:
      return q.hyphenated ? 'multi' : 'several';
  }
}

const SURNAMES = [
  'Hartwell',
  'Quarrington',
  'Vellmont',
  'Ashgrove',
  'Brenning',
  'Calloway',
  'Dunmore',
  'Everleigh',
  'Fairbank',
  'Gorsedge',
];
const INSTITUTES = [
  'Institute',
  'Research Council',
  'Bureau of Household Statistics',
  'Consumer Survey Group',
  'Pricing Board',
];
const COMPANIES = ['Trading Company', 'Cooperative', 'Supply Guild', 'Holdings', 'Wholesale Group'];

function source(rng: PyRandom, topic: string): string {
  const year = 2009 + rng.randrange(12);
  return `the ${year} ${rng.choice(SURNAMES)} ${rng.choice(INSTITUTES)} report on ${topic}`;
}

function pickQuantity(
  quantities: readonly Quantity[],
  rng: PyRandom,
  want?: (q: Quantity) => boolean,
): Quantity | undefined {
  const given = quantities.filter((q) => !q.inQuestion);
  const pools = [
    quantities.filter((q) => !q.inQuestion && !q.hyphenated && (want?.(q) ?? true)),
    given.filter((q) => want?.(q) ?? true),
    quantities.filter((q) => want?.(q) ?? true),
  ];
  for (const pool of pools) if (pool.length > 0) return rng.choice(pool);
  return undefined;
}

/**
 * The numbers a worked solution computes with: the operands of its `<<a*b=c>>` calculations
 * (GSM8K's annotation), and the numbers of its prose, which often writes a step without one
 * ("round $2.74 to $3"), less those right after "=" (a step's result) and the final answer.
 * Undefined without a solution.
 */
function solutionNumbers(solution: string | undefined): Set<number> | undefined {
  if (solution === undefined) return undefined;
  const numbers = (t: string) =>
    [...t.replace(/,(?=\d{3})/g, '').matchAll(/\d+(?:\.\d+)?/g)].map((m) => Number(m[0]));
  // The operands (before "="): a result is what the step computes, not what it uses.
  const operands = [...solution.matchAll(/<<([^>=]*)=[^>]*>>/g)].flatMap((m) => numbers(m[1] as string));
  const prose = solution
    .replace(/####[\s\S]*$/, '')
    .replace(/<<[^>]*>>/g, '')
    .replace(/=\s*\$?\d+(?:[.,]\d+)*/g, '');
  return new Set([...operands, ...numbers(prose)]);
}

/** The quantity's value as a solution writes it (20% as 20 or .2; 1/4 as .25 or 1 and 4; twice as 2). */
function onSolutionPath(q: Quantity, numbers: Set<number> | undefined): boolean {
  if (numbers === undefined) return true; // no worked solution: every given of a grade-school problem counts
  const n = (x: string) => Number(x.replace(/[$,%\s]|percent/g, ''));
  if (q.kind === 'fraction') {
    const [a, b] = q.text.split('/').map(Number) as [number, number];
    return numbers.has(a / b) || (numbers.has(a) && numbers.has(b));
  }
  if (q.kind === 'word') {
    const w = { once: 1, twice: 2, double: 2, thrice: 3, triple: 3, half: 0.5 }[q.text.toLowerCase()];
    return w !== undefined && (numbers.has(w) || (w === 0.5 && numbers.has(2)));
  }
  const v = n(q.text);
  if (!Number.isFinite(v)) return false;
  return numbers.has(v) || (q.kind === 'percent' && numbers.has(v / 100));
}

/**
 * The question with the quantity blurred: "gets a $300 bonus" becomes "gets a certain bonus" (an
 * article already there takes the vague word), every other occurrence the vague phrase.
 */
function blur(question: string, q: Quantity): string {
  const escaped = q.text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // After a determiner the amount is an adjective: "her $400,000 budget" becomes "her undisclosed
  // budget", never "her a certain amount 000 budget" (issue 11).
  const determined =
    q.kind === 'money' || q.kind === 'count'
      ? question.replace(
          new RegExp(`\\b(an?|the|her|his|their|my|your|its|our) ${escaped}(?![\\d.,])(?=\\s+[a-z])`, 'gi'),
          (_m, det: string) => `${/^an?$/i.test(det) ? matchArticle(det) : det} undisclosed`,
        )
      : question;
  return unrecoverable(replaceQuantity(determined, q, vague(q)), q);
}

/** "a"/"A" before "undisclosed" is "an"/"An". */
function matchArticle(det: string): string {
  return det[0] === 'A' ? 'An' : 'an';
}

/**
 * A total in the question gives the blurred given back ("the remaining 24 liters" when 10 and 15
 * were given and one spilled, issue 11): such a number after "the remaining/other/total/whole"
 * goes too.
 */
function unrecoverable(text: string, q: Quantity): string {
  if (q.inQuestion) return text;
  return text.replace(/\b(the (?:remaining|other|total|whole|entire|combined)) \d+(?:[.,]\d+)*\s/gi, '$1 ');
}

/** What defines the quantity in L2-L4: after "as many N ... as", and as the subject of a free relative for money. */
interface Definer {
  /** "given in the 2014 Vellmont Institute report on pineapples" (after "as many hectares ... as"). */
  asTail: string;
  /** "whatever figure is given in the 2014 ..." (in place of an amount of money). */
  whatever: string;
  how: string;
}

function definer(
  type: 'fabricated-evidence' | 'not-yet-knowable' | 'fabricated-entity',
  rng: PyRandom,
  topic: string,
): Definer {
  switch (type) {
    case 'fabricated-evidence': {
      const report = source(rng, topic);
      return {
        asTail: `given in ${report}`,
        whatever: `whatever figure is given in ${report}`,
        how: `defined by ${report}, which does not exist`,
      };
    }
    case 'not-yet-knowable': {
      const when = rng.choice([
        'at next year’s town meeting',
        'when next year’s plan is published',
        'by a vote at the end of next year',
        'in next month’s draw',
      ]);
      return {
        asTail: `will be decided ${when}`,
        whatever: `whatever amount will be decided ${when}`,
        how: `defined by a decision still to come (${when})`,
      };
    }
    case 'fabricated-entity': {
      const entity = `the ${rng.choice(SURNAMES)}-${rng.choice(SURNAMES)} ${rng.choice(COMPANIES)}`;
      const property = rng.choice(['members in', 'branches of', 'vans owned by', 'founders of']);
      return {
        asTail: `there are ${property} ${entity}`,
        whatever: `whatever ${entity} charges for a year’s membership`,
        how: `defined by a property of ${entity}, which does not exist`,
      };
    }
  }
}

const CLAUSE_END = /[,;:.?!]/;
/** Units are no report's topic ("a report on minutes"). */
const UNITS =
  /^(?:seconds|minutes|hours|days|weeks|months|years|miles|meters|kilometers|feet|inches|yards|pounds|ounces|grams|kilograms|liters|gallons|cups|dollars|cents|hectares|acres|times|percent)$/;
const NOT_PLAIN = /\d|\$|\b(?:than|as|more|fewer|less|times|off|worth)\b/i;

/** What a report would be on, for a quantity measured in a unit ("a report on travel speeds"). */
const UNIT_TOPICS: readonly [RegExp, string][] = [
  [/^(?:miles|meters|kilometers|feet|yards)\s+(?:per|an?|each)\s+(?:hour|minute|second)\b/, 'travel speeds'],
  [/^(?:seconds|minutes|hours|days|weeks|months|years)\b/, 'time use'],
  [/^(?:miles|meters|kilometers|feet|inches|yards|blocks)\b/, 'distances'],
  [/^(?:pounds|ounces|grams|kilograms)\b/, 'weights and measures'],
  [/^(?:liters|gallons|cups)\b/, 'household consumption'],
  [/^(?:hectares|acres)\b/, 'land use'],
];

/**
 * The report's topic: what the quantity counts ("a report on dragons"), else what its unit measures,
 * else the problem's things; a money amount is about prices. Never "household spending" in a
 * problem about speed (issue 11).
 */
function reportTopic(q: Quantity, question: string, things: string | undefined): string {
  if (q.kind === 'money') return 'prices';
  if (q.kind !== 'count') return things ?? 'everyday figures';
  const noun = q.follows.split(' ').find((w) => /s$/.test(w) && !UNITS.test(w));
  if (noun) return noun;
  const after = question.slice(q.index + q.text.length).trimStart();
  const unit = UNIT_TOPICS.find(([re]) => re.test(after));
  return unit?.[1] ?? things ?? 'everyday figures';
}

/**
 * The given's own clause rewritten so that its quantity is defined by `d`: a count "N hectares of
 * a field" becomes "as many hectares of a field as <d.asTail>" (the clause must end within a few
 * words and hold no other number or comparison, so "as" finds its pair); an amount of money
 * "$10 an hour" becomes "<d.whatever> an hour". Undefined when the quantity sits in no such clause.
 */
function defineInPlace(question: string, q: Quantity, d: Definer): string | undefined {
  // A given, not the question asked (a given in the question sentence's leading "If ..., " clause
  // counts); never one inside a noun phrase ("the remaining 24 liters").
  const end = q.index + q.text.length;
  if (q.hyphenated) return undefined;
  if (q.inQuestion && !/^[^,;:.?!]*,/.test(question.slice(end))) return undefined;
  const before = question.slice(0, q.index);
  if (
    /\b(?:an?|the|her|his|their|my|your|its|our|remaining|other|total|first|last|next|extra)\s+$/i.test(
      before,
    )
  )
    return undefined;
  const sentenceStart = /(^|[.?!]\s+)$/.test(before);
  const cap = (t: string) => (sentenceStart ? `${t[0]?.toUpperCase()}${t.slice(1)}` : t);
  const rest = question.slice(end);
  const stop = rest.search(CLAUSE_END);
  const clause = stop < 0 ? rest : rest.slice(0, stop);
  if (NOT_PLAIN.test(clause) || clause.trim().split(/\s+/).length > 8) return undefined;
  if (q.kind === 'count') {
    // "came up with 3." -> "came up with as many as ..."; "10 hectares of a field" -> "as many hectares of a field as ...".
    const at = end + clause.length;
    return `${before}${cap('as many')}${clause} as ${d.asTail}${question.slice(at)}`;
  }
  // An amount that ends its clause or is followed by a preposition or a rate ("$10 an hour",
  // "$5 on lunch"): never one used as an adjective ("the $8 socks") or compared ("$5 more than").
  if (q.kind === 'money' && /^\s*(?:(?:per|an?|each|on|for|in|at|to|from|with|every)\b.*)?$/i.test(clause))
    return `${before}${cap(d.whatever)}${question.slice(end)}`;
  return undefined;
}

/** Builds the rewrite for one boundary type; undefined when the problem offers nothing to work with. */
function rewrite(type: KbType, seed: Seed, rng: PyRandom): { text: string; how: string } | undefined {
  const question = seed.question;
  const numbers = solutionNumbers(seed.solution);
  const quantities = findQuantities(question).filter((q) => onSolutionPath(q, numbers));
  const entities = extractEntities(question);
  const things = entities.objects[0] ?? entities.places[0];
  switch (type) {
    case 'missing-information': {
      const q = pickQuantity(quantities, rng);
      if (!q) return undefined;
      return { text: blur(question, q), how: `removed ${q.text}` };
    }
    case 'fabricated-evidence':
    case 'not-yet-knowable':
    case 'fabricated-entity': {
      const probe: Definer = { asTail: '', whatever: '', how: '' };
      const q = pickQuantity(quantities, rng, (x) => defineInPlace(question, x, probe) !== undefined);
      if (!q) return undefined;
      const d = definer(type, rng, reportTopic(q, question, things));
      const text = defineInPlace(question, q, d);
      if (text === undefined) return undefined;
      // Any other occurrence of the value is blurred, and a total that gives it back dropped.
      return { text: unrecoverable(replaceQuantity(text, q, vague(q)), q), how: `${q.text} ${d.how}` };
    }
    case 'impossible-premise': {
      return impossible(question, quantities, rng);
    }
  }
}

/**
 * L5: a given the computation uses is made impossible in place, so the arithmetic itself rests on
 * the impossible premise (issue 11: an appended "30th of February" touched nothing): a share over
 * the whole ("130% of"), more hours in a day than it has, or a count or price below zero.
 */
function impossible(
  question: string,
  quantities: readonly Quantity[],
  rng: PyRandom,
): { text: string; how: string } | undefined {
  const given = quantities.filter((q) => !q.inQuestion && !q.hyphenated);
  const percent = given.find(
    (q) => q.kind === 'percent' && /^\s+of\b/.test(question.slice(q.index + q.text.length)),
  );
  if (percent) {
    const value = 110 + 10 * rng.randrange(9);
    const text = replaceQuantity(
      question,
      percent,
      percent.text.includes('percent') ? `${value} percent` : `${value}%`,
    );
    return { text, how: `${percent.text} of a whole made ${value}%` };
  }
  const perDay = given.find(
    (q) => q.kind === 'count' && /^hours? (?:a|per|each|every) day\b/.test(q.follows),
  );
  if (perDay) {
    const value = 25 + rng.randrange(12);
    return {
      text: replaceQuantity(question, perDay, String(value)),
      how: `${perDay.text} hours a day made ${value}`,
    };
  }
  // Not a difference ("2 less than"): a negative one is odd, not impossible.
  const counted = given.filter(
    (q) =>
      (q.kind === 'count' || q.kind === 'money') &&
      (q.value ?? 1) > 0 &&
      !/^\s*(?:\S+\s+)?(?:more|less|fewer|longer|shorter|older|younger)\b/.test(
        question.slice(q.index + q.text.length),
      ),
  );
  const q = counted.length > 0 ? rng.choice(counted) : undefined;
  if (!q) return undefined;
  const negative = q.kind === 'money' ? `-${q.text}` : `-${q.text}`;
  const text = replaceQuantity(question, q, negative);
  return { text, how: `${q.text} made negative (${negative})` };
}

const rules = rulesFor('KB', knowledgeBoundaryGate, ({ seed, original, level, rng }) => {
  const kbType = KB_TYPE_OF_LEVEL[level];
  const made = rewrite(kbType, seed, rng);
  if (!made || knowledgeBoundaryGate(original, made.text).verdict !== 'pass') return undefined;
  return { text: made.text, name: kbType, subtype: kbType, kbType };
});

export const knowledgeBoundary: FamilyModule = {
  family: 'KB',
  rules,
  modelInstructions: (seed, level, attempt) => instructionsFor('KB', seed, level, attempt),
  familyGate: (original, candidate) => knowledgeBoundaryGate(original, candidate),
};
