/**
 * Sentences about a problem's own scene that add no number and no quantity relation: its setting,
 * its person's motives and habits, its things and place, and the question restated in other words.
 * Context Load pads with them and Context Interference uses them as its number-free background
 * (on-topic load, not stock sentences; no template over 5% of a family's tests).
 */

import type { PyRandom } from '../../../util/random.js';
import { extractEntities } from '../text/entities.js';
import { analyse } from '../text/morphology.js';
import { isNumberWord } from '../text/tokens.js';
import { LEX_FILE, synsets } from '../text/wordnet.js';
import { fill, type Slots, shuffled, slotsFor, templatesFor, topicOf } from './rules-common.js';

/** The person's motives, habits and day (need a named person). */
const PERSON: readonly string[] = [
  '{person} wanted to get the details right.',
  '{person} had been looking forward to this.',
  '{person} likes to plan things carefully.',
  '{person} thought it over before starting.',
  '{person} was in a good mood that day.',
  '{person} had talked it over with a friend beforehand.',
  '{person} had done something like this before.',
  '{person} prefers to take things step by step.',
  '{person} did not want to rush.',
  '{person} had a cup of tea before getting started.',
  '{person} tends to keep careful notes.',
  '{personPossessive} friends had heard about the plan.',
  '{personPossessive} day had started early.',
  '{personPossessive} plan was a simple one.',
  'Friends describe {person} as careful and patient.',
  'Nobody had asked {person} to do this; it was {his} own idea.',
  '{person} made sure nothing was forgotten.',
  '{person} was pleased with how the day was going.',
  '{person} had cleared the afternoon for it.',
  '{person} finds this kind of task relaxing.',
  'For {person}, this was an ordinary part of the week.',
  '{person} did not mind the effort.',
  '{person} likes things to be done properly.',
  '{person} had mentioned the plan to a neighbor.',
  '{person} had been meaning to sort this out for a while.',
  'As usual, {person} wanted to know exactly where things stood.',
  '{person} is the kind of person who likes a clear answer.',
  'Those who know {person} say {he} is good with details.',
  '{person} was calm about it.',
  '{person} planned ahead.',
  '{person} had been up since early morning.',
  '{person} was looking forward to the weekend.',
  '{person} wanted a clear picture of things.',
  '{person} does not like loose ends.',
  '{person} had a good feeling about it.',
  '{person} was in no hurry.',
  '{person} likes a tidy plan.',
  '{person} had set aside time for this.',
  '{personPossessive} week had been a busy one.',
  '{personPossessive} friends call {him} dependable.',
  '{person} wanted to be sure.',
  '{person} is good at keeping track.',
  '{person} had thought of everything.',
  'It was a good day for {person}.',
];

/** The things counted (need counted things; worded to fit abstract ones, "points", too). */
const THINGS: readonly string[] = [
  'The {objects} were what mattered here.',
  'Keeping track of the {objects} took some care.',
  'Nobody had expected the {objects} to be so important.',
  'The {objects} had been on the list from the start.',
  'Everyone wanted to know about the {objects}.',
  'The {objects} were the main topic of conversation.',
  'Talk soon turned to the {objects}.',
  'The {objects} were not hard to keep track of.',
  'Some of the conversation was about the {otherObjects}.',
  'The {objects} were part of the plan from early on.',
  '{person} had always liked {objects}.',
  'Friends sometimes ask {person} about {otherObjects}.',
  '{person} had been thinking about the {objects} all week.',
  '{person} kept an eye on the {objects}.',
  '{person} knew the {objects} would matter.',
  'To {person}, the {objects} were the interesting part.',
  '{personPossessive} interest in {objects} goes back a long way.',
  'The {objects} were easy to find.',
  'The {objects} were in plain sight.',
  'The {objects} were no surprise to anyone.',
  'Everyone knew about the {objects}.',
  'The {objects} had been talked about before.',
  'Nobody was worried about the {objects}.',
  'The {objects} were the usual sort.',
  'A friend had asked about the {objects} that morning.',
  'The {objects} were worth a closer look.',
  '{person} had mentioned the {objects} to a friend.',
  '{person} had an eye for {objects}.',
  '{person} enjoys anything to do with {objects}.',
];

