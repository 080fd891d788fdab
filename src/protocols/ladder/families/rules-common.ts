/**
 * Small pieces the rules generators share: a family's rules run with its generator record, seeded
 * picks, filling sentence templates with a problem's own entities, and inserting sentences at
 * sentence boundaries.
 */

import type { PyRandom } from '../../../util/random.js';
import type { Entities } from '../text/entities.js';
import { analyse } from '../text/morphology.js';
import { capitalize, endsWithAbbreviation } from '../text/tokens.js';
import { LEX_FILE, synsets } from '../text/wordnet.js';
import type { Family, GeneratorInfo, Level, Seed } from '../types.js';
import type { Candidate, LadderFamily, RulesMade, RulesOptions } from './contract.js';

/** The generator record of a rules candidate; `seed` is the suite's derived seed when the caller passes it. */
function rulesGenerator(
  family: Family,
  subtype: string,
  attempt: number,
  opts?: RulesOptions,
): GeneratorInfo {
  return { kind: 'rules', name: `${family}/${subtype}`, seed: opts?.rngSeed ?? 0, attempt };
}

/** A rules candidate: what a family's rules made, with the generator record (family, attempt, seed). */
/**
 * A family the rules cannot write well on short choice and text questions (issue 36: a reviewer
 * accepted SV 1/4, CI 0-1/4, CL 0/4 there): reported unavailable with this reason.
 */
export function needsGenerator(what: string): { unavailable: string } {
  return { unavailable: `needs --generator: ${what}` };
}

export function rulesCandidate(
  family: Family,
  made: RulesMade,
  attempt: number,
  opts?: RulesOptions,
): Candidate {
  const candidate: Candidate = {
    text: made.text,
    generator: rulesGenerator(family, made.name, attempt, opts),
    ...(made.subtype !== undefined && { subtype: made.subtype }),
  };
  if (made.kbType !== undefined) candidate.kbType = made.kbType;
  return candidate;
}

/**
 * A family's rules on a seed as it is: the aim target (the family, question, level and band
 * options) made for it, and the generator record added to what they made.
 */
export function familyRules(
  family: LadderFamily,
  seed: Seed,
  level: Level,
  attempt: number,
  rng: PyRandom,
  opts?: RulesOptions,
): Candidate | undefined {
  const original = seed.question;
  const target = { family, original, level, ...(opts && { opts }) };
  const made = family.rules({ seed, original, level, attempt, rng, target });
  return made && rulesCandidate(family.code, made, attempt, opts);
}

/** A seeded shuffled copy (CPython's shuffle, so Python can replay it). */
export function shuffled<T>(items: readonly T[], rng: PyRandom): T[] {
  const copy = [...items];
  rng.shuffle(copy);
  return copy;
}

/** Slots a sentence template may use. */
export interface Slots {
  person: string;
  /** "Toula's" or "their". */
  personPossessive: string;
  he: string;
  him: string;
  his: string;
  objects: string;
  otherObjects: string;
  place: string;
  /** "a friend of Toula", or "a family friend" when the problem names nobody. */
  friendOf: string;
}

/** What a problem is about, for choosing only the templates that fit it (no store where there is none). */
export interface Topic {
  /** The problem names a place (`bakery`), so `{place}` is its own. */
  place: boolean;
  /** The problem counts things, so `{objects}` is its own. */
  objects: boolean;
  /** Money, buying or selling appear in it, so shop talk fits. */
  money: boolean;
  /** Food or cooking appear in it, so a recipe fits. */
  food: boolean;
  /** The counted things can be kept, carried or lost (not "emails" or "points"). */
  physical: boolean;
  /** The problem names its person, so `{person}` reads as a name, not "someone". */
  named: boolean;
}

const MONEY =
  /\$|\b(?:cost|costs|price|prices|priced|pay|paid|pays|buy|buys|bought|sell|sells|sold|spend|spent|dollars?|cents?|earn|earns|earned|store|shop|market)\b/i;
const FOOD =
  /\b(?:bake|baked|bakes|bakery|cook|cooks|cooked|recipe|recipes|cake|cakes|cookies|pie|pies|eggs?|flour|sugar|pizza|pizzas|bread|muffins|cupcakes|donuts|sandwich(?:es)?|soup|meal|meals|fruit|apples|oranges|bananas|vegetables)\b/i;

export function topicOf(text: string, entities: Entities): Topic {
  return {
    place: entities.places.length > 0,
    objects: entities.objects.length > 0,
    physical: entities.objects.length > 0 && entities.objects.every(isPhysical),
    money: MONEY.test(text),
    food: FOOD.test(text),
    named: entities.named,
  };
}

/** A plural whose first WordNet sense is a made thing, food, an object or a substance. */
function isPhysical(phrase: string): boolean {
  const head = phrase.split(' ').at(-1) ?? '';
  const base = analyse(head, 'noun').find((a) => a.form === 'plural')?.base ?? head;
  const lexFile = synsets(base, 'noun')[0]?.lexFile;
  return lexFile !== undefined && PHYSICAL.has(lexFile);
}

