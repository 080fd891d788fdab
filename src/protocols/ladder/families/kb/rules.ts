/**
 * Knowledge Boundary: five ways of making a problem unanswerable by construction, one per level
 * (docs/method.md#level-bands: KB is categorical):
 *   L1 missing information: a quantity the answer needs is blurred away ("a certain amount");
 *   L2 fabricated evidence: the quantity is a figure cited from a document that does not exist,
 *      one that would hold it ("the number of glasses of milk noted in John's diary", evidence.ts);
 *   L3 not yet knowable: a present price, fee or wage is one still to be set ("charges a fee that
 *      will only be announced next month"); no other given is written at L3;
 *   L4 fabricated entity: it is a public property of an invented thing of the given's kind ("the
 *      length of the Harwood Trail", "as many people as the Brennick Theatre seats");
 *   L5 impossible premise: a given the computation uses is made impossible in place (a share over
 *      the whole, more hours than a day has; never a minus sign, which reads as a typo).
 * L2-L4 rewrite the given's own clause, so each type is a different problem, not L1's text plus a
 * sentence. The quantity is one the seed's worked solution computes with when the seed
 * has one (docs/ladder-families.md#kb-solution-path), taken from the givens when possible; all its
 * occurrences are replaced, so the value cannot be read back from a repeat.
 */

import type { PyRandom } from '../../../../util/random.js';
import { extractEntities } from '../../text/entities.js';
import { analyse } from '../../text/morphology.js';
import { findQuantities, type Quantity, replaceQuantity } from '../../text/quantities.js';
import { capitalize, numbersIn, numberValue } from '../../text/tokens.js';
import { LEX_FILE, synsets } from '../../text/wordnet.js';
import { KB_LEVEL, KB_TYPES, type KbType, type Level, type Seed } from '../../types.js';
import type { RulesInput, RulesMade } from '../contract.js';

import { solutionNumbers } from '../solution-steps.js';
import { fabricatedEntity } from './entity.js';
import { type ClauseSubject, citation } from './evidence.js';
import { knowledgeBoundaryGate } from './gate.js';
import { impossiblePremise } from './impossible.js';

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
  ];
  for (const pool of pools) if (pool.length > 0) return rng.choice(pool);
  return undefined;
}

/** A number that labels rather than counts: "floor 9", "page 3", "ratio of 7:13". */
const LABEL_BEFORE =
  /\b(?:floor|page|room|grade|chapter|level|number|No\.|ratio of|row|seat|bus|route|gate)\s+$/i;

/**
 * Whether the blur can take this quantity alone (issue 36): its value stands once in the question
 * (else the blur would reach the other occurrences too, or leave one that gives it back) and it is no
 * label or a side of a ratio ("floor several", "ratio of several:13").
 */
function blurrable(question: string, q: Quantity): boolean {
  if (q.kind === 'word') return true;
  const value = numberValue(numbersIn(q.text)[0] ?? q.text);
  if (numbersIn(question).filter((n) => numberValue(n) === value).length !== 1) return false;
  const end = q.index + q.text.length;
  return (
    !LABEL_BEFORE.test(question.slice(0, q.index)) && question[q.index - 1] !== ':' && question[end] !== ':'
  );
}

/** The quantity's value as a solution writes it (20% as 20 or .2; 1/4 as .25 or 1 and 4; twice as 2). */
function onSolutionPath(q: Quantity, numbers: Set<number> | undefined): boolean {
  if (numbers === undefined) return true; // no worked solution: every given of a grade-school problem counts
  const n = (x: string) => Number(x.replace(/[$,%\s]|percent/g, ''));
  if (q.kind === 'fraction') {
    const [a, b] = q.text.split('/').map(Number) as [number, number];
    return numbers.has(a / b) || (numbers.has(a) && numbers.has(b));
  }
  if (q.kind === 'word') {
    const w = { once: 1, twice: 2, double: 2, thrice: 3, triple: 3, half: 0.5 }[q.text.toLowerCase()];
    return w !== undefined && (numbers.has(w) || (w === 0.5 && numbers.has(2)));
  }
  const v = n(q.text);
  if (!Number.isFinite(v)) return false;
  return numbers.has(v) || (q.kind === 'percent' && numbers.has(v / 100));
}