/** The problem's place (need a place it names). */
const PLACE: readonly string[] = [
  'The {place} was busy that day.',
  'The {place} is a familiar spot in the area.',
  'The {place} has been around for a long time.',
  'The {place} was quieter than usual.',
  'People in the area know the {place} well.',
  'The {place} looked much as it always did.',
  'The {place} was where it all happened.',
  'Getting to the {place} was easy.',
  'The {place} had a relaxed feel that morning.',
  'Neighbors say the {place} is worth a visit.',
  '{person} knows the {place} well.',
  '{person} has fond memories of the {place}.',
  'The {place} felt welcoming.',
  '{person} likes the {place}.',
];

/** A single thing the problem names (`the car`, `a loaf`): need one. */
const THING: readonly string[] = [
  'The {thing} was easy to spot.',
  'Nobody had any complaints about the {thing}.',
  'The {thing} was in good shape.',
  'The {thing} had been there for a while.',
  'Everyone had an opinion about the {thing}.',
  '{person} had looked at the {thing} closely.',
  'The {thing} had been chosen with some care.',
  'A note had been left next to the {thing}.',
  'The {thing} was just where it should be.',
  'It was hard not to notice the {thing}.',
  'Nobody had thought much about the {thing} until then.',
  'The {thing} looked ordinary enough.',
  '{person} was glad to have the {thing}.',
  '{personPossessive} friends had asked about the {thing}.',
  'The {thing} came up again later in the conversation.',
  'There was nothing unusual about the {thing}.',
  'The {thing} had been a good choice.',
  '{person} liked the {thing}.',
  'The {thing} mattered here.',
  'The {thing} was the usual kind.',
  'A friend had mentioned the {thing} earlier.',
  'Nobody was worried about the {thing}.',
  'The {thing} was worth a closer look.',
  'The {thing} caught the eye.',
  'The {thing} was well looked after.',
  'The {thing} was part of the picture.',
];

/** The question restated in other words (need the counted thing of "How many X"). */
const QUESTION: readonly string[] = [
  'What is wanted in the end is the number of {asked}.',
  'The real question is about the {asked}.',
  'Everything comes down to the {asked}.',
  'The thing to find out concerns the {asked}.',
  'In the end, attention turns to the {asked}.',
  'The {asked} are what this is really about.',
  'Attention here belongs on the {asked}.',
  'Sooner or later the talk comes back to the {asked}.',
];

/**
 * Setting without slots: only for problems that name too little for the rest. No time of day or
 * week: "It was a weekday." would contradict a problem set on a Sunday.
 */
export const GENERIC_SCENE: readonly string[] = [
  'It was a quiet day.',
  'The weather was mild.',
  'Nothing about the day was unusual.',
  'Everyone involved took their time.',
  'There was no particular rush.',
  'It had rained a little the night before.',
  'Situations like this come up in everyday life.',
  'It is the kind of situation many families know well.',
  'The plan had been made some days before.',
  'Everyone involved wanted a clear answer.',
  'It was the sort of question that comes up at home.',
  'The details had been written down carefully.',
  'Nobody involved was in a hurry.',
  'It had been a long week for everyone.',
  'Questions like this come up often.',
  'There was a light breeze outside.',
  'It was an ordinary kind of day.',
  'Everything had been arranged in advance.',
  'The day had started like any other.',
  'Everyone had a say in how it went.',
  'It was simple to describe and harder to settle.',
  'Things had been going smoothly so far.',
  'The plan seemed sensible to everyone.',
  'People had been talking about it for a while.',
  'There had been some discussion beforehand.',
  'The whole thing was fairly routine.',
  'Nobody expected any surprises.',
  'It was a good time to sort things out.',
  'The facts had been checked carefully.',
  'Everything was written down plainly.',
  'There was plenty of time to think it through.',
  'The arrangements were simple.',
  'It was the kind of thing that is easy to lose track of.',
];

/** Every scene template, by what it needs; the bench attributes added sentences to them. */
export const SCENE_TEMPLATES: readonly string[] = [
  ...PERSON,
  ...THINGS,
  ...PLACE,
  ...THING,
  ...QUESTION,
  ...GENERIC_SCENE,
];

export interface SceneSentence {
  text: string;
  /** Whether it is about the problem's own person, things, place or question (not generic setting). */
  onTopic: boolean;
}

