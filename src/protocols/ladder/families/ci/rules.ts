/**
 * Context Interference (GSM-IC style): distractor sentences among the original's givens, never after
 * its question, written from the seed itself. L1 adds one number-free sentence about the problem's
 * scene; L2 leads with an off-topic number, L3 with the problem's own things held by someone else,
 * L4-L5 with role-overlap siblings of its givens (its own sentence, another person, new numbers in
 * range). Numbers are never one of the original's. How many is chosen by measuring (see aim.ts).
 */

import type { PyRandom } from '../../../../util/random.js';
import { type Entities, extractEntities } from '../../text/entities.js';
import { opensWithPronoun } from '../../text/pronouns.js';
import { endsWithAbbreviation, numbersIn, numberValue } from '../../text/tokens.js';
import type { Level, Seed } from '../../types.js';
import { aimAtLevel } from '../aim.js';
import type { RulesInput, RulesMade } from '../contract.js';
import {
  fill,
  freshNumber,
  type Slots,
  sentenceBoundaries,
  shuffled,
  slotsFor,
  templatesFor,
  topicOf,
} from '../rules-common.js';
import { sceneSentences } from '../scene.js';

/**
 * Numbers about something the problem does not ask about, with its own people (GSM-IC's off-topic
 * kind): `{k}` an everyday small count (an age, pages, blocks: never "1316 years old").
 */
