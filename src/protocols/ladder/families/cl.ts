/**
 * Context Load: the original verbatim inside on-topic, non-essential sentences about its own
 * people, things and places, with no quantities, so that the input grows while the problem stays
 * the same. How much is added is chosen by measuring: by default the paper's words(G)/words(O)
 * bands [1.1, 1.2) .. [1.5, 1.6); with `strictLoadBands: false` (the reference code) the generic
 * magnitude scale, where L5 needs several times the original's length. See docs/ladder-families.md#cl.
 */

import { pySplit } from '../../../text-measures/python.js';
import type { PyRandom } from '../../../util/random.js';
import { contextLoadGate } from '../gates/family-gates.js';
import { expansionRatio, resolveBandTables } from '../severity/levels.js';
import { extractEntities } from '../text/entities.js';
import type { Seed } from '../types.js';
import { type AimTarget, aimAtLevel, assess } from './aim.js';
import { instructionsFor } from './model-instructions.js';
import { fill, rulesFor, type Slots, shuffled, slotsFor, templatesFor, topicOf } from './rules-common.js';
import type { FamilyModule } from './types.js';

/**
 * On-topic, non-essential sentences about the problem's own person, place and things; no numbers,
 * no number words, nothing the computation could use. Templates whose slots the problem cannot fill
 * (no place, no counted things, nobody named) are left out (rules-common `fitsTopic`).
 */
export const PADDING: readonly string[] = [
  'It was a quiet day.',
  'The weather was mild.',
  'Nothing about the day was unusual.',
  'Everyone involved took their time.',
  'There was no particular rush.',
  'It had rained a little the night before.',
  'The morning was bright and clear.',
  'Nobody was in any particular hurry that day.',
  'Situations like this come up in everyday life.',
  'It is the kind of situation many families know well.',
  'Details like these are part of ordinary life.',
  'A friend had asked about it earlier in the week.',
  'The plan had been made a few days before.',
  '{person} had thought about this for a while.',
  '{person} likes to keep track of such things.',
  '{person} tends to keep good notes.',
  '{person} prefers to do things step by step.',
  '{person} wanted to get the details right.',
  '{person} had a cup of tea before starting.',
  '{person} mentioned the plan to a neighbor.',
  '{personPossessive} family was curious how it would turn out.',
  '{person} keeps a small notebook for such plans.',
  '{person} had done something similar before.',
  'The {place} was busy that day.',
  'The {place} is a familiar spot in the area.',
  'The {place} has been around for a long time.',
  'The {place} usually gets busier in the evening.',
  'The {place} is known for its friendly atmosphere.',
  'Neighbors say the {place} is worth a visit.',
  'The {place} was a short walk from home.',
  'The {objects} were easy to find.',
  'The {objects} were of the usual kind.',
  '{person} had always liked {objects}.',
  'Friends sometimes ask {person} about {otherObjects}.',
  '{person} checked the {objects} carefully.',
  'The {objects} looked just as expected.',
];

/** Openers that vary repeated padding without adding content. */
const OPENERS: readonly string[] = [
  '',
  'Meanwhile, ',
  'As usual, ',
  'Of course, ',
  'In any case, ',
  'By the way, ',
];

/** Enough sentences for the generic scale's L5 (magnitude >= .75, about 6x the original's length) on long problems. */
const MAX_SENTENCES = 160;

function lowerFirst(text: string): string {
  return text.length > 0 && /^[A-Z][a-z]/.test(text) && !/^[A-Z][a-z]+'s\b/.test(text)
    ? text[0]?.toLowerCase() + text.slice(1)
    : text;
}