/** The counted thing the question asks about: "How many spoons were ..." gives "spoons". */
export function askedAbout(question: string): string | undefined {
  const m = /\bhow many ((?:[a-z]+ ){0,2}[a-z]+)/i.exec(question);
  if (!m) return undefined;
  const words = (m[1] as string).toLowerCase().split(' ');
  // "how many chocolate chip cookies": up to the first plural noun; "how many like to": none.
  const plural = words.findIndex((w) => analyse(w, 'noun').some((a) => a.form === 'plural'));
  if (
    plural < 0 ||
    words.slice(0, plural + 1).some((w) => /^(?:more|fewer|less|of|times|do|does|did)$/.test(w)) ||
    // "how many days": a unit is no thing of the problem's ("The days are the point of interest").
    /^(?:seconds|minutes|hours|days|weeks|months|years|miles|kilometers|meters|feet|inches|yards|pounds|ounces|grams|kilograms|liters|gallons|cups|dollars|cents|times|trips|acres|hectares)$/.test(
      words[plural] as string,
    )
  )
    return undefined;
  return words.slice(0, plural + 1).join(' ');
}

/** Words WordNet files as made things that a problem uses as measures or parts of speech ("the total"). */
const NOT_THINGS =
  /^(?:total|rest|sum|number|amount|end|beginning|start|same|first|last|whole|average|price|cost)$/;

/** A singular thing named after "the"/"a" that the other scene slots do not cover, for `{thing}`. */
function singularThing(question: string, slots: Slots): string | undefined {
  for (const m of question.matchAll(
    /\b(?:the|a|an|his|her|their) ([a-z]{3,})\b(?![- ](?:of|per)\b)(?: ([a-z]+))?/g,
  )) {
    const w = m[1] as string;
    if (/s$/.test(w) || w === slots.place || slots.objects.includes(w) || isNumberWord(w)) continue;
    // A word that qualifies the noun after it names no thing: "the total number", "a pineapple field".
    const next = m[2];
    if (next && synsets(next, 'noun').length > 0 && !analyse(next, 'verb').some((a) => a.form !== 'base'))
      continue;
    if (NOT_THINGS.test(w)) continue;
    // A made thing in WordNet's first sense: not "the sun", "the dinner", "the birthday", "the two".
    const first = synsets(w, 'noun')[0];
    if (first?.lexFile === LEX_FILE.artifact) return w;
  }
  return undefined;
}

/**
 * The scene sentences that fit the problem, shuffled by `rng`: the on-topic ones first (person,
 * things, place, question), then generic setting, so padding reaches for generic text only when
 * the problem's own is used up.
 */
export function sceneSentences(question: string, rng: PyRandom): SceneSentence[] {
  const entities = extractEntities(question);
  const topic = topicOf(question, entities);
  const slots: Slots = slotsFor(entities, rng);
  const asked = askedAbout(question);
  const thing = singularThing(question, slots);
  const extra: Record<string, string> = {};
  if (asked) extra.asked = asked;
  if (thing) extra.thing = thing;
  // "say they is good with details": a pronoun slot only for a he or a she.
  const fits = (t: string) =>
    (!t.includes('{asked}') || asked !== undefined) &&
    (!t.includes('{thing}') || thing !== undefined) &&
    (!/\{(?:he|him|his)\}/.test(t) || slots.he !== 'they');
  // At most one restated question and one sentence about the single thing per problem: more reads
  // as a loop ("The school was ready. The school caught the eye.").
  const pick = (ts: readonly string[], most: number) =>
    shuffled(templatesFor(ts, topic).filter(fits), rng).slice(0, most);
  // The kinds taken in turn (the person, the things, the place, the single thing, the question), so
  // a run of padding is not three sentences about the blocks.
  const kinds = [
    pick(PERSON, PERSON.length),
    // Things one can see and keep only: "The classes were easy to picture" reads as nonsense (issue 36).
    topic.physical ? pick(THINGS, THINGS.length) : [],
    pick(PLACE, PLACE.length),
    pick(THING, 1),
    pick(QUESTION, 1),
  ].filter((k) => k.length > 0);
  const onTopic: string[] = [];
  for (let i = 0; kinds.some((k) => k.length > i); i++)
    for (const k of shuffled(kinds, rng)) if (k[i] !== undefined) onTopic.push(k[i] as string);
  return [
    ...onTopic.map((t) => ({ text: fill(t, slots, extra), onTopic: true })),
    ...shuffled(GENERIC_SCENE, rng).map((t) => ({ text: fill(t, slots), onTopic: false })),
  ];
}