export const OFF_TOPIC: readonly string[] = [
  '{friendOf} is {k} years old.',
  '{personPossessive} neighbor lives {k} houses down the street.',
  'Last week, {friendOf} read {k} pages of a novel.',
  'The nearest bus stop is {k} blocks from {personPossessive} door.',
  'Last summer, {friendOf} planted {k} tulips in the garden.',
  '{personPossessive} cousin keeps {k} photos on the fridge.',
  '{person} has lived in the same town for {k} years.',
  '{personPossessive} street has {k} trees along it.',
  '{friendOf} has {k} cousins.',
  'The local library has {k} reading tables.',
  '{friendOf} owns {k} board games.',
  '{person} once waited {k} minutes for a bus.',
  'The school down the road has {k} classrooms.',
  '{personPossessive} neighbor walks {k} dogs every morning.',
  'The town park has {k} benches.',
  '{friendOf} jogged {k} laps around the track last week.',
  '{personPossessive} building has {k} floors.',
  'A shelf in {personPossessive} hallway holds {k} books.',
  '{person} keeps {k} plants on the windowsill.',
  'Someone in {personPossessive} family collects stamps and has {k} of them.',
  '{friendOf} takes a {k}-minute walk most evenings.',
  'The corner café has {k} tables.',
  '{personPossessive} old bicycle has {k} gears.',
  'On the drive over, {person} passed {k} traffic lights.',
  'The family calendar has {k} birthdays marked on it.',
  '{friendOf} learned {k} new songs on the guitar this year.',
  'There are {k} houses on {personPossessive} side of the street.',
  '{person} sent {k} postcards from a trip last year.',
  'The nearby pond has {k} ducks.',
  'A family friend has visited {k} countries.',
  'The bus that goes past the corner has {k} stops on its route.',
  'A cousin of the family is in a choir with {k} singers.',
  'The local football team has won {k} games this season.',
  'A family friend keeps {k} goldfish in a tank.',
  'The neighbors across the road have {k} windows facing the street.',
  'A clock in the hallway is {k} years old.',
  'The nearest swimming pool is {k} blocks away.',
  'A family friend ran {k} kilometers on Sunday.',
  'The town hall clock was last repaired {k} years ago.',
  'A neighbor has {k} chickens in the backyard.',
  'The bookshop on the corner has {k} shelves of novels.',
  'An old friend of the family has {k} grandchildren.',
  'The community garden has {k} plots.',
  'A neighbor painted {k} fence posts over the weekend.',
  'The local radio station plays {k} songs an hour.',
  'The train into town has {k} carriages.',
  'A family friend baked {k} loaves for a fundraiser last year.',
  'The hiking club meets {k} times a year.',
  'A cousin of the family has {k} pen pals.',
  'The apartment block next door has {k} balconies.',
  'A neighbor has a collection of {k} old coins.',
  'The nearest beach is {k} miles from the town center.',
  'A family friend has read {k} books this year.',
  'The school choir has {k} members.',
  'The marching band in town has {k} drummers.',
  'A family friend once climbed a hill with {k} switchbacks.',
  'A relative of the family plays in a league with {k} teams.',
  'The village fair had {k} stalls the year before.',
  'A neighbor owns a kite with {k} ribbons on its tail.',
  'The museum in town has {k} rooms.',
  'A family friend keeps {k} jars of jam in the pantry.',
  'The street market runs {k} weekends a year.',
  'A family friend knitted {k} scarves last winter.',
  'The orchard outside town has {k} rows of trees.',
  'A cousin of the family is saving up for a bike with {k} gears.',
  'The nearby lake has {k} rowing boats for hire.',
  'A neighbor has {k} birdhouses in the garden.',
  'The local cinema has {k} screens.',
  'A family friend has filled {k} diaries over the years.',
  'The town square has {k} lampposts.',
  'A neighbor took {k} photos on a walk last Sunday.',
  'The nearest post office is {k} streets away.',
  'A family friend has a puzzle with {k} missing pieces.',
  'The farmers market has {k} regular sellers.',
  'A neighbor repaired {k} chairs for the community hall.',
  'The skating rink is open {k} days a month in winter.',
  'A family friend has {k} houseplants.',
  'The community pool has {k} lanes.',
  'A family friend planted {k} rose bushes along the fence.',
  '{friendOf} walked {k} blocks to the post office yesterday.',
  'The neighborhood has {k} streetlights.',
  'A family friend bought a bookcase with {k} shelves.',
  'The town library lends out {k} board games.',
  'A neighbor has {k} tomato plants in the yard.',
  '{personPossessive} cousin swam {k} laps at the pool on Saturday.',
  'The bridge into town has {k} lampposts.',
  'A family friend volunteers {k} hours a month at the animal shelter.',
  'The local orchestra has {k} violinists.',
  'A neighbor painted {k} flowerpots for the front steps.',
  'The school bus stops {k} times on its morning route.',
  '{friendOf} has a stamp album with {k} pages.',
  'A cousin of the family plays on a team of {k} players.',
  'The ferry across the lake makes {k} trips on a busy day.',
  'A family friend grew {k} pumpkins last autumn.',
  'The old mill by the river has {k} windows.',
  'A neighbor keeps {k} bird feeders in the garden.',
  '{personPossessive} aunt has {k} cookbooks on a shelf.',
  'The parking lot by the park has {k} spaces.',
  'A family friend ran a race with {k} runners last spring.',
  'The local paper printed {k} letters from readers last week.',
  'A neighbor has a fish tank with {k} snails.',
  'The town clock tower has {k} steps to the top.',
];

/**
 * Numbers about the problem's own things, place or money that belong to someone else, another time or
 * another place (GSM-IC's in-topic kind): `{n}` a count and `{m}` an amount in the problem's range.
 */