/**
 * The question with the quantity blurred: "gets a $300 bonus" becomes "gets a certain bonus" (an
 * article already there takes the vague word), every other occurrence the vague phrase.
 */
function blur(question: string, q: Quantity): string {
  const escaped = q.text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // After a determiner the amount is an adjective: "her $400,000 budget" becomes "her undisclosed
  // budget", never "her a certain amount 000 budget".
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
 * were given and one spilled): such a number after "the remaining/other/total/whole"
 * goes too.
 */
function unrecoverable(text: string, q: Quantity): string {
  if (q.inQuestion) return text;
  return text.replace(/\b(the (?:remaining|other|total|whole|entire|combined)) \d+(?:[.,]\d+)*\s/gi, '$1 ');
}

/** How a given and the rest of its clause read once rewritten ("10 hectares of a pineapple field"). */
interface InPlace {
  /** The amount as written (`10`, `$5`). */
  amount: string;
  kind: 'count' | 'money';
  /** The rest of the amount's clause (" hectares of a pineapple field", " a ride"). */
  clause: string;
  /** The sentence is only "There are N X." (L2 rewrites it whole). */
  thereIs: boolean;
  /** The amount comes right after "there are" ("There are 6 students playing tennis"). */
  afterThere: boolean;
  subject: ClauseSubject;
  /** Whose own diary or log may be cited, as a possessive ("John's", "his own"; evidence.ts). */
  owner: string | undefined;
  /** The amount's clause tells of the past ("he sold 4 boxes"): a decision to come cannot set it. */
  past: boolean;
  /** The sentence up to the amount ("The accountant charges "). */
  lead: string;
  /**
   * The amount's whole sentence or the question tells of the past ("He bought 4 pens which cost
   * $1.5 each", "How much did everything cost?"): a price already paid is not set later.
   */
  paid: boolean;
}

/**
 * L2-L4's rewrite of a given in place: the new text for the amount and its clause (undefined where
 * the construction does not fit), and what it did.
 */
interface Definer {
  write: (p: InPlace) => string | undefined;
  how: string;
  /** The type keeps the amount (the other side of a comparison): other occurrences stay too. */
  keepsAmount: boolean;
}

/**
 * When a price still to be set becomes known (issue 36, blind read v4): a fee, price or rate is the
 * kind of given a future announcement really fixes; a count, a time or a size is not (a cooking time
 * "decided by a vote" was rejected as absurd), so L3 writes only prices (docs/ladder-families.md#kb-l3).
 */
const NOT_YET_SET = [
  'that will only be announced next month',
  'that will not be set until next season',
  'that will only be fixed when next month’s price list comes out',
];

/** Common irregular past-tense verbs. */
const PAST_IRREGULAR =
  /\b(?:was|were|had|did|sold|bought|made|spent|paid|got|gave|took|ate|saw|found|won|lost|brought|kept|left|ran|wrote|sent|built|caught|drove|grew|held|met|rode|sat|swam|told|threw|wore)\b/i;
/** A regular past after its subject ("she received", "Pierson scored"), not an adjective ("different sized"). */
const PAST_REGULAR =
  /\b(?:[Hh]e|[Ss]he|[Tt]hey|[Ww]e|I|[Ii]t|[A-Z][a-z]+)\s+(?:also\s+|then\s+|just\s+|only\s+)?[a-z]{2,}ed\b/;

/** Whether the clause an amount stands in tells of the past: a relative clause ("... that has") has its own tense. */
function pastTense(sentence: string): boolean {
  const own = sentence.split(/\b(?:that|which|who)\s+/i).at(-1) ?? sentence;
  return PAST_IRREGULAR.test(own) || PAST_REGULAR.test(own);
}

/** Whether a count's clause opens with what it counts, a plural noun ("slices", "pounds at a time"), not a verb ("like to bake"). */
function countedNoun(clause: string): boolean {
  // Within the first three words, so adjectives may come first ("new potted plants").
  return clause
    .trim()
    .split(/\s+/)
    .slice(0, 3)
    .some((w) => analyse(w.toLowerCase(), 'noun').some((a) => a.form === 'plural'));
}

