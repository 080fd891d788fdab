/**
 * Knowledge Boundary L5, the impossible premise: a quantity the computation uses is made impossible
 * in place, so the arithmetic itself rests on it (an appended "30th of February" would touch
 * nothing). The kinds, drawn evenly among those the problem allows; never a minus sign ("charges
 * -$90"), which a blind read took for a typo with a coherent reading (a credit), so a problem that
 * allows none of these has no L5 (docs/ladder-families.md#kb-impossible):
 * - over-whole: a share of a whole over 100% ("130% of the selling price", "5/4 of the people"), or
 *   a fall of more than 100% ("decreases 125%", "120% off");
 * - time: more hours in a day, days in a week or a month, minutes in an hour or months in a year
 *   than it has ("26 hours a day", "a month with 45 days", "an 8 day work week"), more hours or
 *   minutes on one day than the day holds ("On Sunday he exercised for 1500 minutes"), or a date
 *   past the end of its month ("July 34th");
 * - lifespan: a person older than anyone has lived ("Brett is 190 years old");
 * - physical: half of something that comes whole ("6.5 girls", "4.5 pens"), never of a rate;
 * - more-taken: more taken than there is, where the solution takes b from a: b raised past a
 *   ("159 of them are girls" of 96, "a pen costs $5 less than a magazine" at $2, "gave away 80"
 *   of 64 cookies); never a stock lowered, time or a target overrun, nor a remainder asked, where
 *   one is only short or late and the answer is 0 (blind read v6);
 * - contradiction: two counts of one thing stated with a total that is not their sum
 *   ("4 tubes of blue paint and 3 tubes of yellow paint (9 tubes in all)");
 * - zero-divisor: what the solution divides by made zero ("shared equally among 0 friends").
 */

import type { PyRandom } from '../../../../util/random.js';
import { analyse } from '../../text/morphology.js';
import { type Quantity, replaceQuantityAt } from '../../text/quantities.js';
import { LEX_FILE, synsets } from '../../text/wordnet.js';

/** The kinds of impossible premise L5 makes (docs/ladder-families.md#kb-impossible). */
export type ImpossibleKind =
  | 'zero-divisor'
  | 'over-whole'
  | 'time'
  | 'lifespan'
  | 'physical'
  | 'more-taken'
  | 'contradiction';

export interface Impossible {
  text: string;
  how: string;
  kind: ImpossibleKind;
}

type Option = () => Impossible | undefined;

/** A count's unit per period, and the most the period holds: "25 hours a day" cannot be. */
const PERIODS: readonly { unit: RegExp; most: number; name: string }[] = [
  { unit: /^-?\s*hours? (?:\w+ ){0,2}(?:a|per|each|every) (?:day|night)\b/, most: 24, name: 'hours a day' },
  { unit: /^-?\s*hours? (?:\w+ ){0,2}(?:a|per|each|every) week\b/, most: 168, name: 'hours a week' },
  { unit: /^-?\s*days? (?:\w+ ){0,2}(?:a|per|each|every) week\b/, most: 7, name: 'days a week' },
  { unit: /^-?\s*days? (?:\w+ ){0,2}(?:a|per|each|every) month\b/, most: 31, name: 'days a month' },
  { unit: /^-?\s*weeks? (?:\w+ ){0,2}(?:a|per|each|every) (?:month|year)\b/, most: 52, name: 'weeks a year' },
  { unit: /^-?\s*minutes? (?:\w+ ){0,2}(?:an|per|each|every) hour\b/, most: 60, name: 'minutes an hour' },
  { unit: /^-?\s*months? (?:\w+ ){0,2}(?:a|per|each|every) year\b/, most: 12, name: 'months a year' },
  // "a 5 day work week", "a 6-day week".
  { unit: /^-?\s*days? (?:work |working |school )?week\b/, most: 7, name: 'days a week' },
];