export const IN_TOPIC: readonly string[] = [
  '{personPossessive} neighbor bought {n} {otherObjects} last month.',
  'Last year, the {place} sold {n} {objects} in a single week.',
  'A different {place} across town charges {m} for something similar.',
  '{friendOf} once collected {n} {otherObjects}.',
  'On a different day, another customer paid {m} for {n} {objects}.',
  'Last winter, {personPossessive} sister had {n} {objects} but gave them all away.',
  'At a fair the year before, a stall offered {n} {objects} for {m}.',
  'The {place} down the road had a sale last month, with {otherObjects} at {m} each.',
  'In a puzzle book, a similar story has someone with {n} {otherObjects} and {m} to spend.',
  'Had prices been like those of the year before, {objects} would have cost {m}, but they were not.',
  '{personPossessive} coworker counted {n} {objects} at the office last Friday.',
  'The {place} had {n} visitors on its busiest day last year.',
  'A classmate of {person} once saw {n} {objects} at a market.',
  'Years ago, {personPossessive} uncle kept {n} {objects} in the garage.',
  'A cousin of {person} paid {m} for a bag of {otherObjects} last spring.',
  'The {place} in the next town over has {k} staff.',
  'The week before, {friendOf} ended up with {n} {otherObjects}.',
  'At the start of the season, the {place} had ordered {n} {objects}.',
  'A magazine once wrote about someone with {n} {objects}.',
  '{friendOf} guessed there would be {n} {objects}, which was far off.',
  'An online shop lists {otherObjects} at {m} for a pack.',
  '{personPossessive} aunt still remembers paying {m} for {otherObjects} as a child.',
  'A month earlier, a different family had {n} {objects}.',
  'The {place} keeps a record that shows {n} {objects} from a year ago.',
  'At a school fair, a booth gave away {n} {otherObjects}.',
  "The {place}'s owner once kept {n} {objects} in storage.",
  'In an old photo, {personPossessive} grandfather is holding {n} {otherObjects}.',
  'A neighbor down the street spent {m} at the {place} the same week.',
  'Another shopper at the {place} left with {n} {otherObjects}.',
  'A friend from school once had {n} {objects}.',
  'A few streets away, a family has {n} {otherObjects}.',
  'At a party last year, someone mentioned {n} {objects}.',
  'A teacher at the local school once talked about {n} {otherObjects}.',
  'A family friend lost {n} {objects} on a trip last summer.',
  'The neighbors had {n} {otherObjects} before they moved away.',
  'In a story {friendOf} likes, a character finds {n} {objects}.',
  'A relative of the family once counted {n} {otherObjects} in an afternoon.',
  'An old newspaper story mentions {n} {objects}.',
  'Someone at the library was reading about a farm with {n} {otherObjects}.',
  'On a rainy day last month, a neighbor counted {n} {objects}.',
  'A family friend has promised to bring {n} {otherObjects} next time.',
  'At a club meeting, the members shared {n} {objects}.',
  'A cousin of the family had {n} {objects} as a child.',
  'In a contest the year before, the winner had {n} {otherObjects}.',
  'Last spring, a neighbor ended up with {n} {objects}.',
  'A family friend keeps a list that shows {n} {otherObjects}.',
  'A visitor from out of town talked about {n} {objects}.',
  'During a holiday, a family friend came across {n} {otherObjects}.',
  'A coworker of the family once had {n} {objects} to deal with.',
  'A neighbor across the street has {n} {otherObjects} in the garage.',
  'Last weekend, a cousin of the family sorted {n} {objects} into boxes.',
  'A window display downtown shows {n} {otherObjects}.',
  'A classmate once counted {n} {otherObjects} on a school trip.',
  'A family friend is keeping {n} {objects} for a neighbor.',
  'The family next door was given {n} {otherObjects} as a gift.',
  'A local club collected {n} {objects} for a charity drive last year.',
  'In a photo from last summer, there are {n} {otherObjects} on a table.',
  'A teacher kept {n} {objects} in a cupboard at school.',
  'A neighbor said a market two towns away had {n} {otherObjects}.',
  'Someone on the bus was carrying {n} {objects}.',
  'A cousin of the family wants {n} {objects} for a birthday.',
  'Last year, a family friend gave away {n} {otherObjects}.',
  'A friend from the neighborhood lost {n} {otherObjects} in a move.',
  'A family down the road has {n} {otherObjects} in the attic.',
  'A relative of the family once had to count {n} {objects} for work.',
];

/**
 * Amounts of money others spent or earned on other things: in-topic for a problem about money, but
 * any of them fits any such problem, so a candidate takes at most `MONEY_ASIDES_AT_MOST`.
 */