/** Things one keeps in a cupboard, carries or loses on a trip: not animals ("7 tunas in a cupboard") or plants. */
const PHYSICAL = new Set<number>([LEX_FILE.artifact, LEX_FILE.food, LEX_FILE.object, LEX_FILE.substance]);

/** Templates that keep, carry, store or lose the things: only for things one can ("12 emails in the garage"). */
const NEEDS_PHYSICAL =
  /\b(?:garage|attic|cupboard|boxes|carrying|lost|bring|table|display|kept|keeps|keeping|holding|stores|gave away|given|storage|birthday|farm|as a child|collected|counted|count|found|shared|came across|on a trip|ended up with|promised|bought|market|deal with|gave)\b/;

const NEEDS_MONEY = /\{m\}|\b(?:sold|sale|charges|paid|spent|customer|stall|prices?|cost)\b/;
const NEEDS_FOOD = /\b(?:chef|recipe)\b/;

/** Whether a template's slots and subject fit the problem (its place, its things, money, food). */
export function fitsTopic(template: string, topic: Topic): boolean {
  if (template.includes('{place}') && !topic.place) return false;
  if (/\{(?:objects|otherObjects)\}/.test(template) && !topic.objects) return false;
  if (NEEDS_MONEY.test(template) && !topic.money) return false;
  if (NEEDS_FOOD.test(template) && !topic.food) return false;
  if (/\{(?:objects|otherObjects)\}/.test(template) && NEEDS_PHYSICAL.test(template) && !topic.physical)
    return false;
  if (/\{(?:person|personPossessive)\}/.test(template) && !topic.named) return false;
  return true;
}

/** The templates that fit the problem's topic (see fitsTopic). */
export function templatesFor(templates: readonly string[], topic: Topic): string[] {
  return templates.filter((t) => fitsTopic(t, topic));
}

export function slotsFor(entities: Entities, rng: PyRandom): Slots {
  const objects = entities.objects.length > 0 ? entities.objects : ['items'];
  const first = rng.choice(objects);
  const others = objects.filter((o) => o !== first);
  return {
    person: entities.person,
    personPossessive: entities.named ? `${entities.person}'s` : 'their',
    he: entities.pronouns.subject,
    him: entities.pronouns.object,
    his: entities.pronouns.possessive,
    objects: first,
    otherObjects: others.length > 0 ? rng.choice(others) : first,
    place: entities.places[0] ?? 'store',
    friendOf: entities.named ? `a friend of ${entities.person}` : 'a family friend',
  };
}

/** Fills `{slot}` markers; the sentence's first letter is capitalised. */
export function fill(template: string, slots: Slots, extra: Record<string, string> = {}): string {
  const text = template.replace(/\{(\w+)\}/g, (_, key: string) => {
    const value =
      (extra as Record<string, string | undefined>)[key] ?? (slots as unknown as Record<string, string>)[key];
    if (value === undefined) throw new Error(`template slot {${key}} has no value`);
    return value;
  });
  return capitalize(text);
}

/** Offsets in `text` just after each sentence end (`.`, `!`, `?` followed by whitespace), where a sentence may be inserted. */
export function sentenceBoundaries(text: string): number[] {
  const out: number[] = [];
  for (const m of text.matchAll(/[.!?]["')]?(?=\s)/g)) {
    const end = (m.index ?? 0) + m[0].length;
    // "Mr. Yu" is one name: nothing goes between its parts.
    if (!endsWithAbbreviation(text.slice(0, end))) out.push(end);
  }
  return out;
}

/** Inserts sentences after the boundary at `offset` (0 = before everything, text.length = after), spaced by single spaces. */
export function insertAt(text: string, offset: number, sentences: readonly string[]): string {
  if (sentences.length === 0) return text;
  const block = sentences.join(' ');
  if (offset <= 0) return `${block} ${text}`;
  if (offset >= text.length) return `${text} ${block}`;
  return `${text.slice(0, offset)} ${block}${text.slice(offset)}`;
}

/**
 * A new number shaped like `like` (same `$`, same number of decimals, similar size) whose value is
 * none of `avoid` (values as `numberValue` gives them), for distractors that must not reuse the
 * original's numbers.
 */
export function freshNumber(rng: PyRandom, like: string, avoid: ReadonlySet<string>): string {
  const dollar = like.startsWith('$');
  const bare = like.replace(/^\$/, '').replace(/,(?=\d{3}\b)/g, '');
  const decimals = /\.(\d+)$/.exec(bare)?.[1]?.length ?? 0;
  const value = Number(bare);
  const size = Number.isFinite(value) && value > 0 ? value : 10;
  for (let tries = 0; tries < 50; tries++) {
    // Within a factor of about three of the model number, never zero.
    const factor = 0.4 + rng.random() * 2.2;
    const raw = Math.max(decimals > 0 ? 0.1 : 2, size * factor);
    const text = decimals > 0 ? raw.toFixed(Math.min(decimals, 2)) : String(Math.round(raw));
    if (!avoid.has(String(Number(text)))) return `${dollar ? '$' : ''}${text}`;
  }
  // Large values the original cannot have used: one more than its largest.
  let n = Math.round(size) + 1;
  while (avoid.has(String(n))) n++;
  return `${dollar ? '$' : ''}${n}`;
}