function plan(seed: Seed, rng: PyRandom): string[] {
  const entities = extractEntities(seed.question);
  const padding = templatesFor(PADDING, topicOf(seed.question, entities));
  const out: string[] = [];
  let round = 0;
  while (out.length < MAX_SENTENCES) {
    const slots: Slots = slotsFor(entities, rng);
    for (const template of shuffled(padding, rng)) {
      const sentence = fill(template, slots);
      // The first round plain; later rounds vary the opener so repeats read less like copies.
      const opener = round === 0 ? '' : (OPENERS[(round + out.length) % OPENERS.length] as string);
      // A name keeps its capital after an opener; other first words are lowercased.
      const startsWithName = entities.named && sentence.startsWith(entities.person);
      out.push(opener ? `${opener}${startsWithName ? sentence : lowerFirst(sentence)}` : sentence);
      if (out.length >= MAX_SENTENCES) break;
    }
    round++;
  }
  return out;
}

/** About three quarters of the padding before the question and the rest after it, as the paper's generator placed it. */
function assemble(original: string, sentences: readonly string[]): string {
  const before: string[] = [];
  const after: string[] = [];
  sentences.forEach((s, i) => {
    (i % 4 === 3 ? after : before).push(s);
  });
  return [...before, original, ...after].join(' ');
}

const rules = rulesFor('CL', contextLoadGate, ({ seed, original, level, rng, target }) => {
  const planned = plan(seed, rng);
  if (target.opts?.strictLoadBands ?? true) {
    const text = intoBand(target, [...new Set(planned)]);
    return text === undefined ? undefined : { text, name: 'padding-band', subtype: 'on-topic-padding' };
  }
  // The generic magnitude scale (reference side). L1: a single sentence of rising length before
  // the question (one whole sentence can already be too much for a short problem); higher
  // levels: the first k+1 planned sentences.
  const single = [...new Set(planned)].sort((a, b) => a.length - b.length);
  const aimed = aimAtLevel(target, level === 1 ? single.length : planned.length, (k) =>
    level === 1 ? `${single[k]} ${original}` : assemble(original, planned.slice(0, k + 1)),
  );
  if (!aimed) return undefined;
  return { text: aimed.text, name: `padding-${aimed.strength + 1}`, subtype: 'on-topic-padding' };
});

/**
 * The paper's expansion bands are a tenth of the original's length wide, narrower than a sentence
 * on a short problem, so padding is picked by word count: the first subset of the (seeded, distinct)
 * sentences, in their order, whose words bring words(G)/words(O) into the level's band; all of it
 * before the original, so the question stays last (docs/ladder-families.md#cl).
 */
function intoBand(target: AimTarget, sentences: readonly string[]): string | undefined {
  const original = target.original;
  const base = pySplit(original).length;
  const band = resolveBandTables(target.opts?.bands).clExpansion[target.level - 1];
  if (!band || base === 0) return undefined;
  const [lo, hi] = band;
  const most = hi === null ? base : Math.ceil(hi * base - base);
  const least = Math.max(1, Math.floor(lo * base - base));
  // Subset sums over the sentences' word counts, earliest sentences first.
  const reach = new Map<number, number[]>([[0, []]]);
  sentences.forEach((sentence, i) => {
    const words = pySplit(sentence).length;
    for (const [sum, picks] of [...reach.entries()]) {
      const next = sum + words;
      if (next <= most && !reach.has(next)) reach.set(next, [...picks, i]);
    }
  });
  const sums = [...reach.keys()].filter((n) => n >= least).sort((a, b) => a - b);
  for (const sum of sums) {
    const padding = (reach.get(sum) as number[]).map((i) => sentences[i] as string);
    const text = [...padding, original].join(' ');
    // The ratio alone decides the level: measure (difflib, slow) only a text already in the band.
    const ratio = expansionRatio(original, text);
    if (ratio < lo || (hi !== null && ratio >= hi)) continue;
    const { severity, gatesPass } = assess(target, text);
    if (gatesPass && severity.level === target.level) return text;
  }
  return undefined;
}

export const contextLoad: FamilyModule = {
  family: 'CL',
  rules,
  modelInstructions: (seed, level, attempt) => instructionsFor('CL', seed, level, attempt),
  familyGate: (original, candidate) => contextLoadGate(original, candidate),
};