export const MONEY_ASIDES: readonly string[] = [
  '{friendOf} has saved {m} toward a trip.',
  'On another occasion, {friendOf} spent {m} on a birthday present.',
  'Two weeks earlier, {friendOf} spent {m} on {otherObjects}.',
  'A family friend once earned {m} in a week.',
  'Last month, a neighbor spent {m} on groceries.',
  'A relative of the family paid {m} for a new lamp.',
  'A cousin of the family won {m} in a raffle.',
  'A family friend borrowed {m} from a sibling last year.',
  'Someone in the neighborhood sold an old bike for {m}.',
  'A family friend gave {m} to a charity last winter.',
  'A relative of the family found {m} in an old coat pocket.',
  'A neighbor paid {m} to have a bicycle repaired.',
  'A family friend spent {m} on concert tickets last year.',
  'The week before, a cousin of the family was paid {m} for yard work.',
  'A neighbor once lent a friend {m}.',
  'A family friend put {m} into a savings jar over the summer.',
  'A relative of the family spent {m} on a train ticket.',
  'A coworker of the family raised {m} for a school trip.',
  'Last autumn, a neighbor paid {m} for a pair of boots.',
  'A family friend was quoted {m} for a new roof gutter.',
  'Someone down the street sold a sofa for {m}.',
  'A family friend spent {m} on a gift for a wedding.',
  'At a yard sale, a neighbor made {m}.',
];
const MONEY_ASIDES_AT_MOST = 2;

/** Relations for a role-overlap sibling's subject, by the subject's pronoun, so the question's pronoun still points to one person. */
const OTHER_ROLE: Record<'he' | 'she', readonly string[]> = {
  she: ['brother', 'uncle', 'cousin Sam', 'neighbor Tom', 'coworker Raj', 'classmate Luis', 'friend Omar'],
  he: ['sister', 'aunt', 'cousin Ana', 'neighbor Rosa', 'coworker Mei', 'classmate Priya', 'friend Leah'],
};

/** Every CI template; the bench attributes added sentences to them (a role-overlap sibling is the seed's own). */
export const CI_TEMPLATES: readonly string[] = [...OFF_TOPIC, ...IN_TOPIC, ...MONEY_ASIDES];

/** The original cut into sentences, each with the spacing before it, and the question's start. */
function givenSentences(original: string): { pieces: string[]; questionStart: number } {
  const ends = sentenceBoundaries(original).filter(
    (end) => !endsWithAbbreviation(original.slice(0, end)) && !/\b[A-Z]\.$/.test(original.slice(0, end)),
  );
  const cuts = [0, ...ends, original.length];
  const pieces = cuts
    .slice(1)
    .map((end, i) => original.slice(cuts[i], end))
    .filter((p) => p.trim().length > 0);
  // The question is the last sentence (the one with "?" when there is one).
  const q = pieces.findIndex((p) => p.includes('?'));
  return { pieces, questionStart: q >= 0 ? q : pieces.length - 1 };
}

/**
 * A role-overlap sibling of a given (GSM-IC's hardest kind): the given's own words with its subject,
 * the problem's person, changed to a relation of theirs and every number changed to a new one in its
 * range. Only for a given that starts with the person (name or he/she) and a question that names that
 * person, so the question still asks about one of them.
 */
function swapped(
  given: string,
  question: string,
  entities: Entities,
  rng: PyRandom,
  avoid: ReadonlySet<string>,
): string | undefined {
  const sentence = given.trim();
  const pronoun = entities.pronouns.subject;
  if (pronoun !== 'he' && pronoun !== 'she') return undefined;
  // The person first, or after a fronted time or place phrase ("On Monday, he watched ...").
  const fronted =
    /^(?:On|In|At|During|After|Before|Last|This|Every|Each|Over)\b[^,]{0,40}, /.exec(sentence)?.[0] ?? '';
  const rest = sentence.slice(fronted.length);
  const subject = new RegExp(
    `^(?:${entities.named ? `${entities.person}|` : ''}${fronted ? pronoun : 'He|She'})\\b(?!')`,
  ).exec(rest);
  if (!subject) return undefined;
  // A later "he" or "his" would point at the relation or at the person, no one can tell which.
  if (/\b(?:he|she|him|her|his|hers|himself|herself)\b/i.test(rest.slice(subject[0].length)))
    return undefined;
  const asks = new RegExp(
    `\\b(?:${entities.named ? `${entities.person}|` : ''}${pronoun}|${entities.pronouns.possessive})\\b`,
    'i',
  );
  if (!asks.test(question)) return undefined;
  const relation = rng.choice(OTHER_ROLE[pronoun]);
  // "Toula's brother", never "His brother": a copied pronoun may point at either (issue 36).
  if (!entities.named) return undefined;
  const owner = `${entities.person}'s`;
  return `${renumber(fronted, rng, avoid)}${owner} ${relation}${renumber(rest, rng, avoid).slice(subject[0].length)}`;
}

