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
 * sentence. The quantity is one the seed's worked solution computes with when the seed
 * has one (docs/ladder-families.md#kb-solution-path), taken from the givens when possible; all its
 * occurrences are replaced, so the value cannot be read back from a repeat.
 */

import type { PyRandom } from '../../../util/random.js';
import { knowledgeBoundaryGate } from '../gates/family-gates.js';
import { extractEntities } from '../text/entities.js';
import { analyse } from '../text/morphology.js';
import { findQuantities, type Quantity, replaceQuantity } from '../text/quantities.js';
import { LEX_FILE, synsets } from '../text/wordnet.js';
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
  // budget", never "her a certain amount 000 budget".
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
 * were given and one spilled): such a number after "the remaining/other/total/whole"
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
 * problem about speed.
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
function rewrite(
  type: KbType,
  seed: Seed,
  rng: PyRandom,
): { text: string; how: string; name?: string } | undefined {
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
      const made = impossible(question, quantities, seed.solution, rng);
      return made && { text: made.text, how: made.how, name: `impossible-premise-${made.kind}` };
    }
  }
}

/** The kinds of impossible premise L5 makes (at least four, none over 40% of the type). */
export type ImpossibleKind = 'over-whole' | 'time' | 'physical' | 'more-taken' | 'contradiction' | 'negative';

interface Impossible {
  text: string;
  how: string;
  kind: ImpossibleKind;
}

/** A count's unit per period, and the most the period holds: "25 hours a day" cannot be. */
const PERIODS: readonly { unit: RegExp; most: number; name: string }[] = [
  { unit: /^-?\s*hours? (?:\w+ ){0,2}(?:a|per|each|every) (?:day|night)\b/, most: 24, name: 'hours a day' },
  { unit: /^-?\s*hours? (?:\w+ ){0,2}(?:a|per|each|every) week\b/, most: 168, name: 'hours a week' },
  { unit: /^-?\s*days? (?:\w+ ){0,2}(?:a|per|each|every) week\b/, most: 7, name: 'days a week' },
  { unit: /^-?\s*days? (?:\w+ ){0,2}(?:a|per|each|every) month\b/, most: 31, name: 'days a month' },
  { unit: /^-?\s*weeks? (?:\w+ ){0,2}(?:a|per|each|every) (?:month|year)\b/, most: 52, name: 'weeks a year' },
  { unit: /^-?\s*minutes? (?:\w+ ){0,2}(?:an|per|each|every) hour\b/, most: 60, name: 'minutes an hour' },
  { unit: /^-?\s*months? (?:\w+ ){0,2}(?:a|per|each|every) year\b/, most: 12, name: 'months a year' },
];

/** Things that come whole: half of one is a physical impossibility. */
const INDIVISIBLE =
  /^(?:people|persons|children|kids|students|friends|boys|girls|men|women|players|teachers|workers|employees|members|guests|customers|passengers|siblings|brothers|sisters|sons|daughters|cars|trucks|buses|bikes|bicycles|boats|houses|rooms|classrooms|chairs|tables|dogs|cats|puppies|kittens|cows|horses|goats|sheep|pigs|chickens|ducks|birds|animals|pets|fish|teams|tickets|books|eggs|cards|marbles|balls|toys|dolls|coins|stamps)$/;

/** A plural whose first WordNet sense is a person or an animal (noun.person, noun.animal). */
function isLivingPlural(word: string): boolean {
  const base = analyse(word, 'noun').find((a) => a.form === 'plural')?.base;
  const lexFile = base ? synsets(base, 'noun')[0]?.lexFile : undefined;
  return lexFile === LEX_FILE.person || lexFile === LEX_FILE.animal;
}

