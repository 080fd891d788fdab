/**
 * Semantic Variation's whole-text rewrites: narrative past to present, the one person named where
 * a pronoun stood, sentences merged with ", and", the given facts in reverse order (in blocks that
 * keep every pronoun after what it points to), and L4-L5's framing sentences. Each returns
 * undefined where the rewrite would not read as English. `plan.ts` plans them.
 */

import type { Entities } from '../../text/entities.js';
import { analyse, inflect } from '../../text/morphology.js';
import { capitalize, endsWithAbbreviation } from '../../text/tokens.js';
import { escapeRegex } from './words.js';

/** Narrative past -> present, only where a pronoun or name is the verb's subject and no time word pins the past. */
export function presentTense(text: string, names: ReadonlySet<string>): string | undefined {
  if (
    /\b(yesterday|ago|earlier|last|before|after|then|later|tomorrow|will|already|previously|originally)\b/i.test(
      text,
    )
  ) {
    return undefined;
  }
  const subjects = ['He', 'he', 'She', 'she', 'It', 'it', ...names];
  // A subject's verb, with an adverb that may stand between them ("he also paid").
  // Not the second of two subjects ("David and Dasha went" is no "Dasha goes"): that verb stays, and
  // the check below then keeps the whole text in its own tense.
  const subjectVerb = new RegExp(
    `(?<!\\band )\\b(${subjects.map(escapeRegex).join('|')}) (${ADVERB})?([a-z]+)\\b`,
    'g',
  );
  const isPast = (verb: string) => analyse(verb, 'verb').find((a) => a.form === 'past' && a.base !== 'be');
  let changed = false;
  const out = text.replace(subjectVerb, (all, subject, adverb = '', verb) => {
    if (verb === 'was') {
      changed = true;
      return `${subject} ${adverb}is`;
    }
    const past = isPast(verb);
    if (!past) return all;
    changed = true;
    return `${subject} ${adverb}${inflect(past.base, 'verb', 'third')}`;
  });
  // "... goes to the bakery and bought ..." -> "... and buys ...": coordinated verbs follow.
  const coordinated = out.replace(
    new RegExp(`\\b(goes|buys|[a-z]+s) ([^.?!,]*?) and (${ADVERB})?([a-z]+)\\b`, 'g'),
    (all, first, middle, adverb = '', verb) => {
      const past = isPast(verb);
      if (!past || !analyse(first, 'verb').some((a) => a.form === 'third')) return all;
      return `${first} ${middle} and ${adverb}${inflect(past.base, 'verb', 'third')}`;
    },
  );
  // A past verb left beside a present one would mix tenses ("he pays ... and additionally paid"):
  // then the text keeps its own tense.
  const left = [...coordinated.matchAll(subjectVerb)].some(
    ([, , , verb]) => verb !== undefined && (verb === 'was' || isPast(verb) !== undefined),
  );
  const leftCoordinated = [
    ...coordinated.matchAll(
      /\b(?:and|but|so|or|then) (?:(?:also|additionally|then|just|still|only) )?([a-z]+)\b/g,
    ),
  ].some(
    ([, verb]) =>
      verb !== undefined &&
      isPast(verb) !== undefined &&
      analyse(verb, 'verb').every((a) => a.form === 'past'),
  );
  // "One of them he picks up was not a marble": a 'was' or 'were' left means the tenses mix.
  if (left || leftCoordinated || /\b(?:was|were)\b/.test(coordinated)) return undefined;
  if (!changed) return undefined;
  // The question follows the narrative: "How much did Sunny earn?" -> "How much does Sunny earn?".
  return coordinated
    .replace(/\bdid (?=(?:he|she|it|[A-Z][a-z]+)\b)/g, 'does ')
    .replace(/\bDid (?=(?:he|she|it|[A-Z][a-z]+)\b)/g, 'Does ')
    .replace(/\bdid (?=(?:they|we|you|I)\b)/g, 'do ')
    .replace(/\bDid (?=(?:they|we|you|I)\b)/g, 'Do ');
}