/** Where an elsewhere sibling is set: tense-neutral, and plainly not the problem's own place. */
const ELSEWHERE: readonly string[] = [
  'In the next town over, ',
  "At a neighbor's house, ",
  'In a similar story a friend told, ',
  'For another family, ',
  'At a different place nearby, ',
  'In a puzzle book on the shelf, ',
];

/** Words after "in the" that are a time or a part, not a place ("in the next thirty seconds"). */
const NOT_A_PLACE = new Set([
  'next',
  'last',
  'first',
  'final',
  'same',
  'other',
  'rest',
  'past',
  'end',
  'beginning',
  'middle',
  'morning',
  'afternoon',
  'evening',
  'night',
  'day',
  'week',
  'month',
  'year',
  'world',
  'meantime',
  'future',
  'whole',
  'entire',
  'total',
  'remaining',
  'second',
  'third',
  'fourth',
  'fifth',
]);

/**
 * An in-topic sibling of a given without a person to swap ("A loaf of bread has 24 slices."): the
 * same sentence set elsewhere, with its numbers new ("In the next town over, a loaf of bread has 31
 * slices."). Only for a given that starts with an article, "There" or "It".
 */
function elsewhere(given: string, rng: PyRandom, avoid: ReadonlySet<string>): string | undefined {
  const sentence = given.trim();
  const m = /^(The|A|An|There|It|Each|Every)\b/.exec(sentence);
  if (!m) return undefined;
  // Not what holds everywhere ("27 unicorns left in the world") nor what names the problem's own
  // person ("it takes Billy 5 seconds"): set elsewhere, either contradicts the given.
  if (/\b(?:in the world|on earth|in total|in all|altogether)\b/i.test(sentence)) return undefined;
  if (
    /\b(?:he|she|him|his|her|hers)\b/i.test(sentence) ||
    /\b[A-Z][a-z]+\b/.test(sentence.slice(m[0].length))
  )
    return undefined;
  // "The kernels increase" set elsewhere is "similar kernels increase", "The bag holds" "a similar bag holds".
  const plural = /^The [a-z]+[^s]s\b/.test(sentence);
  const start = m[1] === 'The' ? (plural ? 'similar' : 'a similar') : (m[1] as string).toLowerCase();
  // "at the bakery" names the problem's own place: set elsewhere it is "at a bakery".
  const rest = renumber(sentence, rng, avoid)
    .slice((m[1] as string).length)
    .replace(/\b(at|in|from) the ([a-z]+)\b/g, (all, prep: string, noun: string) =>
      noun.endsWith('s') || NOT_A_PLACE.has(noun)
        ? all
        : `${prep} ${/^[aeiou]/.test(noun) ? 'an' : 'a'} ${noun}`,
    );
  return `${rng.choice(ELSEWHERE)}${start}${rest}`;
}

/** The items that pass `test`, then the rest. */
function partition<T>(items: readonly T[], test: (item: T) => boolean): [T[], T[]] {
  return [items.filter(test), items.filter((x) => !test(x))];
}

/** A number as written, a space grouping thousands ("$400 000") included. */
const GROUPED_NUMBER = /\$?\d{1,3}(?: \d{3})+(?!\d)|\$?\d+(?:[.,]\d+)*/g;

