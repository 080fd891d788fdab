/**
 * Context Load: the original verbatim inside on-topic, non-essential sentences about its own
 * people, things and places, with no quantities, so that the input grows while the problem stays
 * the same. How much is added is chosen by measuring: by default Context Load is binned on the
 * generic magnitude scale (DESIGN.md: no family bands), so L5 needs several times the original's
 * length; with `strictLoadBands` the paper's words(G)/words(O) bands [1.1, 1.2) .. [1.5, 1.6) are
 * aimed at instead. See docs/ladder-families.md#cl.
 */

import type { PyRandom } from '../../../util/random.js';
import { contextLoadGate } from '../gates/family-gates.js';
import { extractEntities } from '../text/entities.js';
import type { Seed } from '../types.js';
import { aimAtLevel } from './aim.js';
import { instructionsFor } from './model-instructions.js';
import { fill, rulesFor, type Slots, shuffled, slotsFor } from './rules-common.js';
import type { FamilyModule } from './types.js';

/** On-topic, non-essential sentences; no numbers, no number words. */
export const PADDING: readonly string[] = [
  'It was warm.',
  'All was calm.',
  '{person} smiled.',
  'The day was busy.',
  'Nothing was rushed.',
  '{person} usually plans the day carefully.',
  'The {place} is a familiar spot in the area.',
  'People often talk about the {place} with fondness.',
  '{person} enjoys a calm, unhurried routine.',
  'There is always something interesting to notice about {objects}.',
  'Some people collect {objects} simply because they like them.',
  '{person} once read a short article about {objects}.',
  'The morning light made everything look cheerful.',
  'Nobody was in any particular hurry that day.',
  '{person} tends to keep good notes.',
  '{objects} come in many shapes and colors.',
  'A light breeze was blowing outside.',
  '{person} smiled while thinking about the plans for the week.',
  'The {place} has been around for a long time.',
  'Friends sometimes ask {person} for advice about {otherObjects}.',
  '{person} likes to be organized about everyday tasks.',
  'Conversations about {objects} can go on for a while.',
  'The street outside was lined with tall trees.',
  '{person} had a cup of tea earlier in the day.',
  'It is the kind of situation many families know well.',
  'Details like these are part of ordinary life.',
  '{person} prefers to do things step by step.',
  'Everyone agreed that it was a pleasant afternoon.',
  'The {place} usually gets busier in the evening.',
  'Stories about {otherObjects} are surprisingly common.',
  '{person} has always been curious about how things work.',
  'The sound of birds could be heard nearby.',
  '{person} often hums a song while working.',
  'Neighbors say the {place} is worth a visit.',
  'Small choices like this add up over time.',
  '{person} enjoys sharing stories with friends.',
  'The colors of the season were bright and warm.',
  'It had rained a little the night before.',
  '{person} keeps a small notebook for ideas.',
  'Many people have opinions about {objects}.',
  'There was a gentle hum of activity all around.',
  '{person} believes that patience usually pays off.',
  'The {place} is known for its friendly atmosphere.',
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
  const out: string[] = [];
  let round = 0;
  while (out.length < MAX_SENTENCES) {
    const slots: Slots = slotsFor(entities, rng);
    for (const template of shuffled(PADDING, rng)) {
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
  // L1: a single sentence of rising length before the question (one whole sentence can already
  // be too much for a short problem); higher levels: the first k+1 planned sentences.
  const single = [...new Set(planned)].sort((a, b) => a.length - b.length);
  const aimed = aimAtLevel(target, level === 1 ? single.length : planned.length, (k) =>
    level === 1 ? `${single[k]} ${original}` : assemble(original, planned.slice(0, k + 1)),
  );
  if (!aimed) return undefined;
  return { text: aimed.text, name: `padding-${aimed.strength + 1}`, subtype: 'on-topic-padding' };
});

export const contextLoad: FamilyModule = {
  family: 'CL',
  rules,
  modelInstructions: (seed, level, attempt) => instructionsFor('CL', seed, level, attempt),
  familyGate: (original, candidate) => contextLoadGate(original, candidate),
};