/** Whether a sentence, relative clauses and all, tells of the past. */
function toldInPast(sentence: string): boolean {
  return PAST_IRREGULAR.test(sentence) || PAST_REGULAR.test(sentence);
}

/** The sentence that asks (the last one). */
function askedSentence(question: string): string {
  return (
    question
      .split(/(?<=[.?!])\s+/)
      .filter(Boolean)
      .at(-1) ?? question
  );
}

/**
 * L2-L4, three constructions so the three types read as three different problems:
 * - fabricated evidence, a figure cited from a document that does not exist, in place of the
 *   amount: "the number of glasses of milk noted in John's diary" ("The number of girls in the park
 *   is reported in a Hartwell Gazette article" for "There are 6 girls in the park.");
 * - not yet knowable, a price, fee or wage still to be set: "The accountant charges a fee that
 *   will only be announced next month";
 * - fabricated entity, the given replaced by a public property of an invented thing of its kind
 *   (entity.ts): "runs the length of the Harwood Trail each day", "as many people as the Brennick
 *   Theatre seats" (docs/ladder-families.md#kb-l4).
 */
function definer(
  type: 'fabricated-evidence' | 'not-yet-knowable' | 'fabricated-entity',
  question: string,
  rng: PyRandom,
): Definer {
  switch (type) {
    case 'fabricated-evidence': {
      // Not a number the problem has: blurring its other occurrences would reach "page 3" too.
      const taken = new Set(numbersIn(question).map(numberValue));
      const free = [...Array(30).keys()].map((n) => n + 2).filter((n) => !taken.has(String(n)));
      return {
        write: (p) => {
          // "the number of patients are admitted ... given in": the clause must hold no verb (blind read v8).
          if (CLAUSE_VERB.test(p.clause)) return undefined;
          const cited = citation(p, rng, free);
          if (p.thereIs) return `the number of${p.clause} is ${cited}`;
          // "There are the number of ..." is no English; "there were 25 men and the number of women ..." is.
          if (p.afterThere) return undefined;
          // "their total age now is 132": no noun after it, "the number given in ...".
          // "10 like to bake" has no noun to count: "the number of like to bake" is no English.
          if (p.kind === 'count')
            return /^ of\b/.test(p.clause) || (p.clause.trim() !== '' && !countedNoun(p.clause))
              ? undefined
              : p.clause.trim() === ''
                ? `the number ${cited}`
                : `the number of${p.clause} ${cited}`;
          // An amount that ends its clause, or a rate ("$10 a ride": "the amount per ride given in
          // ...", "$8 each": "the amount apiece given in ...").
          if (p.clause.trim() === '') return `the amount ${cited}`;
          if (p.clause === ' each') return `the amount apiece ${cited}`;
          const rate = /^ (?:an?|per) ([a-z]+)$/.exec(p.clause);
          return rate ? `the amount per ${rate[1]} ${cited}` : undefined;
        },
        how: 'cited from a document that does not exist',
        keepsAmount: false,
      };
    }
    case 'not-yet-knowable': {
      const when = rng.choice(NOT_YET_SET);
      return {
        write: (p) => notYetSet(p, when),
        how: `a price still to be set (${when})`,
        keepsAmount: false,
      };
    }
    case 'fabricated-entity': {
      // Whether a quantity can take it never depends on the draws, so trying each is safe.
      return {
        write: (p) =>
          fabricatedEntity({ ...p, thing: p.subject?.kind === 'thing' ? p.subject.head : undefined }, rng),
        how: 'replaced by a property of an invented trail, venue, film, train or model, which does not exist',
        keepsAmount: false,
      };
    }
  }
}

/** What a not-yet-set amount of money is, by the verb before it: "charges" a fee, "costs" a price. */
function priceNoun(lead: string, per: string | undefined): string | undefined {
  if (/\b(?:costs?|priced at|sells? for|pays?)\s+$/i.test(lead))
    return per === 'hour' ? 'an hourly rate' : 'a price';
  if (/\bcharges?\s+$/i.test(lead)) return per === 'hour' ? 'an hourly rate' : 'a fee';
  if (/\b(?:earns?|makes?|gets?|is paid|are paid)\s+$/i.test(lead))
    return per === 'hour' ? 'an hourly wage' : undefined;
  return undefined;
}