/** "a month with 30 days": the period before the count. */
const PERIOD_BEFORE: readonly { before: RegExp; unit: RegExp; most: number; name: string }[] = [
  {
    before: /\b(?:a|one|each|every) month (?:with|of|that has) $/,
    unit: /^\s*days\b/,
    most: 31,
    name: 'days a month',
  },
  {
    before: /\b(?:a|one|each|every) week (?:with|of|that has) $/,
    unit: /^\s*days\b/,
    most: 7,
    name: 'days a week',
  },
  {
    before: /\b(?:a|one|each|every) day (?:with|of|that has) $/,
    unit: /^\s*hours\b/,
    most: 24,
    name: 'hours a day',
  },
];

/** A sentence about one day ("On Sunday ...", "yesterday", "in one day"): its hours or minutes are bounded by the day. */
const ONE_DAY =
  /\b(?:on (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?|yesterday|today|tomorrow|in (?:one|a single) day|that day)\b/i;

/**
 * People and animals: half of one is a physical impossibility. A made thing is not on the list: "4.5
 * magnets" reads as a typo with a price to compute (blind read v9, gsm-symbolic-40), "25.5 men" does not.
 */
const INDIVISIBLE =
  /^(?:people|persons|children|grandchildren|kids|students|pupils|friends|boys|girls|men|women|players|teachers|workers|employees|members|guests|customers|passengers|siblings|brothers|sisters|sons|daughters|dogs|cats|puppies|kittens|cows|horses|goats|sheep|pigs|chickens|ducks|birds|animals|pets|fish)$/;

/** Units of measure: two amounts in one unit need not be parts of one whole ("1.5 miles by 6 miles"). */
const UNIT_NOUNS =
  /^(?:seconds|minutes|hours|days|weeks|months|years|miles|meters|kilometers|feet|inches|yards|pounds|ounces|grams|kilograms|liters|gallons|cups|dollars|cents|degrees|percent|calories)$/;

/** A rate, not a count: "6 shrimp a minute" or "100 pineapples per hectare" can average 6.5. */
const RATE_AFTER =
  /^\s*(?:[a-z-]+ ){0,3}(?:a|an|per|every)\s+(?:second|minute|hour|day|night|week|month|year|mile|kilometer|hectare|acre|pound|serving|game|time)s?\b/;

/** Containers and measures: "2.5 bags" or "1.5 cups" can be. */
const PARTIAL =
  /^(?:plants|flowers|trees|bushes|cookies|crackers|biscuits|candies|chocolates|apples|oranges|bananas|eggs|bags|boxes|jars|cups|bottles|cans|pots|cartons|packs|packages|buckets|tanks|crates|baskets|cases|trays|slices|pieces|sheets|rolls|loaves|pies|pizzas|cakes|servings|portions|glasses|bowls|spoonfuls|scoops|bars|sticks|strips|batches|sets|rows|pages)$/;

/** A plural whose first WordNet sense is a person or an animal: half of one cannot be (E83). */
export function isLivingPlural(word: string): boolean {
  if (PARTIAL.test(word)) return false;
  if (INDIVISIBLE.test(word)) return true;
  const base = analyse(word, 'noun').find((a) => a.form === 'plural')?.base;
  const lexFile = base ? synsets(base, 'noun')[0]?.lexFile : undefined;
  return lexFile === LEX_FILE.person || lexFile === LEX_FILE.animal;
}

/** The worked solution's `a-b` and `a+b` steps, as the values of their first two operands. */
function solutionPairs(solution: string | undefined, op: '-' | '+' | '/'): [number, number][] {
  if (solution === undefined) return [];
  const out: [number, number][] = [];
  for (const m of solution
    .replace(/,(?=\d{3})/g, '')
    .matchAll(/<<\(?\$?(\d*\.?\d+)\s*([-+*/])\s*\$?(\d*\.?\d+)/g))
    if (m[2] === op) out.push([Number(m[1]), Number(m[3])]);
  return out;
}

export function amount(q: Quantity): number {
  return Number(
    q.text
      .replace(/^\$/, '')
      .replace(/[, ](?=\d{3}\b)/g, '')
      .replace(/\s?%|\s?percent/, ''),
  );
}

/** Written like `like` (a `$` and the decimals kept), with the value `n`. */
function written(like: Quantity, n: number): string {
  const decimals = /\.(\d+)$/.exec(like.text)?.[1]?.length ?? 0;
  return `${like.text.startsWith('$') ? '$' : ''}${decimals > 0 ? n.toFixed(decimals) : String(n)}`;
}

/** The text right after a quantity. */
const after = (question: string, q: Quantity) => question.slice(q.index + q.text.length);

/** The sentence holding a quantity. */
function sentenceOf(question: string, q: Quantity): string {
  const start = Math.max(0, question.lastIndexOf('. ', q.index) + 1, question.lastIndexOf('? ', q.index) + 1);
  const end = question.slice(q.index).search(/[.?!](?:\s|$)/);
  return question.slice(start, end < 0 ? undefined : q.index + end);
}

/** Verbs and phrases of taking away, for "b of a" where b comes first in the text. */
const TAKING =
  /\b(?:of them|of these|of those|gave|gives|give|used|uses|use|ate|eats|eat|spent|spends|spend|sold|sells|lost|loses|spills?|spilled|took|takes|absent|away|left|leaves)\b|^Of the\b/;
/**
 * Time, a target or a budget: more of it taken than there is makes someone late or over a target, a
 * coherent problem ("It takes them 55 minutes" of 30, "already consumed 3027 calories" of a 2000
 * target; blind read v6), never an impossible one.
 */
const NOT_A_STOCK =
  /\b(?:minutes?|hours?|days?|weeks?|seconds?|calories|target|goal|limit|budget|each of the|on each)\b/i;

function overWhole(question: string, givens: readonly Quantity[], rng: PyRandom): Option[] {
  const options: Option[] = [];
  // A share of a whole ("150% of the balloons burst"), not a comparison ("This was 150% of the time").
  const percent = givens.find(
    (q) =>
      q.kind === 'percent' &&
      /^\s+of\b/.test(after(question, q)) &&
      !/\b(?:is|was|are|were|be|been)\s+$/.test(question.slice(Math.max(0, q.index - 12), q.index)),
  );
  if (percent)
    options.push(() => {
      const value = 110 + 10 * rng.randrange(9);
      const text = replaceQuantityAt(
        question,
        percent,
        percent.text.includes('percent') ? `${value} percent` : `${value}%`,
      );
      return { text, how: `${percent.text} of a whole made ${value}%`, kind: 'over-whole' };
    });
  // A fall of more than everything: "decreases 25%" -> "decreases 125%", "20% off" -> "120% off".
  const fall = givens.find(
    (q) =>
      q.kind === 'percent' &&
      amount(q) < 100 &&
      (/\b(?:decreases?|decreased|drops?|dropped|falls?|fell|loses?|lost|reduces?|reduced|cuts?) (?:by )?$/.test(
        question.slice(Math.max(0, q.index - 20), q.index),
      ) ||
        /^\s*(?:off|discount)\b/.test(after(question, q))),
  );
  if (fall)
    options.push(() => {
      const value = amount(fall) + 100 + 5 * rng.randrange(1, 6);
      const text = replaceQuantityAt(
        question,
        fall,
        fall.text.includes('percent') ? `${value} percent` : `${value}%`,
      );
      return { text, how: `a fall of ${fall.text} made ${value}%, more than all of it`, kind: 'over-whole' };
    });
  const fraction = givens.find((q) => {
    const m = /^(\d+)\/(\d+)$/.exec(q.text);
    return m && Number(m[1]) < Number(m[2]) && /^\s+of\b/.test(after(question, q));
  });
  if (fraction)
    options.push(() => {
      const denominator = Number(fraction.text.split('/')[1]);
      const value = `${denominator + 1 + rng.randrange(denominator)}/${denominator}`;
      return {
        text: replaceQuantityAt(question, fraction, value),
        how: `${fraction.text} of a whole made ${value}`,
        kind: 'over-whole',
      };
    });
  return options;
}

function time(question: string, givens: readonly Quantity[], rng: PyRandom): Option[] {
  const options: Option[] = [];
  const make =
    (q: Quantity, most: number, name: string): Option =>
    () => {
      const value = most + 1 + rng.randrange(Math.max(2, Math.round(most / 2)));
      return {
        text: replaceQuantityAt(question, q, String(value)),
        how: `${q.text} ${name} made ${value}`,
        kind: 'time',
      };
    };
  const counts = givens.filter((q) => q.kind === 'count');
  for (const period of PERIODS) {
    // On the text after the number, so "a 10-hour shift each day" counts too.
    const q = counts.find((x) => period.unit.test(after(question, x)));
    if (!q) continue;
    // "4 weeks every month" holds at most 5.
    const most =
      period.name === 'weeks a year' && /month/.test(after(question, q).slice(0, 30)) ? 5 : period.most;
    options.push(make(q, most, period.name));
  }
  for (const period of PERIOD_BEFORE) {
    const q = counts.find(
      (x) =>
        period.before.test(question.slice(Math.max(0, x.index - 30), x.index)) &&
        period.unit.test(after(question, x)),
    );
    if (q) options.push(make(q, period.most, period.name));
  }
  // Hours or minutes spent on one day ("On Sunday he exercised for 23 minutes"), not a rate.
  const onOneDay = counts.find(
    (q) =>
      !q.hyphenated &&
      /^\s*(?:hours?|minutes?)\b(?! (?:a|an|per|each|every)\b)/.test(after(question, q)) &&
      ONE_DAY.test(sentenceOf(question, q)) &&
      // "If he watched 7 hours of TV in all, how many ... on Wednesday?" counts a week.
      !/\b(?:in all|in total|altogether|combined|total|weeks?)\b/i.test(sentenceOf(question, q)),
  );
  if (onOneDay) {
    const minutes = /^\s*minutes/.test(after(question, onOneDay));
    options.push(make(onOneDay, minutes ? 1440 : 24, minutes ? 'minutes in one day' : 'hours in one day'));
  }
  // A date past the end of its month ("July 35th"), where the problem counts the days between dates.
  const date =
    /\b(January|February|March|April|May|June|July|August|September|October|November|December) (\d{1,2})(st|nd|rd|th)?\b/.exec(
      question,
    );
  if (date && /\bdays?\b|\bweeks?\b/i.test(question))
    options.push(() => {
      const month = date[1] as string;
      const last = month === 'February' ? 29 : /April|June|September|November/.test(month) ? 30 : 31;
      const day = last + 1 + rng.randrange(4);
      const suffix = date[3]
        ? day % 10 === 1 && day !== 11
          ? 'st'
          : day % 10 === 2
            ? 'nd'
            : day % 10 === 3
              ? 'rd'
              : 'th'
        : '';
      const at = date.index + month.length + 1;
      return {
        text: `${question.slice(0, at)}${day}${suffix}${question.slice(at + (date[2] as string).length + (date[3]?.length ?? 0))}`,
        how: `${month} ${date[2]} made ${month} ${day}, past the end of the month`,
        kind: 'time',
      };
    });
  return options;
}

function lifespan(question: string, givens: readonly Quantity[], rng: PyRandom): Option[] {
  // "Brett is 14 years old", "when he was 30 years old": a person's age, not a tree's or a car's.
  // "Deanna is 26." in a problem that asks how old someone is.
  const asksAge = /\bhow old\b|\bage\b/i.test(question);
  const age = givens.find(
    (q) =>
      q.kind === 'count' &&
      (/^\s+years old\b/.test(after(question, q)) ||
        (asksAge && /^\s*(?:[.,]|years\b)/.test(after(question, q)))) &&
      /\b(?:[A-Z][a-z]+,?|he|she|I|you) (?:just |now |already )?(?:is|was|turns|turned|will be|are)(?: now| currently)? $/.test(
        question.slice(Math.max(0, q.index - 30), q.index),
      ),
  );
  if (!age) return [];
  return [
    () => {
      const value = 150 + rng.randrange(100);
      return {
        text: replaceQuantityAt(question, age, String(value)),
        how: `an age of ${age.text} made ${value}, older than anyone has lived`,
        kind: 'lifespan',
      };
    },
  ];
}

/** A person's own speed: "hiked 14 kilometers per hour", "walks at 3 miles an hour". */
const HUMAN_SPEED =
  /\b(?:walk|walks|walked|run|runs|ran|jog|jogs|jogged|hike|hikes|hiked|swim|swims|swam|bike|bikes|biked|cycle|cycles|cycled|skate|skates|skated|row|rows|rowed|paddle|paddles|paddled|skip|skips|skipped)\b[^.?!]{0,30}$/i;

function physical(question: string, givens: readonly Quantity[], rng: PyRandom): Option[] {
  const options: Option[] = [];
  // Faster than anyone moves on their own: "hiked 140 kilometers per hour".
  const speed = givens.find(
    (q) =>
      q.kind === 'count' &&
      /^\s*(?:miles|kilometers|km) (?:per|an|a) hour\b|^\s*(?:mph|km\/h)\b/.test(after(question, q)) &&
      HUMAN_SPEED.test(question.slice(Math.max(0, q.index - 40), q.index)),
  );
  if (speed)
    options.push(() => {
      const value = 150 + 10 * rng.randrange(15);
      return {
        text: replaceQuantityAt(question, speed, String(value)),
        how: `a person's speed of ${speed.text} made ${value}, faster than anyone moves on their own`,
        kind: 'physical',
      };
    });
  // Half of someone who cannot be halved ("2.5 children", "8.5 puppies"); never a rate, which can average it.
  const whole = givens.find((q) => {
    if (q.kind !== 'count' || q.value === undefined || q.value < 2 || RATE_AFTER.test(after(question, q)))
      return false;
    // The counted noun: the first plural of "7 blue birds", "2 potted plants".
    const words = q.follows
      .split(' ')
      .filter((w) => !/^(?:more|other|new|young|old|small|big|large|different)$/.test(w));
    const noun =
      words.find((w) => INDIVISIBLE.test(w) || analyse(w, 'noun').some((a) => a.form === 'plural')) ?? '';
    // "8.5 stuffed animals" are toys, which a half of is only a typo.
    return (
      isLivingPlural(noun) &&
      !/\b(?:stuffed|toy|plastic|paper|wooden|chocolate|gummy|cartoon)\b/.test(q.follows)
    );
  });
  if (!whole) return options;
  return [
    ...options,
    () => ({
      // This occurrence only: "5 people" made 5.5, "5 pages" left as it was.
      text: `${question.slice(0, whole.index)}${whole.text}.5${question.slice(whole.index + whole.text.length)}`,
      how: `${whole.text} ${whole.follows} made ${whole.text}.5, half of an indivisible thing`,
      kind: 'physical',
    }),
  ];
}

/**
 * More taken than there is: a part raised past its whole, an amount given "less than" a result
 * raised past it, or else a stock lowered below what the solution takes from it.
 */
function moreTaken(
  question: string,
  givens: readonly Quantity[],
  solution: string | undefined,
  rng: PyRandom,
): Option[] {
  const options: Option[] = [];
  const amounts = givens.filter((q) => q.kind === 'count' || q.kind === 'money');
  const byValue = (v: number) => amounts.filter((q) => amount(q) === v);
  const steps = solutionPairs(solution, '-');
  const lessThan = lessThanResult(question, steps, byValue);
  const raised = takenFromWhole(question, amounts, steps, byValue);
  if (lessThan && !raised)
    options.push(() => {
      const [a, [b]] = lessThan as readonly [number, Quantity[]];
      const value = Math.round(a * (1.2 + rng.random() * 0.6)) + 1;
      if (staysCoherent(solution, amount(b as Quantity), value)) return undefined;
      return {
        text: replaceQuantityAt(question, b as Quantity, written(b as Quantity, value)),
        how: `${(b as Quantity).text} less than ${a} made ${value}, below zero`,
        kind: 'more-taken',
      };
    });
  if (raised)
    options.push(() => {
      const [whole, part] = raised;
      const value = Math.round(amount(whole) * (1.2 + rng.random() * 0.6)) + 1;
      if (staysCoherent(solution, amount(part), value)) return undefined;
      return {
        text: replaceQuantityAt(question, part, written(part, value)),
        how: `${part.text} taken from ${whole.text} made ${value}, more than there is`,
        kind: 'more-taken',
      };
    });
  // A stock lowered below what is taken from it is never written: with less than is spent or
  // placed one is short, a coherent problem ("20 eggs and 2 trays of 24": 0 left over; blind read
  // v6, gsm-symbolic-12).
  return options;
}

/**
 * The self-check of a more-taken premise (blind read v6): the worked solution's `<<a*b=c>>` steps
 * recomputed with the given `from` made `to` (and every later use of a changed result changed too).
 * True when every step still gives a non-negative result, so the problem stays coherent and the
 * premise is refused; false when a step goes below zero or the solution cannot be read.
 */
export function staysCoherent(solution: string | undefined, from: number, to: number): boolean {
  if (solution === undefined) return false;
  const changed = new Map<number, number>([[from, to]]);
  const steps = [...solution.replace(/,(?=\d{3})/g, '').matchAll(/<<([\d.+\-*/() $]+)=\$?(-?\d*\.?\d+)>>/g)];
  if (steps.length === 0) return false;
  for (const [, expr = '', result = ''] of steps) {
    const redone = expr.replace(/\$/g, '').replace(/\d*\.?\d+/g, (n) => String(changed.get(Number(n)) ?? n));
    if (!/^[\d.+\-*/() ]+$/.test(redone)) return false;
    const value = Function(`"use strict"; return (${redone});`)() as number;
    if (!Number.isFinite(value) || value < 0) return false;
    if (value !== Number(result)) changed.set(Number(result), value);
  }
  return true;
}

/**
 * A step a - b of the solution whose b is the one given "less" or "fewer" than a result ("a pen
 * costs $1 less than a magazine" at $2): b raised past it, so the price or count is below zero.
 * Never a remainder asked ("how much change", "how much longer do they have"): a price above what
 * was paid or a walk longer than the time there is only makes someone short or late, a coherent
 * problem whose answer is 0 or a shortfall (blind read v6, docs/ladder-families.md#kb-impossible).
 */
function lessThanResult(
  question: string,
  steps: readonly [number, number][],
  byValue: (v: number) => Quantity[],
): readonly [number, Quantity[]] | undefined {
  return steps
    .map(([a, b]) => [a, byValue(b)] as const)
    .find(
      ([a, b]) =>
        b.length === 1 &&
        amount(b[0] as Quantity) < a &&
        /^\s*(?:\S+\s+)?(?:less|fewer)\b/.test(after(question, b[0] as Quantity)),
    );
}

/**
 * A part and the whole it is taken from, both givens: b given after a in a step a - b (or taken:
 * "gave", "of them"), else a count "of them" after a larger one of its kind. Undefined when none.
 */
function takenFromWhole(
  question: string,
  amounts: readonly Quantity[],
  steps: readonly [number, number][],
  byValue: (v: number) => Quantity[],
): readonly [Quantity, Quantity] | undefined {
  const fromSteps = steps
    .map(([a, b]) => [byValue(a)[0], byValue(b)] as const)
    .find(
      ([a, b]) =>
        a !== undefined &&
        b.length === 1 &&
        amount(b[0] as Quantity) < amount(a) &&
        TAKING.test(sentenceOf(question, b[0] as Quantity)) &&
        !NOT_A_STOCK.test(sentenceOf(question, a as Quantity)) &&
        !NOT_A_STOCK.test(sentenceOf(question, b[0] as Quantity)),
    );
  const partOf = amounts.find((q, i) => {
    if (!/^\s+of (?:them|these|those)\b/.test(after(question, q))) return false;
    const whole = amounts
      .slice(0, i)
      .reverse()
      .find((x) => x.kind === q.kind);
    return whole !== undefined && amount(whole) > amount(q);
  });
  return fromSteps
    ? [fromSteps[0] as Quantity, fromSteps[1][0] as Quantity]
    : partOf
      ? [
          amounts
            .slice(0, amounts.indexOf(partOf))
            .reverse()
            .find((x) => x.kind === partOf.kind) as Quantity,
          partOf,
        ]
      : undefined;
}

function contradiction(question: string, givens: readonly Quantity[], rng: PyRandom): Option[] {
  // Counts of one thing listed in one given sentence ("3 red balls, 11 blue balls, and 25 green
  // balls"), none compared, then a total that is not their sum after the last of them.
  // The counted noun: the first plural of "8 fruity scents available".
  const noun = (q: Quantity) => {
    const words = q.follows.split(' ').filter(Boolean);
    return words.find((w) => analyse(w, 'noun').some((a) => a.form === 'plural')) ?? words.at(-1);
  };
  // A count of things, not a unit ("100 grams" of mushrooms and "3 grams" of protein do not add up)
  // nor a rate ("3 eggs a day" each).
  const plain = (q: Quantity) =>
    q.kind === 'count' &&
    /s$/.test(noun(q) ?? '') &&
    !UNIT_NOUNS.test(noun(q) ?? '') &&
    !RATE_AFTER.test(after(question, q)) &&
    !/^\s*(?:\S+\s+){0,3}?(?:a|an|per|each|every) \w+/.test(after(question, q)) &&
    !/^\s*(?:\S+\s+)?(?:more|less|fewer|longer|shorter|older|younger|times)\b/.test(after(question, q));
  for (const [i, a] of givens.entries()) {
    if (!plain(a)) continue;
    const list = [a];
    for (const b of givens.slice(i + 1)) {
      const between = question.slice(list.at(-1)?.index ?? a.index, b.index);
      // The same sentence, no alternatives ("5 scenes per day, or 6"), no other number between.
      if (/[.?!]\s/.test(between) || /\bor\b/.test(between) || !plain(b) || noun(b) !== noun(a)) break;
      list.push(b);
    }
    if (list.length < 2) continue;
    const last = list.at(-1) as Quantity;
    // "(64 stories in all)" before a third count of the same thing reads as a running total.
    const sentence = sentenceOf(question, last);
    const rest = sentence.slice(sentence.indexOf(last.text) + last.text.length);
    if (new RegExp(`\\d+ (?:\\S+ ){0,3}${noun(a)}\\b`).test(rest)) continue;
    return [
      () => {
        const end = question.slice(last.index).search(/[.!?,;](?:\s|$)/);
        if (end < 0) return undefined;
        const at = last.index + end;
        const sum = list.reduce((t, q) => t + amount(q), 0);
        const total = sum + 2 + rng.randrange(5);
        const unit = noun(a) as string;
        return {
          text: `${question.slice(0, at)} (${total} ${unit} in all)${question.slice(at)}`,
          how: `${list.map((q) => q.text).join(' + ')} ${unit} stated as ${total} in all`,
          kind: 'contradiction',
        };
      },
    ];
  }
  return [];
}

/**
 * What the solution divides by, made zero: "shared equally among 0 friends", "pieces 0 inches
 * long", "candy bars for $0": no number of shares, pieces or bars can come of it.
 */
function zeroDivisor(question: string, givens: readonly Quantity[], solution: string | undefined): Option[] {
  // Not "2/2" ("2 bolts and half that much"): the given is then what is divided too.
  const divisors = new Set(
    solutionPairs(solution, '/')
      .filter(([a, b]) => a !== b)
      .map(([, b]) => b),
  );
  const q = givens.find(
    (x) =>
      (x.kind === 'count' || x.kind === 'money') &&
      divisors.has(amount(x)) &&
      amount(x) > 1 &&
      !RATE_AFTER.test(after(question, x)) &&
      // A time of day ("by 5 pm") or an ordinal group ("the last 4 sides") is no amount to divide.
      !/^\s*(?:pm|am|p\.m\.|a\.m\.|o'clock)\b/i.test(after(question, x)) &&
      !/\b(?:first|last|next|other|remaining)\s+$/i.test(question.slice(Math.max(0, x.index - 12), x.index)),
  );
  if (!q) return [];
  return [
    () => ({
      text: replaceQuantityAt(question, q, q.text.startsWith('$') ? '$0' : '0'),
      how: `${q.text}, which the solution divides by, made 0`,
      kind: 'zero-divisor',
    }),
  ];
}

/**
 * Whether a quantity can be made impossible in place: written alone (not "10-hour"). One in the
 * question sentence is a given too ("If there are 15 goats, how many ...", "... in a month with
 * 30 days?"): the question asks for an unknown, so its numbers are what it gives.
 */
function isGiven(q: Quantity): boolean {
  return !q.hyphenated;
}

/**
 * The problem with one of the quantities the solution uses made impossible in place, its kind drawn
 * evenly among the kinds the problem allows (then one way within the kind); undefined when it allows
 * none.
 */
export function impossiblePremise(
  question: string,
  quantities: readonly Quantity[],
  solution: string | undefined,
  rng: PyRandom,
): Impossible | undefined {
  const givens = quantities.filter(isGiven);
  const byKind: Option[][] = [
    overWhole(question, givens, rng),
    time(question, givens, rng),
    lifespan(question, givens, rng),
    physical(question, givens, rng),
    moreTaken(question, givens, solution, rng),
    contradiction(question, givens, rng),
    zeroDivisor(question, givens, solution),
  ].filter((options) => options.length > 0);
  if (byKind.length === 0) return undefined;
  const chosen = rng.choice(rng.choice(byKind))();
  return chosen && { ...chosen, text: withArticles(chosen.text) };
}

/** "a 8 day week" -> "an 8 day week", "an 5 day week" -> "a 5 day week": the article a new number needs. */
function withArticles(text: string): string {
  const vowelSound = (n: string) => /^(?:8|11|18)(?!\d)|^8\d/.test(n);
  return text.replace(/\b([Aa])(n?) (\d[\d.,]*)/g, (all, a: string, n: string, num: string) => {
    const want = vowelSound(num) ? 'n' : '';
    return want === n ? all : `${a}${want} ${num}`;
  });
}

/** The kinds a problem allows (for the tests and the bench). */
export function impossibleKinds(
  question: string,
  quantities: readonly Quantity[],
  solution: string | undefined,
  rng: PyRandom,
): ImpossibleKind[] {
  const givens = quantities.filter(isGiven);
  const kinds: ImpossibleKind[] = [];
  const add = (kind: ImpossibleKind, options: Option[]) => {
    if (options.length > 0) kinds.push(kind);
  };
  add('over-whole', overWhole(question, givens, rng));
  add('time', time(question, givens, rng));
  add('lifespan', lifespan(question, givens, rng));
  add('physical', physical(question, givens, rng));
  add('more-taken', moreTaken(question, givens, solution, rng));
  add('contradiction', contradiction(question, givens, rng));
  add('zero-divisor', zeroDivisor(question, givens, solution));
  return kinds;
}
