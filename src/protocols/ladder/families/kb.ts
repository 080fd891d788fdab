/**
 * Knowledge Boundary: five ways of making a problem unanswerable by construction, one per level
 * (docs/method.md#level-bands: KB is categorical):
 *   L1 missing information: a quantity the answer needs is blurred away ("a certain amount");
 *   L2 fabricated evidence: that quantity is only "reported" in a study that does not exist;
 *   L3 not yet knowable: it will only be set in the future;
 *   L4 fabricated entity: it is whatever an invented organisation's guide says;
 *   L5 impossible premise: a given the computation uses is made impossible in place (a share over
 *      the whole, more hours than a day has, a negative count or price).
 * The quantity is taken from the problem's givens (not the question sentence when possible); all
 * its occurrences are replaced, so the value cannot be read back from a repeat.
 */

import type { PyRandom } from '../../../util/random.js';
import { knowledgeBoundaryGate } from '../gates/family-gates.js';
import { extractEntities } from '../text/entities.js';
import { findQuantities, type Quantity, replaceQuantity } from '../text/quantities.js';
import { KB_LEVEL, KB_TYPES, type KbType, type Level } from '../types.js';
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

/** What the removed quantity was, in words, for the sentence that says why it cannot be known. */
function described(q: Quantity): string {
  switch (q.kind) {
    case 'money':
      return q.follows.startsWith('per ') || q.follows.startsWith('each')
        ? `price ${q.follows}`
        : 'amount of money involved';
    case 'percent':
      return 'percentage';
    case 'fraction':
      return 'fraction';
    default:
      return q.follows && !q.hyphenated ? `number of ${q.follows}` : 'number';
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
    given,
    [...quantities],
  ];
  for (const pool of pools) if (pool.length > 0) return rng.choice(pool);
  return undefined;
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

/** Builds the rewrite for one boundary type; undefined when the problem offers nothing to work with. */
function rewrite(type: KbType, question: string, rng: PyRandom): { text: string; how: string } | undefined {
  const quantities = findQuantities(question);
  const entities = extractEntities(question);
  const topic = entities.objects[0] ?? entities.places[0] ?? 'household spending';
  switch (type) {
    case 'missing-information': {
      const q = pickQuantity(quantities, rng);
      if (!q) return undefined;
      return { text: blur(question, q), how: `removed ${q.text}` };
    }
    case 'fabricated-evidence': {
      const q = pickQuantity(quantities, rng);
      if (!q) return undefined;
      const evidence = `The exact ${described(q)} is given only in ${source(rng, topic)}; use the figure reported there.`;
      return {
        text: `${blur(question, q)} ${evidence}`,
        how: `${q.text} replaced by a fabricated report`,
      };
    }
    case 'not-yet-knowable': {
      const q = pickQuantity(quantities, rng);
      if (!q) return undefined;
      const when = rng.choice([
        'next year',
        'next month',
        'next season’s prices are announced',
        'the end of next year',
      ]);
      const future = `The exact ${described(q)} will not be decided until ${when}.`;
      return {
        text: `${blur(question, q)} ${future}`,
        how: `${q.text} made a future value`,
      };
    }
    case 'fabricated-entity': {
      const q = pickQuantity(quantities, rng);
      if (!q) return undefined;
      const entity = `the ${rng.choice(SURNAMES)}-${rng.choice(SURNAMES)} ${rng.choice(COMPANIES)}`;
      const text = `${blur(question, q)} The exact ${described(q)} is whatever ${entity} lists in its members’ handbook.`;
      return { text, how: `${q.text} tied to an invented organisation` };
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
  const counted = given.filter((q) => (q.kind === 'count' || q.kind === 'money') && (q.value ?? 1) > 0);
  const q = counted.length > 0 ? rng.choice(counted) : undefined;
  if (!q) return undefined;
  const negative = q.kind === 'money' ? `-${q.text}` : `-${q.text}`;
  const text = replaceQuantity(question, q, negative);
  return { text, how: `${q.text} made negative (${negative})` };
}

const rules = rulesFor('KB', knowledgeBoundaryGate, ({ original, level, rng }) => {
  const kbType = KB_TYPE_OF_LEVEL[level];
  const made = rewrite(kbType, original, rng);
  if (!made || knowledgeBoundaryGate(original, made.text).verdict !== 'pass') return undefined;
  return { text: made.text, name: kbType, subtype: kbType, kbType };
});

export const knowledgeBoundary: FamilyModule = {
  family: 'KB',
  rules,
  modelInstructions: (seed, level, attempt) => instructionsFor('KB', seed, level, attempt),
  familyGate: (original, candidate) => knowledgeBoundaryGate(original, candidate),
};