/**
 * L3 in place: a present price, fee or wage ("charges $90", "costs $3 per pound", "earns $12 an
 * hour") becomes one still to be set ("charges a fee that will only be announced next month", "costs
 * a price per pound that ..."). Undefined for anything else: a count, a time, a size, a sum told in
 * the past (a past fact is not set later), or a rate that is no "per unit" ("$8 each").
 */
function notYetSet(p: InPlace, when: string): string | undefined {
  if (p.kind !== 'money' || p.past || p.paid) return undefined;
  const rate = /^ (?:per|an?) ([a-z]+)$/.exec(p.clause)?.[1];
  // "charges $90 for a tax return": what the fee is for stays before "that" ("a fee for a tax
  // return that ..."); "to sort them" would put the decision after the task, so it is left out.
  const what = /^ (?:for|at) [a-z][a-z' ]*$/i.test(p.clause) ? p.clause : '';
  if (p.clause.trim() !== '' && rate === undefined && what === '') return undefined;
  const noun = priceNoun(p.lead, rate);
  if (noun === undefined) return undefined;
  const per = rate === undefined || rate === 'hour' ? '' : ` per ${rate}`;
  return `${noun}${per}${what} ${when}`;
}

/** Who or what a sentence is about, from its first words. */
/** A verb in an amount's clause ("patients are admitted"): "the number of" cannot hold it. */
const CLAUSE_VERB = /\b(?:are|is|was|were|be|been|has|have|had|will|can|could|would|do|does|did)\b/i;

const CLAUSE_END = /[,;:.?!]/;
const NOT_PLAIN = /\d|\$|\b(?:than|as|more|fewer|less|times|off|worth)\b/i;

/**
 * Whose own records L2 may cite, as a possessive: the name in the amount's sentence ("John drinks
 * 2 glasses" -> "John's"), else its pronoun ("he watched" -> "his own").
 */
function ownerOf(question: string, q: Quantity, names: readonly string[]): string | undefined {
  const before = question.slice(0, q.index);
  const sentence = before.slice(Math.max(before.lastIndexOf('. '), before.lastIndexOf('? ')) + 1);
  const name = names.find((n) => /^[A-Z][a-z]+$/.test(n) && new RegExp(`\\b${n}\\b(?!'s)`).test(sentence));
  if (name !== undefined) return `${name}'s`;
  if (/\b(?:he|his|him)\b/i.test(sentence)) return 'his own';
  if (/\b(?:she|her)\b/i.test(sentence)) return 'her own';
  return undefined;
}

function subjectOf(sentence: string): InPlace['subject'] | undefined {
  if (/\bthere (?:are|is|were|was) $/i.test(sentence)) return { kind: 'there' };
  // "there were 25 men and 15 women": the same "there" for the second count.
  if (/\bthere (?:are|is|were|was)\b[^,.;]*\band $/i.test(sentence)) return { kind: 'there' };
  // The amount's own clause, without a fronted phrase or a connective: "If his farm truck can carry".
  const clause = (sentence.split(/,\s+/).at(-1) ?? '').replace(/^(?:if|when|and|but|so|while|then)\s+/i, '');
  const words = clause.split(/\s+/).filter(Boolean);
  if (/^it$/i.test(words[0] ?? '')) return undefined;
  // "On Sunday he exercised for", "Over the weekend she solved": a person after a fronted phrase.
  if (words.some((w) => /^(?:he|she|they|I|we|you)$/i.test(w))) return { kind: 'person' };
  const nouns: string[] = [];
  for (const w of words) {
    if (/^(?:the|a|an|each|every|one|his|her|their|its|my|our|your)$/i.test(w) || /'s$/.test(w)) continue;
    if (SUBJECT_ENDS.test(w) || !/^[A-Za-z-]+$/.test(w)) break;
    if (nouns.length > 0 && endsSubject(w, nouns.at(-1) as string)) break;
    nouns.push(w);
  }
  const head = nouns.at(-1);
  if (!head || MEASURES.test(head)) return undefined;
  // "a Calloway people" is no English: a plural head is compared with a person, or not at all.
  if (/^(?:people|persons|folks)$/i.test(head)) return { kind: 'person' };
  if (analyse(head.toLowerCase(), 'noun').some((a) => a.form === 'plural')) return undefined;
  if (/^[A-Z]/.test(head) && nouns.length === 1) return { kind: 'person' };
  const lexFile = synsets(head.toLowerCase(), 'noun')[0]?.lexFile;
  if (lexFile === LEX_FILE.person) return { kind: 'person' };
  // A made thing, food, a group or a place can carry an invented name ("a Calloway truck", "a
  // Calloway class"); an animal an invented breed ("a goat of the Calloway breed"); an area or a
  // plan neither.
  if (lexFile !== undefined && BRANDED.has(lexFile)) return { kind: 'thing', head: head.toLowerCase() };
  if (lexFile === LEX_FILE.animal) return { kind: 'thing', head: head.toLowerCase() };
  return undefined;
}

/**
 * Whether `word`, after the noun `previous`, is the verb that ends the subject: "A builder works",
 * "people slide down" (a verb after a plural).
 */
function endsSubject(word: string, previous: string): boolean {
  const verb = analyse(word.toLowerCase(), 'verb');
  if (verb.some((a) => a.form === 'third' || a.form === 'past')) return true;
  return verb.length > 0 && /(?:s|people|men|children)$/.test(previous);
}

/** Nouns of measure, which carry no invented name ("a Calloway area"). */
const MEASURES =
  /^(?:area|length|width|height|distance|speed|rate|price|cost|amount|number|total|time|weight|size|capacity|there)$/i;

const BRANDED = new Set<number>([LEX_FILE.artifact, LEX_FILE.food, LEX_FILE.group, LEX_FILE.location]);

/** Where a subject's noun phrase ends: a verb or a preposition. */
const SUBJECT_ENDS =
  /^(?:has|have|had|is|are|was|were|can|could|will|would|should|must|does|do|did|needs?|costs?|weighs?|holds?|contains?|takes?|makes?|sells?|buys?|bought|sold|gets?|got|of|in|on|at|for|with|from)$/i;

/**
 * The given's own clause rewritten so that its quantity is defined by `d`: a count "N hectares of
 * a field" becomes "as many hectares of a field as <d.asTail>" (the clause must end within a few
 * words and hold no other number or comparison, so "as" finds its pair); an amount of money
 * "$10 an hour" becomes "<d.whatever> an hour". Undefined when the quantity sits in no such clause.
 */
function defineInPlace(
  question: string,
  q: Quantity,
  d: Definer,
  owner: string | undefined,
): string | undefined {
  // A given, not the question asked (a given in the question sentence's leading "If ..., " clause
  // counts); never one inside a noun phrase ("the remaining 24 liters").
  const end = q.index + q.text.length;
  // Not in a "respectively" list ("bought 34 and 48 oranges, respectively"): the rewrite splits it.
  if (/\brespectively\b/.test(question.slice(q.index, q.index + 120).split(/[.?!]/)[0] ?? ''))
    return undefined;
  // Not a side of a ratio ("7:13") nor joined to a word ("10-hour").
  if (q.hyphenated || question[q.index - 1] === ':' || question[end] === ':') return undefined;
  // Never inside quotes: a shop sign is quoted as written ("Buy 1 pound at $3").
  if ((question.slice(0, q.index).match(/["\u201c\u201d]/g) ?? []).length % 2 === 1) return undefined;
  if (q.inQuestion && !/^[^,;:.?!]*,/.test(question.slice(end))) return undefined;
  const before = question.slice(0, q.index);
  if (
    /\b(?:an?|the|her|his|their|my|your|its|our|another|remaining|other|total|first|last|next|extra)\s+$/i.test(
      before,
    )
  )
    return undefined;
  // "every 5 minutes", "$3 per pound": an amount in a rate's own phrase cannot take "the number of".
  if (/\b(?:every|each|per)\s+$/i.test(before)) return undefined;
  // "a total of 40 cannolis", "a package of 5 spoons": a count inside a noun phrase stays.
  if (q.kind === 'count' && /\b(?:of|to)\s+$/i.test(before)) return undefined;
  const sentenceStart = /(^|[.?!]\s+)$/.test(before);
  const cap = (t: string) => (sentenceStart ? `${t[0]?.toUpperCase()}${t.slice(1)}` : t);
  const rest = question.slice(end);
  const stop = rest.search(CLAUSE_END);
  const clause = stop < 0 ? rest : rest.slice(0, stop);
  if (NOT_PLAIN.test(clause) || clause.trim().split(/\s+/).length > 8) return undefined;
  // An amount of money that ends its clause or is followed by a preposition or a rate ("$10 an
  // hour", "$5 on lunch"): never one used as an adjective ("the $8 socks") or compared ("$5 more than").
  if (q.kind === 'money' && !/^\s*(?:(?:per|an?|each|on|for|in|at|to|from|with|every)\b.*)?$/i.test(clause))
    return undefined;
  if (q.kind !== 'count' && q.kind !== 'money') return undefined;
  const start = Math.max(before.lastIndexOf('. '), before.lastIndexOf('? ')) + 1;
  const sentence = before.slice(start).trimStart();
  const after = question.slice(end + clause.length);
  const thereIs = /^There (?:are|is|were|was) $/.test(sentence) && /^\.(?:\s|$)/.test(after);
  const written = d.write({
    amount: q.text,
    kind: q.kind,
    clause,
    thereIs,
    afterThere: /\bthere (?:are|is|were|was) $/i.test(sentence),
    subject: subjectOf(sentence),
    owner,
    past: pastTense(sentence),
    lead: sentence,
    paid: toldInPast(`${sentence}${q.text}${clause}`) || toldInPast(askedSentence(question)),
  });
  if (written === undefined) return undefined;
  // "There are 6 girls in the park." -> "The number of girls in the park is given in ...".
  if (thereIs && written.startsWith('the number of'))
    return `${before.slice(0, before.length - sentence.length)}${capitalize(written)}${after}`;
  return `${before}${cap(written)}${after}`;
}

/** Builds the rewrite for one boundary type; undefined when the problem offers nothing to work with. */
function rewrite(
  type: KbType,
  seed: Seed,
  rng: PyRandom,
): { text: string; how: string; name?: string } | undefined {
  const question = seed.question;
  const numbers = solutionNumbers(seed.solution);
  const quantities = findQuantities(question).filter((q) => onSolutionPath(q, numbers));
  const entities = extractEntities(question);
  switch (type) {
    case 'missing-information': {
      const q = pickQuantity(quantities, rng, (x) => blurrable(question, x));
      if (!q) return undefined;
      return { text: blur(question, q), how: `removed ${q.text}` };
    }
    case 'fabricated-evidence':
    case 'not-yet-knowable':
    case 'fabricated-entity': {
      const d = definer(type, question, rng);
      const owner = (x: Quantity) => ownerOf(question, x, entities.names);
      const q = pickQuantity(
        quantities,
        rng,
        (x) => blurrable(question, x) && defineInPlace(question, x, d, owner(x)) !== undefined,
      );
      if (!q) return undefined;
      const text = defineInPlace(question, q, d, owner(q));
      if (text === undefined) return undefined;
      if (d.keepsAmount) return { text, how: `${q.text} ${d.how}` };
      // Any other occurrence of the value is blurred, and a total that gives it back dropped.
      return { text: unrecoverable(replaceQuantity(text, q, vague(q)), q), how: `${q.text} ${d.how}` };
    }
    case 'impossible-premise': {
      const made = impossiblePremise(question, quantities, seed.solution, rng);
      return made && { text: made.text, how: made.how, name: `impossible-premise-${made.kind}` };
    }
  }
}

export function knowledgeBoundaryRules({ seed, original, level, rng }: RulesInput): RulesMade | undefined {
  const kbType = KB_TYPE_OF_LEVEL[level];
  const made = rewrite(kbType, seed, rng);
  if (!made || knowledgeBoundaryGate(original, made.text).verdict !== 'pass') return undefined;
  // "every 6 minutes" blurred reads "every few minutes", not "every several minutes".
  made.text = made.text
    .replace(/\b([Ee]very) several\b/g, '$1 few')
    // "$8 dollars" blurred: "a certain number of dollars", never "a certain amount dollars".
    .replace(/\ba certain amount dollars\b/g, 'a certain number of dollars');
  return { text: made.text, name: made.name ?? kbType, subtype: kbType, kbType };
}