/** The worked solution's `a-b` and `a+b` steps, as the values of their first two operands. */
function solutionPairs(solution: string | undefined, op: '-' | '+'): [number, number][] {
  if (solution === undefined) return [];
  const out: [number, number][] = [];
  for (const m of solution.matchAll(/<<\(?(\d+(?:\.\d+)?)\s*([-+*/])\s*(\d+(?:\.\d+)?)/g))
    if (m[2] === op) out.push([Number(m[1]), Number(m[3])]);
  return out;
}

function amount(q: Quantity): number {
  return Number(
    q.text
      .replace(/^\$/, '')
      .replace(/,(?=\d{3}\b)/g, '')
      .replace(/\s?%|\s?percent/, ''),
  );
}

/** Written like `like` (a `$` kept), with the value `n`. */
function written(like: Quantity, n: number): string {
  return `${like.text.startsWith('$') ? '$' : ''}${n}`;
}

/**
 * L5: a given the computation uses is made impossible in place, so the arithmetic itself rests on
 * the impossible premise (an appended "30th of February" touched nothing). Five kinds,
 * one drawn among those the problem allows, a negative count only when no other applies (a review found
 * 82 of 88 were a minus sign):
 * - over-whole: a share of a whole over 100% ("130% of the selling price");
 * - time: more hours in a day, days in a week, minutes in an hour or months in a year than it has;
 * - more-taken: where the solution takes b from a, b made more than a ("6500 seats" of a hall for 6000);
 * - contradiction: where the solution adds two givens of one unit, the sentence also states a total
 *   that is not their sum ("4 tubes of blue paint and 3 tubes of yellow paint (9 tubes in all)");
 * - physical: half of something that comes whole ("2.5 children");
 * - negative: a count or price below zero ("-3 dozen eggs"), never a difference ("-2 less than").
 */
function impossible(
  question: string,
  quantities: readonly Quantity[],
  solution: string | undefined,
  rng: PyRandom,
): Impossible | undefined {
  const given = quantities.filter((q) => !q.inQuestion && !q.hyphenated);
  const options: (() => Impossible | undefined)[] = [];

  const percent = given.find(
    (q) => q.kind === 'percent' && /^\s+of\b/.test(question.slice(q.index + q.text.length)),
  );
  if (percent)
    options.push(() => {
      const value = 110 + 10 * rng.randrange(9);
      const text = replaceQuantity(
        question,
        percent,
        percent.text.includes('percent') ? `${value} percent` : `${value}%`,
      );
      return { text, how: `${percent.text} of a whole made ${value}%`, kind: 'over-whole' };
    });

  // A fraction of a whole over one ("5/4 of the people left").
  const fraction = given.find((q) => {
    const m = /^(\d+)\/(\d+)$/.exec(q.text);
    return m && Number(m[1]) < Number(m[2]) && /^\s+of\b/.test(question.slice(q.index + q.text.length));
  });
  if (fraction)
    options.push(() => {
      const denominator = Number(fraction.text.split('/')[1]);
      const value = `${denominator + 1 + rng.randrange(denominator)}/${denominator}`;
      return {
        text: replaceQuantity(question, fraction, value),
        how: `${fraction.text} of a whole made ${value}`,
        kind: 'over-whole',
      };
    });

  for (const period of PERIODS) {
    // On the text after the number, so "a 10-hour shift each day" counts too.
    const q = quantities.find(
      (x) => !x.inQuestion && x.kind === 'count' && period.unit.test(question.slice(x.index + x.text.length)),
    );
    // "4 weeks every month" holds at most 5.
    const most =
      period.name === 'weeks a year' &&
      /month/.test(question.slice((q?.index ?? 0) + (q?.text.length ?? 0), (q?.index ?? 0) + 40))
        ? 5
        : period.most;
    if (q)
      options.push(() => {
        const value = most + 1 + rng.randrange(Math.max(2, Math.round(most / 2)));
        return {
          text: replaceQuantity(question, q, String(value)),
          how: `${q.text} ${period.name} made ${value}`,
          kind: 'time',
        };
      });
  }

  const byValue = (v: number) =>
    given.filter((q) => (q.kind === 'count' || q.kind === 'money') && amount(q) === v);
  // What the solution takes away (b of a - b), or a part "of them": made more than the whole.
  const TAKING =
    /\b(?:of them|of these|of those|gave|gives|give|used|uses|use|ate|eats|eat|spent|spends|spend|sold|sells|lost|loses|spills?|spilled|took|takes|absent|away|left|leaves)\b/;
  const sentenceOf = (q: Quantity) => {
    const start = Math.max(0, question.lastIndexOf('. ', q.index) + 1);
    const end = question.indexOf('. ', q.index);
    return question.slice(start, end < 0 ? undefined : end);
  };
  const fromSteps = solutionPairs(solution, '-')
    .map(([a, b]) => [byValue(a)[0], byValue(b)] as const)
    .find(
      ([a, b]) =>
        a !== undefined &&
        b.length === 1 &&
        amount(b[0] as Quantity) < amount(a) &&
        ((b[0] as Quantity).index > a.index || TAKING.test(sentenceOf(b[0] as Quantity))),
    );
  const partOf = given.find((q, i) => {
    if (!/^\s+of (?:them|these|those)\b/.test(question.slice(q.index + q.text.length))) return false;
    const whole = given
      .slice(0, i)
      .reverse()
      .find((x) => x.kind === q.kind);
    return whole !== undefined && amount(whole) > amount(q);
  });
  const taken: readonly [Quantity, Quantity[]] | undefined = fromSteps
    ? [fromSteps[0] as Quantity, [...fromSteps[1]]]
    : partOf
      ? [
          given
            .slice(0, given.indexOf(partOf))
            .reverse()
            .find((x) => x.kind === partOf.kind) as Quantity,
          [partOf],
        ]
      : undefined;
  if (taken)
    options.push(() => {
      const [whole, [part]] = taken as readonly [Quantity, Quantity[]];
      const value = Math.round(amount(whole as Quantity) * (1.2 + rng.random() * 0.6)) + 1;
      return {
        text: replaceQuantity(question, part as Quantity, written(part as Quantity, value)),
        how: `${(part as Quantity).text} taken from ${whole?.text} made ${value}, more than there is`,
        kind: 'more-taken',
      };
    });

  // Two counts of one thing in one given sentence ("3 red balls, 11 blue balls"), neither compared.
  const noun = (q: Quantity) => q.follows.split(' ').filter(Boolean).at(-1);
  const plain = (q: Quantity) =>
    q.kind === 'count' &&
    /s$/.test(noun(q) ?? '') &&
    !/^\s*(?:\S+\s+)?(?:more|less|fewer|longer|shorter|older|younger|times)\b/.test(
      question.slice(q.index + q.text.length),
    );
  let sum: readonly [Quantity, Quantity] | undefined;
  for (const [i, a] of given.entries())
    for (const b of given.slice(i + 1))
      if (
        !sum &&
        plain(a) &&
        plain(b) &&
        noun(a) === noun(b) &&
        !/[.?!]\s/.test(question.slice(a.index, b.index))
      )
        sum = [a, b];
  if (sum)
    options.push(() => {
      const [a, b] = sum as readonly [Quantity, Quantity];
      const end = question.slice(b.index).search(/[.!?](?:\s|$)/);
      if (end < 0) return undefined;
      const at = b.index + end;
      const total = amount(a) + amount(b) + 2 + rng.randrange(5);
      const unit = noun(a) as string;
      return {
        text: `${question.slice(0, at)} (${total} ${unit} in all)${question.slice(at)}`,
        how: `${a.text} + ${b.text} ${unit} stated as ${total} in all`,
        kind: 'contradiction',
      };
    });

  // Half of something that cannot be halved ("2.5 children", "7.5 cars").
  const whole = given.find((q) => {
    if (q.kind !== 'count' || q.value === undefined || q.value < 2) return false;
    const noun =
      q.follows.split(' ').find((w) => !/^(?:more|other|new|young|old|small|big|large|different)$/.test(w)) ??
      '';
    return INDIVISIBLE.test(noun) || isLivingPlural(noun);
  });
  if (whole)
    options.push(() => ({
      // This occurrence only: "5 people" made 5.5, "5 pages" left as it was.
      text: `${question.slice(0, whole.index)}${whole.text}.5${question.slice(whole.index + whole.text.length)}`,
      how: `${whole.text} ${whole.follows} made ${whole.text}.5, half of an indivisible thing`,
      kind: 'physical',
    }));

  const chosen = options.length > 0 ? rng.choice(options)() : undefined;
  if (chosen) return chosen;
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
  const negative = `-${q.text}`;
  return {
    text: replaceQuantity(question, q, negative),
    how: `${q.text} made negative (${negative})`,
    kind: 'negative',
  };
}

const rules = rulesFor('KB', knowledgeBoundaryGate, ({ seed, original, level, rng }) => {
  const kbType = KB_TYPE_OF_LEVEL[level];
  const made = rewrite(kbType, seed, rng);
  if (!made || knowledgeBoundaryGate(original, made.text).verdict !== 'pass') return undefined;
  return { text: made.text, name: made.name ?? kbType, subtype: kbType, kbType };
});

export const knowledgeBoundary: FamilyModule = {
  family: 'KB',
  rules,
  modelInstructions: (seed, level, attempt) => instructionsFor('KB', seed, level, attempt),
  familyGate: (original, candidate) => knowledgeBoundaryGate(original, candidate),
};