/** Adverbs that may stand between a subject and its verb. */
const ADVERB = '(?:also|additionally|still|often|usually|only) ';

/** A sentence starting like this does not join well with ", and": a conjunction, an imperative, a question word. */
const NO_MERGE_START =
  /^(But|And|So|Or|Then|However|Yet|Also|Calculate|Find|Determine|Work|Compute|Give|Express|Round|How|What|If|Suppose)\b/;

export function mergeable(sentence: string, next: string | undefined, cast: Cast): boolean {
  // "..., and John drinks" needs John known as a name; a capital kept on a word that is not a
  // person's name ("and Due to the outbreak") reads wrong: such a sentence is not joined.
  const first = (next?.split(/\s+/)[0] ?? '').replace(/'s$|[^A-Za-z]/g, '');
  if (cast.keep.has(first) && !cast.names.has(first)) return false;
  return (
    next !== undefined &&
    // "X, and half are golf, and half are blue": one ", and" per sentence.
    !/, and /.test(sentence) &&
    !/, and /.test(next) &&
    sentence.endsWith('.') &&
    !endsWithAbbreviation(sentence) &&
    !next.endsWith('?') &&
    !NO_MERGE_START.test(next) &&
    sentence.split(' ').length >= 4
  );
}

/** The question asked: a "?" sentence, or an imperative asking for a number. */
function isQuestion(sentence: string): boolean {
  return sentence.endsWith('?') || /^(Calculate|Find|Determine|Work out|Compute|What|How)\b/.test(sentence);
}

/** The problem's only named person and their pronouns, when it names exactly one. */
export interface Who {
  person: string;
  subject: string;
  possessive: string;
}

/** "She bought ..." -> "Toula bought ...", "Her parents ..." -> "Toula's parents ..." (only the sentence start). */
function nameForPronoun(sentence: string, who?: Who): string {
  if (!who) return sentence;
  const subject = capitalize(who.subject);
  const possessive = capitalize(who.possessive);
  if (subject !== 'They' && sentence.startsWith(`${subject} `))
    return `${who.person}${sentence.slice(subject.length)}`;
  if (possessive !== 'Their' && sentence.startsWith(`${possessive} `)) {
    return `${who.person}'s${sentence.slice(possessive.length)}`;
  }
  // "On Friday, he picks ...": the subject after a fronted phrase, where the sentence names no one.
  if (subject !== 'They' && !sentence.includes(who.person)) {
    const fronted = new RegExp(`^([A-Z][^,]{2,40}, )${who.subject} `).exec(sentence);
    if (fronted) return `${fronted[1]}${who.person} ${sentence.slice(fronted[0].length)}`;
  }
  return sentence;
}

/** A sentence that leans on the one before it (a pronoun, a connective, "the other"). */
const LEANS =
  /^(He|She|They|It|His|Her|Their|Its|This|That|These|Those|Each (?:of|one|day|week|month|year|hour|minute|time|has|is|was|can|gets|got|will)|One of|Then|After|Later|But|So|And|Also|Of|However|Finally|Next|If|When|The other|The rest|Another|Both|All|Half|Some|Only|In addition|Besides|Meanwhile|Afterwards?|Still|Now|Later|Once|While|Because|Since|Yet|Or|Over)\b/;

/**
 * Words that point back to something said before ("them", "also", "the rest"): a block holding one
 * cannot move ahead of what came before it ("James replies to the rest of them. James receives 80
 * emails" lost what "them" is).
 */
const REFERS_BACK =
  /\b(?:he|she|him|his|her|hers|they|them|their|theirs|it|its|those|these|also|additionally|too|again|another|others?|rest|remainder|remaining|left|same|both|each of (?:them|these|those)|all the|all of the|in kind|in return|a second time|that (?:number|amount|many|much|rate|price))\b/gi;

function refersBack(block: readonly string[], who?: Who): boolean {
  const text = block.join(' ');
  const own =
    who && text.includes(who.person)
      ? [who.subject, who.possessive, who.subject === 'he' ? 'him' : 'her']
      : [];
  return [...text.matchAll(REFERS_BACK)].some(([w]) => !own.includes(w.toLowerCase()));
}

/**
 * The given facts in reverse order, the question kept last: sentences are grouped into blocks, a
 * block being a sentence that stands alone followed by those that lean on it (pronouns, "then"),
 * and the blocks are reversed, so every pronoun still follows what it refers to. A block that
 * still points back (a pronoun or "also" inside it) stays after the block before it.
 */
export function reverseGivens(all: readonly string[], who?: Who): string[] | undefined {
  if (!isQuestion(all.at(-1) ?? '')) return undefined;
  // "Suppose A. How B?" is asked as one: the supposition stays just before the question.
  const asked = all.length >= 2 && /^Suppose /.test(all.at(-2) as string) ? 2 : 1;
  const sentences = [...all.slice(0, -asked), (all.slice(-asked) as string[]).join(' ')];
  const last = sentences.length - 1;
  if (last < 2) return undefined;
  const blocks: string[][] = [];
  // A sentence that starts with the one person's pronoun can stand alone once it names them.
  for (const s of sentences.slice(0, last).map((x, i) => (i > 0 ? nameForPronoun(x, who) : x))) {
    if (blocks.length === 0 || LEANS.test(s)) (blocks.at(-1) ?? blocks[blocks.push([]) - 1])?.push(s);
    else blocks.push([s]);
  }
  const kept: string[][] = [];
  for (const block of blocks) {
    const before = kept.at(-1);
    if (before && refersBack(block, who)) before.push(...block);
    else kept.push([...block]);
  }
  if (kept.length < 2) return undefined;
  // With three blocks or more the first, which sets the scene ("Raphael went to buy some school
  // supplies."), stays first and the rest turn round.
  const order = kept.length >= 3 ? [kept[0] as string[], ...kept.slice(1).reverse()] : kept.reverse();
  return [...order.flat(), ...all.slice(-asked)];
}

/**
 * The one person named where a pronoun stood: in the question ("How much money does he have left?"
 * -> "... does Craig have left?", "What percent of her spools are blue?" -> "... of Candy's spools
 * ...") and in the first later sentence that opens with the pronoun. Once each, so the name is
 * not repeated sentence after sentence.
 */
export function namePronouns(sentences: readonly string[], who?: Who): string[] | undefined {
  if (!who || who.subject === 'they' || sentences.length < 2) return undefined;
  const out = [...sentences];
  const last = out.length - 1;
  const question = out[last] as string;
  if (!question.includes(who.person)) {
    out[last] = question
      .replace(new RegExp(`(?<=[a-z] )${who.subject}\\b`), who.person)
      .replace(
        new RegExp(`\\b(of|for|in|on|at|with|to|from) ${who.possessive} (?=[a-z])`),
        `$1 ${who.person}'s `,
      );
  }
  // Not right after a sentence that names them ("Craig has 2 bills. Craig buys ...").
  const given = out.findIndex(
    (x, i) =>
      i > 0 &&
      i < last &&
      !x.includes(who.person) &&
      !(out[i - 1] as string).includes(who.person) &&
      nameForPronoun(x, who) !== x,
  );
  if (given > 0) out[given] = nameForPronoun(out[given] as string, who);
  return out.some((x, i) => x !== sentences[i]) ? out : undefined;
}

/** Who the problem names: its people, the capitalised words that stay capitalised, its one person. */
export interface Cast {
  names: ReadonlySet<string>;
  /** `names` and every other capitalised word the original never writes in lower case ("John", "Google"). */
  keep: ReadonlySet<string>;
  who?: Who;
}

/** The problem's one named person, when it names exactly one and a he/she refers to them. */
export function whoOf(entities: Entities): Who | undefined {
  const person = entities.names[0];
  if (entities.names.length !== 1 || !person || entities.pronouns.subject === 'they') return undefined;
  return { person, subject: entities.pronouns.subject, possessive: entities.pronouns.possessive };
}