/**
 * Every number of a sentence replaced by a new one in its range, none of the original's: "$400 000"
 * as one amount, written the same way; "1/3" as a fraction still below one ("2/5", never "2/2").
 */
function renumber(sentence: string, rng: PyRandom, avoid: ReadonlySet<string>): string {
  return sentence.replace(new RegExp(`\\d+\\/\\d+|${GROUPED_NUMBER.source}`, 'g'), (n) => {
    const fraction = /^(\d+)\/(\d+)$/.exec(n);
    if (fraction) {
      const value = Number(fraction[1]) / Number(fraction[2]);
      for (let tries = 0; tries < 20; tries++) {
        const b = rng.randint(2, 9);
        const a = rng.randint(1, b - 1);
        if (Math.abs(a / b - value) > 1e-9 && !avoid.has(String(a)) && !avoid.has(String(b)))
          return `${a}/${b}`;
      }
      return n;
    }
    if (!n.includes(' ')) return freshNumber(rng, n, avoid);
    const fresh = freshNumber(rng, n.replace(/ /g, ''), avoid);
    return fresh.replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
  });
}

/** A planned distractor and the given it follows (-1: before the first). */
interface Planned {
  text: string;
  after: number;
}

/** The kind of the leading distractor, which sets the candidate's subtype. */
type Lead = 'background' | 'off-topic' | 'in-topic' | 'role-overlap';

/**
 * The distractors of one candidate and the givens they go among. L1: one scene sentence. L2-L5: a
 * lead that sets the level's kind, then the rest of the templates and a quiet scene sentence or
 * two. Every draw from `rng` happens in the same order on every run, so a seed gives the same suite.
 */
function plan(seed: Seed, level: Level, rng: PyRandom): { planned: Planned[]; pieces: string[]; lead: Lead } {
  const original = seed.question;
  const entities = extractEntities(original);
  const slots: Slots = slotsFor(entities, rng);
  const topic = topicOf(original, entities);
  const { pieces, questionStart } = givenSentences(original);
  // Among the givens, never after the question: before the first, or after any given whose next
  // sentence does not open with a pronoun, which an added person would take (issue 36).
  const spots = [
    -1,
    ...pieces.slice(0, questionStart).flatMap((_, i) => (opensWithPronoun(pieces[i + 1] ?? '') ? [] : [i])),
  ];
  const spot = () => rng.choice(spots);
  const scene = sceneSentences(original, rng).map((s) => s.text);
  if (level === 1) {
    // One sentence; the shortest first, so aiming walks from the mildest to the longest.
    // From a seeded handful, so the shortest scene sentences do not take every L1 test.
    const one = scene.slice(0, 8).map((text) => ({ text, after: spot() }));
    return { planned: one.sort((a, b) => a.text.length - b.text.length), pieces, lead: 'background' };
  }
  const { avoid, filled } = numberFiller(original, slots, rng);
  const draw: Drawing = { level, rng, filled, spot };
  const pools = templatePools(topic, rng);
  // The lead's kind names the candidate: a problem no in-topic template fits leads off-topic.
  const inTopicLead = pools.inTopic.length > 0;
  const siblings = siblingsOf(pieces, questionStart, entities, draw, avoid);
  const out: Planned[] = [...leadOf(draw, pools, siblings)];
  addRest(out, draw, pools, scene);
  const kind: Lead =
    level === 2
      ? 'off-topic'
      : level >= 4 && siblings.length > 0
        ? 'role-overlap'
        : inTopicLead
          ? 'in-topic'
          : 'off-topic';
  // The first sentence always carries numbers, so every L2-L5 candidate has some.
  if (out.length === 0 || numbersIn(out[0]?.text ?? '').length === 0)
    return { planned: [], pieces, lead: kind };
  return { planned: out, pieces, lead: kind };
}

/** What an L2-L5 plan draws with: a template filled with fresh numbers, a spot among the givens. */
interface Drawing {
  level: Level;
  rng: PyRandom;
  filled: (template: string) => string;
  spot: () => number;
}

/**
 * The original's numbers to avoid, and a template's slots filled with new numbers in the range of
 * the original's counts and everyday amounts.
 */
