/**
 * Context Load: the original verbatim after on-topic, non-essential sentences about its own
 * scene (its person's motives and habits, its things and place, its question in other words;
 * scene.ts), with no quantities, so that the input grows while the problem stays
 * the same. How much is added is chosen by measuring: by default the paper's words(G)/words(O)
 * bands [1.1, 1.2) .. [1.5, 1.6); with `strictLoadBands: false` (the reference code) the generic
 * magnitude scale, where L5 needs several times the original's length. See docs/ladder-families.md#cl.
 */

import { pySplit } from '../../../../text-measures/python.js';
import type { PyRandom } from '../../../../util/random.js';
import { tableIn } from '../../severity/band-tables.js';
import { resolveBandTables } from '../../severity/levels.js';
import { extractEntities } from '../../text/entities.js';
import { capitalize } from '../../text/tokens.js';
import type { Seed } from '../../types.js';
import { aimAtLevel, assess } from '../aim.js';
import type { AimTarget, RulesInput, RulesMade } from '../contract.js';
import { sceneSentences } from '../scene.js';
import { expansionRatio } from './severity.js';

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
    const scene = sceneSentences(seed.question, rng);
    for (const { text: sentence } of scene) {
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

export function contextLoadRules({ seed, original, level, rng, target }: RulesInput): RulesMade | undefined {
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
}

/**
 * The paper's expansion bands are a tenth of the original's length wide, narrower than a sentence
 * on a short problem, so padding is picked by word count: the first subset of the (seeded, distinct)
 * sentences, in their order, whose words bring words(G)/words(O) into the level's band; all of it
 * before the original, so the question stays last (docs/ladder-families.md#cl).
 */
function intoBand(target: AimTarget, sentences: readonly string[]): string | undefined {
  const original = target.original;
  const base = pySplit(original).length;
  const band = tableIn(resolveBandTables(target.opts?.bands), 'clExpansion')[target.level - 1];
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
    const padding = pronounsAfterName(
      (reach.get(sum) as number[]).map((i) => sentences[i] as string),
      extractEntities(original),
    );
    const text = [...padding, original].join(' ');
    // The ratio alone decides the level: measure (difflib, slow) only a text already in the band.
    const ratio = expansionRatio(original, text);
    if (ratio < lo || (hi !== null && ratio >= hi)) continue;
    const { severity, gatesPass } = assess(target, text);
    if (gatesPass && severity.level === target.level) return text;
  }
  return undefined;
}

/**
 * "Teddy planned ahead. Teddy took notes." reads as a list: a sentence that opens with the name
 * right after one that did opens with the pronoun instead ("He took notes.").
 */
function pronounsAfterName(
  sentences: readonly string[],
  entities: ReturnType<typeof extractEntities>,
): string[] {
  const { person, named, pronouns, names } = entities;
  // With two people named, "she" could be the other one ("Ginger gave Griffin her fries").
  if (!named || names.length !== 1 || pronouns.subject === 'they') return [...sentences];
  const he = capitalize(pronouns.subject);
  const his = capitalize(pronouns.possessive);
  return sentences.map((s, i) => {
    if (i === 0 || !(sentences[i - 1] as string).startsWith(person)) return s;
    if (s.startsWith(`${person}'s `)) return `${his}${s.slice(person.length + 2)}`;
    if (s.startsWith(`${person} `)) return `${he}${s.slice(person.length)}`;
    return s;
  });
}
