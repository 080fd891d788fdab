/**
 * KB L2's fabricated evidence: where a cited figure would plausibly be written down, by the kind of
 * given (blind read v8, E82): a person's own habit in their own diary or log, a shop's price in
 * its flyer or on its website, an institution's count in its annual report or newsletter, a made
 * thing's count on its label, anything else in a local paper's article or column. Never "a report on <the
 * counted noun>", never a year (it can clash with the problem's own time), and several verbs and
 * documents so that no one frame reads as a template (scan kb-l2-frame).
 */
import type { PyRandom } from '../../../../util/random.js';

export const SURNAMES = [
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

/** Who or what a given's clause is about: a person, a made thing ("A loaf of bread"), "there are", or neither. */
export type ClauseSubject =
  | { kind: 'person' }
  | { kind: 'thing'; head: string }
  | { kind: 'there' }
  | undefined;

/** The kind of holder a given has, as the rules read its clause (rules.ts, InPlace). */
export interface Holder {
  kind: 'count' | 'money';
  /** Whose own records hold it, as a possessive ("John's", "his own"), if anyone's. */
  owner: string | undefined;
  subject: ClauseSubject;
  /** The sentence up to the amount. */
  lead: string;
}

/** Places and bodies that publish their own counts. */
const INSTITUTION =
  /^(?:hospital|school|library|club|team|class|company|factory|farm|museum|zoo|theater|theatre|restaurant|bakery|church|hotel|city|town|university|college|office|center|centre|gym|shelter|orchard|store|shop)$/;
/** Money that is no shop's price: a house's or a car's, a wage. */
const NOT_SHOP = /\b(?:house|home|property|car|salary|wage|earns?|sold his|sold her|rent)\b/i;

/** One document: its name and the verbs and preposition that cite a figure from it. */
interface Doc {
  name: string;
  verbs: readonly string[];
  prep: 'in' | 'on';
}

const pick = <T>(rng: PyRandom, xs: readonly T[]): T => xs[rng.randrange(xs.length)] as T;

function docFor(h: Holder, rng: PyRandom): Doc {
  const name = pick(rng, SURNAMES);
  if (h.kind === 'money' && !NOT_SHOP.test(h.lead))
    return pick(rng, [
      { name: `the ${name} Market's weekly flyer`, verbs: ['listed', 'printed', 'advertised'], prep: 'in' },
      { name: `the ${name} General Store website`, verbs: ['listed', 'shown', 'quoted'], prep: 'on' },
    ] as const);
  if (h.kind === 'money')
    return { name: `the ${name} Realty listing`, verbs: ['quoted', 'given', 'stated'], prep: 'in' };
  if (h.subject?.kind === 'thing' && INSTITUTION.test(h.subject.head))
    return pick(rng, [
      {
        name: `the ${h.subject.head}'s latest annual report`,
        verbs: ['given', 'reported', 'stated'],
        prep: 'in',
      },
      {
        name: `the ${h.subject.head}'s monthly newsletter`,
        verbs: ['printed', 'reported', 'given'],
        prep: 'in',
      },
    ] as const);
  if (h.subject?.kind === 'thing')
    return {
      name: `the ${name} label on the ${h.subject.head}`,
      verbs: ['printed', 'stated', 'shown'],
      prep: 'on',
    };
  if (h.owner !== undefined)
    return pick(rng, [
      { name: `${h.owner} diary`, verbs: ['noted', 'recorded', 'written down'], prep: 'in' },
      { name: `${h.owner} phone app`, verbs: ['logged', 'recorded', 'shown'], prep: 'in' },
    ] as const);
  return pick(rng, [
    { name: `a ${name} Gazette article`, verbs: ['reported', 'quoted', 'given'], prep: 'in' },
    { name: `the ${name} Herald's weekend column`, verbs: ['reported', 'quoted', 'given'], prep: 'in' },
  ] as const);
}

/** "recorded in John's diary", "listed on page 7 of the Hartwell Market's weekly flyer". */
export function citation(h: Holder, rng: PyRandom, free: readonly number[]): string {
  const doc = docFor(h, rng);
  const verb = pick(rng, doc.verbs);
  // A page only where a document has pages, and not always, so the frame varies.
  const paged = /report|newsletter|diary|flyer/.test(doc.name) && rng.random() < 0.5;
  return paged ? `${verb} on page ${pick(rng, free)} of ${doc.name}` : `${verb} ${doc.prep} ${doc.name}`;
}