function numberFiller(
  original: string,
  slots: Slots,
  rng: PyRandom,
): { avoid: Set<string>; filled: (template: string) => string } {
  // "$400 000" is one amount (and its "$400" and "000" are the gate's numbers, avoided too).
  const amounts = original.match(GROUPED_NUMBER) ?? [];
  const avoid = new Set(
    [...numbersIn(original), ...amounts.map((n) => n.replace(/ /g, ''))].map(numberValue),
  );
  const counts = amounts.filter((n) => !/[$., ]/.test(n));
  const money = amounts.filter((n) => n.startsWith('$')).map((n) => n.replace(/ /g, ''));
  const everyday = money.filter((n) => Number(numberValue(n)) <= 500);
  const filled = (t: string) =>
    fill(t, slots, {
      n: freshNumber(rng, counts.length > 0 ? rng.choice(counts) : '7', avoid),
      k: freshNumber(rng, '12', avoid),
      // An everyday amount: "a neighbor paid $272 for boots", never $612 000 because a house costs that.
      m: freshNumber(rng, rng.choice([...everyday, '$12']), avoid),
    });
  return { avoid, filled };
}

/** The templates that fit the topic, each pool shuffled; the lead takes from their fronts. */
interface TemplatePools {
  offTopic: string[];
  inTopic: string[];
}

function templatePools(topic: ReturnType<typeof topicOf>, rng: PyRandom): TemplatePools {
  const offTopic = shuffled(templatesFor(OFF_TOPIC, topic), rng);
  // One sentence about the problem's place at most: "the store" fits most problems, so its
  // templates would otherwise lead the suite.
  const [atPlace, notAtPlace] = partition(shuffled(templatesFor(IN_TOPIC, topic), rng), (t) =>
    t.includes('{place}'),
  );
  const inTopic = shuffled(
    [
      ...notAtPlace,
      ...atPlace.slice(0, 1),
      ...shuffled(templatesFor(MONEY_ASIDES, topic), rng).slice(0, MONEY_ASIDES_AT_MOST),
    ],
    rng,
  );
  return { offTopic, inTopic };
}

/**
 * Siblings of the givens with numbers: the same relation held by someone else (two at L5), or
 * at L4-L5 for a given without a person, the same thing elsewhere.
 */
function siblingsOf(
  pieces: readonly string[],
  questionStart: number,
  entities: ReturnType<typeof extractEntities>,
  { level, rng }: Drawing,
  avoid: ReadonlySet<string>,
): Planned[] {
  const siblings: Planned[] = [];
  const question = pieces.slice(questionStart).join(' ');
  pieces.slice(0, questionStart).forEach((given, i) => {
    if (numbersIn(given).length === 0) return;
    // After its given, or else just before it, where no pronoun follows that it could take (issue 36).
    const free = (k: number) => !opensWithPronoun(pieces[k + 1] ?? '');
    const at = free(i) ? i : free(i - 1) ? i - 1 : undefined;
    if (at === undefined) return;
    const swap = swapped(given, question, entities, rng, avoid);
    if (swap) siblings.push({ text: swap, after: at });
    // At L5 a second relation does the same ("Maria's brother ...", "Maria's neighbor Tom ...").
    const again = level === 5 && swap ? swapped(given, question, entities, rng, avoid) : undefined;
    if (again && again.split(' ').slice(0, 3).join(' ') !== swap?.split(' ').slice(0, 3).join(' '))
      siblings.push({ text: again, after: at });
    // At L4-L5 the givens without a person get an elsewhere sibling instead.
    const other = level >= 4 && !swap ? elsewhere(given, rng, avoid) : undefined;
    if (other) siblings.push({ text: other, after: at });
  });
  return siblings;
}

/**
 * Harder at higher levels (GSM-IC, GSM-Plus): L2 leads with an off-topic number, L3 with the
 * problem's own things held by someone else, L4-L5 with siblings of the givens. The lead's
 * template is taken out of its pool.
 */
