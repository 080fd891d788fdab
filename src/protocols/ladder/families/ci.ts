/**
 * Context Interference: the original verbatim, with distractor sentences before and after it,
 * written about the problem's own people, things and places. L1 adds one short sentence without
 * numbers; L2-L5 add sentences with new numbers (never one of the original's) that belong to
 * someone else, another time or another place, more of them and more alike the problem's own
 * quantities as the level rises. How many is chosen by measuring (see aim.ts).
 */

import type { PyRandom } from '../../../util/random.js';
import { contextInterferenceGate } from '../gates/family-gates.js';
import { extractEntities } from '../text/entities.js';
import { numbersIn, numberValue } from '../text/tokens.js';
import type { Level, Seed } from '../types.js';
import { aimAtLevel } from './aim.js';
import { instructionsFor } from './model-instructions.js';
import {
  fill,
  freshNumber,
  rulesFor,
  type Slots,
  shuffled,
  slotsFor,
  templatesFor,
  topicOf,
} from './rules-common.js';
import type { FamilyModule } from './types.js';

/** Background sentences without numbers (CI L1, and some filler at higher levels). */
export const QUIET_DISTRACTORS: readonly string[] = [
  'It was a sunny day.',
  'The sky was clear.',
  '{person} hummed a tune.',
  '{person} wore a green coat.',
  'The {place} smelled nice.',
  '{person} likes {objects}.',
  'The weather was mild and pleasant that morning.',
  '{personPossessive} favorite color is blue.',
  'Many people in town enjoy {objects}.',
  '{person} had been thinking about {objects} all week.',
  '{friendOf} once wrote a poem about {otherObjects}.',
  'The {place} has bright yellow walls and a friendly owner.',
  '{personPossessive} neighbor prefers {otherObjects} to anything else.',
  'There was a long line of cars on the road outside.',
  'A friend called to ask about the weekend.',
  'The radio was playing an old song.',
  '{person} had a busy week at work.',
  '{person} wrote everything down in a notebook.',
  '{friendOf} stopped by to say hello.',
];

/**
 * Distractors with numbers, new to the problem: `{n}` a count the size of the problem's own, `{k}`
 * an everyday small count (an age, pages, blocks: never "1316 years old"), `{m}` an amount of money.
 */
export const NUMBER_DISTRACTORS: readonly string[] = [
  '{personPossessive} neighbor bought {n} {otherObjects} last month.',
  'Last year, the {place} sold {n} {objects} in a single week.',
  'A different {place} across town charges {m} for the same kind of thing.',
  '{friendOf} has {n} {objects} at home.',
  'Yesterday, {n} people visited the {place}.',
  'The {place} first opened {n} years ago.',
  '{friendOf} once collected {n} {otherObjects}.',
  'Two weeks earlier, {friendOf} spent {m} on {otherObjects}.',
  'On a different day, another customer paid {m} for {n} {objects}.',
  'Last winter, {personPossessive} sister had {n} {objects} but gave them all away.',
  'At a fair the year before, a stall offered {n} {objects} for {m}.',
  'A news report said that {n} {objects} were sold in the whole city last spring.',
  'The {place} down the road had a sale last month, with {otherObjects} at {m} each.',
  'Before any of this, {friendOf} had read that a chef once used {n} {objects} in one recipe.',
  'In a puzzle book, a similar story has someone with {n} {otherObjects} and {m} to spend.',
  'Had prices been like those of the year before, {objects} would have cost {m}, but they were not.',
  '{friendOf} is {k} years old.',
  '{personPossessive} neighbor lives {k} houses down the street.',
  'Last week, {friendOf} read {k} pages of a novel.',
  'On a different day, a classmate walked {k} blocks to the library.',
  'The nearest bus stop is {k} meters from {personPossessive} door.',
  'Last summer, {friendOf} planted {k} flowers in the garden.',
  'A different family in town keeps {k} photos in an album.',
  'On another occasion, {friendOf} spent {m} on a birthday present.',
];

/** The most distractor sentences a candidate gets (the L5 band needs up to about 3.7x the original's length). */
const MAX_SENTENCES = 48;

interface Planned {
  text: string;
  before: boolean;
}

function plan(seed: Seed, level: Level, rng: PyRandom): Planned[] {
  const original = seed.question;
  const entities = extractEntities(original);
  const slots: Slots = slotsFor(entities, rng);
  // Only templates the problem's own place, things and subject fit (issue 11: no store where there is none).
  const topic = topicOf(original, entities);
  const quietPool = templatesFor(QUIET_DISTRACTORS, topic);
  const numberPool = templatesFor(NUMBER_DISTRACTORS, topic);
  const numbers = numbersIn(original);
  const avoid = new Set(numbers.map(numberValue));
  const money = numbers.find((n) => n.startsWith('$')) ?? '$12';
  const count = numbers.find((n) => !n.startsWith('$') && !n.includes('.')) ?? '7';
  if (level === 1) {
    // One sentence; the shortest first, so aiming walks from the mildest to the longest.
    return shuffled(quietPool, rng)
      .map((t) => ({ text: fill(t, slots), before: rng.random() < 0.5 }))
      .sort((a, b) => a.text.length - b.text.length);
  }
  const out: Planned[] = [];
  // Each template at most once per candidate: "the neighbor lives 26 houses down the street" and
  // then "... 23 houses down the street" contradict each other (seeded draw of the 100-seed suite).
  const pool = shuffled(numberPool, rng);
  const quiet = shuffled(quietPool, rng);
  while (out.length < MAX_SENTENCES && pool.length + quiet.length > 0) {
    // From L3 on, a quarter of the sentences are background without numbers, so the numbers stand out less.
    // The first sentence always carries numbers, so every L2-L5 candidate has some.
    const useQuiet =
      (level >= 3 && out.length > 0 && quiet.length > 0 && rng.random() < 0.25) ||
      (pool.length === 0 && level >= 3);
    if (useQuiet) {
      out.push({ text: fill(quiet.pop() as string, slots), before: rng.random() < 0.5 });
      continue;
    }
    if (pool.length === 0) break;
    const text = fill(pool.pop() as string, slots, {
      n: freshNumber(rng, count, avoid).replace(/^\$/, ''),
      k: freshNumber(rng, '12', avoid),
      m: freshNumber(rng, money.startsWith('$') ? money : `$${money}`, avoid),
    });
    out.push({ text, before: rng.random() < 0.5 });
  }
  return out;
}

function assemble(original: string, sentences: readonly Planned[]): string {
  const before = sentences.filter((s) => s.before).map((s) => s.text);
  const after = sentences.filter((s) => !s.before).map((s) => s.text);
  return [...before, original, ...after].join(' ');
}

const rules = rulesFor('CI', contextInterferenceGate, ({ seed, original, level, rng, target }) => {
  const planned = plan(seed, level, rng);
  const aimed = aimAtLevel(
    target,
    planned.length,
    // L1: one sentence of rising length; L2-L5: the first k+1 planned sentences.
    (k) => assemble(original, level === 1 ? [planned[k] as Planned] : planned.slice(0, k + 1)),
  );
  if (!aimed) return undefined;
  const sentences = level === 1 ? 1 : aimed.strength + 1;
  return {
    text: aimed.text,
    name: `distractors-${sentences}`,
    subtype: level === 1 ? 'background' : 'numeric-distractors',
  };
});

export const contextInterference: FamilyModule = {
  family: 'CI',
  rules,
  modelInstructions: (seed, level, attempt) => instructionsFor('CI', seed, level, attempt),
  familyGate: contextInterferenceGate,
};
