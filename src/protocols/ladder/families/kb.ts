/**
 * Knowledge Boundary: five ways of making a problem unanswerable by construction, one per level
 * (DESIGN.md, KB is categorical):
 *   L1 missing information: a quantity the answer needs is blurred away ("a certain amount");
 *   L2 fabricated evidence: that quantity is only "reported" in a study that does not exist;
 *   L3 not yet knowable: it will only be set in the future;
 *   L4 fabricated entity: it is whatever an invented organisation's guide says;
 *   L5 impossible premise: a sentence contradicts a given quantity (fewer ever existed than were used),
 *      or, when no count is available, the story is set on a date that does not exist.
 * The quantity is taken from the problem's givens (not the question sentence when possible); all
 * its occurrences are replaced, so the value cannot be read back from a repeat.
 */

import type { PyRandom } from '../../../util/random.js';
import { knowledgeBoundaryGate } from '../gates/family-gates.js';
import { extractEntities } from '../text/entities.js';
import { findQuantities, type Quantity, replaceQuantity } from '../text/quantities.js';
import { capitalize } from '../text/tokens.js';
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

/** Units of time or measure: "fewer than 5 minutes have ever existed" is no premise at all. */
const MEASURE_UNIT =
  /^(seconds?|minutes?|hours?|days?|weeks?|months?|years?|miles?|feet|foot|inches?|yards?|meters?|kilometers?|pounds?|ounces?|grams?|kilograms?|liters?|litres?|gallons?|cups?|cents?|dollars?|times|percent|points?)\b/;

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
  const withArticle =
    q.kind === 'money'
      ? question.replace(new RegExp(`\\b(an?) ${escaped}(?![\\d.,])`, 'g'), 'a certain')
      : question;
  return replaceQuantity(withArticle, q, vague(q));
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
      const countable = (x: Quantity) =>
        x.kind === 'count' &&
        (x.value ?? 0) >= 2 &&
        x.follows !== '' &&
        !x.hyphenated &&
        !MEASURE_UNIT.test(x.follows);
      const count = pickQuantity(quantities, rng, countable);
      if (count && countable(count)) {
        const fewer = Math.max(1, Math.floor((count.value as number) / 2));
        const sentence = `Yet fewer than ${fewer} ${count.follows} have ever existed anywhere.`;
        return { text: `${question} ${sentence}`, how: `contradicts ${count.text} ${count.follows}` };
      }
      const who = entities.named ? entities.person : 'everything described here';
      const sentence = entities.named
        ? `${capitalize(who)} did all of this on the 30th of February.`
        : 'All of this took place on the 30th of February.';
      return { text: `${question} ${sentence}`, how: 'set on a date that does not exist' };
    }
  }
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