function leadOf({ level, rng, filled, spot }: Drawing, pools: TemplatePools, siblings: Planned[]): Planned[] {
  const { offTopic, inTopic } = pools;
  return level === 2
    ? offTopic.splice(0, 1).map((t) => ({ text: filled(t), after: spot() }))
    : level === 3
      ? (inTopic.length > 0 ? inTopic : offTopic)
          .splice(0, 1)
          .map((t) => ({ text: filled(t), after: spot() }))
      : shuffled(siblings, rng);
}

/**
 * The rest after the lead, up to MAX_SENTENCES: from L3 one or two number-free scene sentences
 * among them, so the numbers stand out less, never more: the distractors are what the level adds,
 * not filler.
 */
function addRest(
  out: Planned[],
  { level, rng, filled, spot }: Drawing,
  pools: TemplatePools,
  scene: string[],
): void {
  const { offTopic, inTopic } = pools;
  // The rest shuffled together, so no few templates that fit every problem lead every candidate;
  // at L3 a few off-topic ones among the in-topic, at L4-L5 the in-topic ones first (more on-topic
  // as the level rises) and off-topic ones only after them.
  // From a small pool of fitting in-topic templates (a problem about points or emails) few per
  // candidate, so no one of them fills the suite: one for every 12 that fit.
  const inTake = Math.max(1, Math.min(IN_TOPIC_AT_TOP, Math.floor(inTopic.length / 12)));
  const order =
    level <= 3
      ? shuffled(
          [
            ...inTopic.slice(0, inTake + (level === 3 ? 1 : 0)),
            ...offTopic.slice(0, level === 3 ? 4 : offTopic.length),
          ],
          rng,
        )
      : [...inTopic.slice(0, inTake), ...offTopic.slice(0, OFF_TOPIC_AT_TOP)];
  const quiet = level >= 3 ? scene.slice(0, rng.randint(1, 2)) : [];
  while (out.length < MAX_SENTENCES && (order.length > 0 || quiet.length > 0)) {
    const useQuiet = out.length > 0 && quiet.length > 0 && (order.length === 0 || rng.random() < 0.2);
    const text = useQuiet ? (quiet.shift() as string) : filled(order.shift() as string);
    out.push({ text, after: spot() });
  }
}

/** The givens with each distractor after the given it was planned for, in planned order. */
function assemble(pieces: readonly string[], sentences: readonly Planned[]): string {
  const at = (i: number) => sentences.filter((s) => s.after === i).map((s) => s.text);
  const before = at(-1);
  let text = before.length > 0 ? `${before.join(' ')} ${pieces[0]?.trimStart() ?? ''}` : (pieces[0] ?? '');
  pieces.forEach((piece, i) => {
    if (i > 0) text += piece;
    const added = at(i);
    if (added.length > 0) text += ` ${added.join(' ')}`;
  });
  return text;
}

/**
 * The most off-topic distractors at L4-L5: their levels are reached first with the problem's own
 * kind of numbers (siblings of its givens, its own things held by others), then with unrelated
 * facts, never with a wall of them.
 */
const OFF_TOPIC_AT_TOP = 8;
/** The most in-topic templates a candidate takes at L4-L5, so the ones that fit most problems do not fill every suite. */
const IN_TOPIC_AT_TOP = 4;

/** The most distractor sentences a candidate gets (the L5 band needs up to about 3.7x the original's length). */
const MAX_SENTENCES = 48;

export function contextInterferenceRules({ seed, level, rng, target }: RulesInput): RulesMade | undefined {
  const { planned, pieces, lead } = plan(seed, level, rng);
  const aimed = aimAtLevel(
    target,
    planned.length,
    // L1: one sentence of rising length; L2-L5: the first k+1 planned sentences.
    (k) => assemble(pieces, level === 1 ? [planned[k] as Planned] : planned.slice(0, k + 1)),
  );
  if (!aimed) return undefined;
  const sentences = level === 1 ? 1 : aimed.strength + 1;
  return { text: aimed.text, name: `distractors-${sentences}`, subtype: lead };
}
