/**
 * Semantic Variation: paraphrase that keeps every number and the answer. The operations, by level:
 *   L1 single-word synonyms from the hand-checked lexicon only (no raw WordNet synonym: "slew" ->
 *      "mint", "use" -> "usage", "tubes" -> "tubings"), contractions, number words as
 *      digits ("three cards" -> "3 cards"), "%" as "percent", two named people the other way
 *      round, then, when those stay under the band, the lexicon's phrase rewrites;
 *   L2 adds phrase rewrites ("wants to" -> "would like to", "how many" -> "what number of") and
 *      the sentence rewrites of sv-clauses.ts (a clause or phrase moved, the voice or the
 *      construction changed, the question asked another way), narrative past -> present tense,
 *      and the one person named where the question says "he";
 *   L3 adds at most one merge or split of sentences, "If A, how B?" as "Suppose A. How B?", and
 *      the facts in reverse order;
 *   L4 adds merging and splitting sentences freely;
 *   L5 adds a framing sentence (L4 uses it as a last resort). The question stays last.
 * L1-L2 keep the sentence count, L3 changes it by at most one, L4-L5 are free; at most 1.3x the
 * words (docs/method.md). How many operations are applied is chosen by measuring (see aim.ts).
 */

import { SMALL_NUMBER_WORDS } from '../../../util/number-words.js';
import type { PyRandom } from '../../../util/random.js';
import { semanticVariationGate } from '../gates/family-gates.js';
import { type Entities, extractEntities } from '../text/entities.js';
import { bounded, CONTRACTIONS, LEXICON } from '../text/lexicon.js';
import { analyse, inflect, matchCase } from '../text/morphology.js';
import { capitalize, splitSentences, whitespaceWords } from '../text/tokens.js';
import { synsets } from '../text/wordnet.js';
import type { Level } from '../types.js';
import { type Aimed, aimAtLevel, lowerEdge } from './aim.js';
import { instructionsFor } from './model-instructions.js';
import { rulesFor, shuffled } from './rules-common.js';
import { applyLocal, lowerFirst, type SentenceOpName, withProperWords } from './sv-clauses.js';
import type { FamilyModule } from './types.js';

/** A word-level rewrite: every match of `pattern` (case-insensitive, word-bounded) becomes `replacement`. */
interface WordOp {
  kind: 'word';
  label: string;
  pattern: string;
  replacement: string;
}

/** An operation on the sentence list. Sentence-local ones name the original sentence they rewrite. */
type StructOp =
  | { kind: 'local'; label: SentenceOpName; sentence: number }
  | { kind: 'present-tense'; label: 'present-tense' }
  | { kind: 'name-pronouns'; label: 'name-pronouns' }
  | { kind: 'merge'; label: 'merge'; sentence: number }
  | { kind: 'reverse-givens'; label: 'reverse-givens' }
  | { kind: 'frame'; label: 'frame'; text: string };

type Op = WordOp | StructOp;

// ---------------------------------------------------------------------------------------------
// Words

/** Words never swapped: function words, quantities, units and the maths that must not move. */
const _PROTECTED = new Set(
  (
    'a an the and or but if then so of to in on at by for from with as than that which who whom whose what when ' +
    'where why how is are was were be been being am has have had do does did will would can could should may ' +
    'might must shall not no yes he she it they we you i me him her them us his hers its their our your my this ' +
    'these those there here each every all some any many much more most less least few fewer several both either ' +
    'neither other another such same own only just also too very per times time twice half total sum difference ' +
    'dozen dozens percent cents dollars dollar hour hours minute minutes second seconds day days week weeks month ' +
    'months year years mile miles foot feet inch inches yard yards pound pounds ounce ounces gram grams liter ' +
    'liters gallon gallons left right up down out off over under after before during while until since because ' +
    'about into onto again once first last next new old long short high low full empty equal equally rest ' +
    'like get got gets make made makes take took takes go went goes come came comes put set let lets give gave'
  ).split(' '),
);

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const NOT_COUNTED = 'quarters|thirds|fourths|fifths|sixths|eighths|tenths|halves|times';

/**
 * "three cards" -> "3 cards": a number word before a plural noun (or "dozen") written as a digit.
 * The structural gate still passes (every number of the original is there, one more is written),
 * and the answer is unchanged (number words <-> digits where the structural gate allows;
 * digits -> words would drop a number the gate counts).
 */
function numberWordOps(original: string): WordOp[] {
  const ops: WordOp[] = [];
  // From "two": never "one" ("one of them"), nor "zero".
  SMALL_NUMBER_WORDS.forEach((word, value) => {
    if (value < 2) return;
    const pattern = `${word}(?= (?!(?:${NOT_COUNTED})\\b)(?:[a-z]+s|dozen|people|children|men|women|geese|mice|feet|teeth)\\b)`;
    if (new RegExp(`\\b${pattern}`, 'i').test(original))
      ops.push({ kind: 'word', label: `digits:${word}`, pattern, replacement: String(value) });
  });
  return ops;
}

function wordOps(original: string, level: Level, names: ReadonlySet<string>): WordOp[] {
  const ops: WordOp[] = [];
  const covered = new Set<string>();
  for (const rewrite of LEXICON) {
    // L1's phrase rewrites come after its single words (phraseOps, ordered by plan).
    if (rewrite.phrase && level < 2) continue;
    const re = new RegExp(bounded(rewrite.pattern), 'i');
    const m = re.exec(original);
    if (!m) continue;
    ops.push({
      kind: 'word',
      label: `lexicon:${m[0].toLowerCase()}`,
      pattern: rewrite.pattern,
      replacement: rewrite.replacement,
    });
    for (const w of m[0].toLowerCase().split(/\s+/)) covered.add(w);
  }
  for (const [long, short] of CONTRACTIONS) {
    if (new RegExp(`\\b${escapeRegex(long)}\\b`, 'i').test(original)) {
      // "each hour after that is twice the cost": a demonstrative "that" is not contracted.
      const after = long === 'that is' ? '(?<!\\b(?:after|before|than|of|for|with|from|like|and|but) )' : '';
      ops.push({
        kind: 'word',
        label: `contract:${long}`,
        pattern: `${after}${escapeRegex(long)}`,
        replacement: short,
      });
    } else if (new RegExp(`\\b${escapeRegex(short)}`, 'i').test(original)) {
      // Not before its subject: "won't he be able" (or, once named, "won't Jaime") is "will he not",
      // never "will not he".
      const pattern = `${escapeRegex(short)}(?! (?:he|she|it|they|we|you|I|there|[A-Z][a-z]+)\\b)`;
      ops.push({ kind: 'word', label: `expand:${short}`, pattern, replacement: long });
    }
  }
  ops.push(...possessionOps(original, names), ...numberWordOps(original), ...formOps(original, names));
  return ops;
}

/**
 * Written forms that keep every number and the meaning: "30%" -> "30 percent", and two named
 * people given the other way round ("Carol and Jennifer" -> "Jennifer and Carol").
 */
function formOps(original: string, names: ReadonlySet<string>): WordOp[] {
  const ops: WordOp[] = [];
  if (/\d%/.test(original))
    // The space after "%" is part of the match: a word op must end at a word boundary or a space.
    ops.push({ kind: 'word', label: 'form:percent', pattern: '(?<=\\d)% ', replacement: ' percent ' });
  const seen = new Set<string>();
  for (const m of original.matchAll(/\b([A-Z][a-z]+) and ([A-Z][a-z]+)\b/g)) {
    const [pair, a, b] = m as unknown as [string, string, string];
    if (!names.has(a) || !names.has(b) || a === b || seen.has(pair)) continue;
    seen.add(pair);
    ops.push({ kind: 'word', label: 'form:names', pattern: pair, replacement: `${b} and ${a}` });
  }
  return ops;
}

/** L1's phrase rewrites ("wants to" -> "would like to"), tried after its single-word ones. */
function phraseOps(original: string): WordOp[] {
  const ops: WordOp[] = [];
  for (const rewrite of LEXICON) {
    if (!rewrite.phrase) continue;
    const m = new RegExp(bounded(rewrite.pattern), 'i').exec(original);
    if (m)
      ops.push({
        kind: 'word',
        label: `lexicon:${m[0].toLowerCase()}`,
        pattern: rewrite.pattern,
        replacement: rewrite.replacement,
      });
  }
  return ops;
}

const POSSESSION_OBJECT =
  /^(\$?\d|a|an|some|the|his|her|their|its|two|three|four|five|six|seven|eight|nine|ten|twenty|many|several|enough)$/i;
/** Time is not owned ("the sisters own three more weeks of vacation"), nor is a lack ("owns no change"). */
const NOT_OWNED =
  /^(?:\S+ ){0,2}(?:more |extra |left |)(?:seconds?|minutes?|hours?|days?|weeks?|months?|years?|time|change|chance|turns?|goal|plan|idea|job|rest|capacity|space|room|total)\b/i;
const OWN: Record<string, [string, string]> = {
  has: ['owns', 'contains'],
  have: ['own', 'contain'],
  had: ['owned', 'contained'],
};

/**
 * "Mary has 6 jars" -> "Mary owns 6 jars", "a bag of chips has 250 calories" -> "... contains 250
 * calories": possession reworded by who has it (a name, a pronoun or a WordNet person noun owns;
 * anything else contains). Auxiliary "has" ("has decided") is left alone.
 */
function possessionOps(original: string, names: ReadonlySet<string>): WordOp[] {
  const ops: WordOp[] = [];
  const seen = new Set<string>();
  const tokens = original.split(/\s+/);
  tokens.forEach((raw, i) => {
    const verb = raw.toLowerCase();
    const forms = OWN[verb];
    const prevRaw = (tokens[i - 1] ?? '').replace(/[^A-Za-z']/g, '');
    const next = (tokens[i + 1] ?? '').replace(/[^A-Za-z0-9$]/g, '');
    if (!forms || !prevRaw || !POSSESSION_OBJECT.test(next) || /[^A-Za-z]$/.test(tokens[i - 1] ?? '')) return;
    if (
      NOT_OWNED.test(
        tokens
          .slice(i + 1, i + 5)
          .join(' ')
          .replace(/[^A-Za-z0-9$ ]/g, ''),
      )
    )
      return;
    const prev = prevRaw.replace(/'s$/, '');
    const lexFile =
      synsets(prev.toLowerCase(), 'noun')[0]?.lexFile ??
      synsets(analyse(prev.toLowerCase(), 'noun')[0]?.base ?? '', 'noun')[0]?.lexFile;
    const person = names.has(prev) || /^(he|she|they|i|we|you)$/i.test(prev) || lexFile === 18;
    // Things (artifact, food, object, substance, quantity) contain; animals, groups and the rest keep "has".
    const thing = lexFile !== undefined && [6, 13, 17, 23, 27].includes(lexFile);
    if (!person && !thing) return;
    // "The tower has 9 rings on it" never "contains 9 rings on it".
    if (!person && /\b(?:in|on) it\b|\binside\b/.test(tokens.slice(i + 1).join(' '))) return;
    // Keyed and matched with the next word too: "Artie has a stand" is reworded, "Artie has no change" is not.
    const nextRaw = tokens[i + 1] ?? '';
    const key = `${prev} ${verb} ${nextRaw}`;
    if (seen.has(key)) return;
    seen.add(key);
    ops.push({
      kind: 'word',
      label: `possession:${verb}`,
      pattern: `(?<=\\b${escapeRegex(prevRaw)} )${verb}(?= ${escapeRegex(nextRaw)}(?:\\s|$))`,
      replacement: person ? forms[0] : forms[1],
    });
  });
  return ops;
}

/** Applies the word operations in one pass, so a replacement is never replaced again. */
function applyWordOps(text: string, unordered: readonly WordOp[]): string {
  if (unordered.length === 0) return text;
  // Longer patterns first, so "gives away" -> "donates" wins over "gives" -> "hands".
  const ops = [...unordered].sort((a, b) => b.pattern.length - a.pattern.length);
  const combined = new RegExp(ops.map((op, i) => `(?<g${i}>${bounded(op.pattern)})`).join('|'), 'gi');
  // Nothing inside quotes: a shop sign or a saying is quoted as written.
  const quoted = [...text.matchAll(/"[^"]*"|\u201c[^\u201d]*\u201d/g)].map((m) => [
    m.index ?? 0,
    (m.index ?? 0) + m[0].length,
  ]);
  return text.replace(combined, (...args) => {
    const groups = args[args.length - 1] as Record<string, string | undefined>;
    const offset = args[args.length - 3] as number;
    const index = ops.findIndex((_, i) => groups[`g${i}`] !== undefined);
    const matched = args[0] as string;
    const op = ops[index];
    if (quoted.some(([a, b]) => offset >= (a as number) && offset < (b as number))) return matched;
    return op ? matchCase(op.replacement, matched) : matched;
  });
}

// ---------------------------------------------------------------------------------------------
// Sentences

/** Narrative past -> present, only where a pronoun or name is the verb's subject and no time word pins the past. */
function presentTense(text: string, names: ReadonlySet<string>): string | undefined {
  if (
    /\b(yesterday|ago|earlier|last|before|after|then|later|tomorrow|will|already|previously|originally)\b/i.test(
      text,
    )
  ) {
    return undefined;
  }
  const subjects = ['He', 'he', 'She', 'she', 'It', 'it', ...names];
  // A subject's verb, with an adverb that may stand between them ("he also paid").
  const subjectVerb = new RegExp(`\\b(${subjects.map(escape).join('|')}) (${ADVERB})?([a-z]+)\\b`, 'g');
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
  return changed ? coordinated : undefined;
}

/** Adverbs that may stand between a subject and its verb. */
const ADVERB = '(?:also|additionally|still|often|usually|only) ';

const ABBREVIATION_END = /\b(Mr|Mrs|Ms|Dr|St|Jr|Sr)\.$/;
/** A sentence starting like this does not join well with ", and": a conjunction, an imperative, a question word. */
const NO_MERGE_START =
  /^(But|And|So|Or|Then|However|Yet|Also|Calculate|Find|Determine|Work|Compute|Give|Express|Round|How|What|If|Suppose)\b/;

function mergeable(sentence: string, next: string | undefined, cast: Cast): boolean {
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
    !ABBREVIATION_END.test(sentence) &&
    !next.endsWith('?') &&
    !NO_MERGE_START.test(next) &&
    sentence.split(' ').length >= 4
  );
}

/** L5's framing sentences (L5 leaves the sentence count free); the longest that fits the word budget is used. */
const FRAMES = [
  'Here is the problem.',
  'Here is a problem to solve.',
  'Here is a short problem to work through.',
  'Here is a short everyday problem to work through carefully.',
];

/** The question asked: a "?" sentence, or an imperative asking for a number. */
function isQuestion(sentence: string): boolean {
  return sentence.endsWith('?') || /^(Calculate|Find|Determine|Work out|Compute|What|How)\b/.test(sentence);
}

/** The problem's only named person and their pronouns, when it names exactly one. */
interface Who {
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
function namePronouns(sentences: readonly string[], who?: Who): string[] | undefined {
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
interface Cast {
  names: ReadonlySet<string>;
  /** `names` and every other capitalised word the original never writes in lower case ("John", "Google"). */
  keep: ReadonlySet<string>;
  who?: Who;
}

function build(original: string, ops: readonly Op[], k: number, cast: Cast): string {
  const { names, keep, who } = cast;
  const active = ops.slice(0, k);
  let sentences = splitSentences(original);
  const locals = active.filter((o): o is Extract<StructOp, { kind: 'local' }> => o.kind === 'local');
  sentences = sentences.map((s, i) => {
    let out = s;
    for (const op of locals) if (op.sentence === i) out = applyLocal(op.label, out, keep) ?? out;
    return out;
  });
  // A split makes two sentences out of one; re-split so later steps see them apart.
  sentences = splitSentences(sentences.join(' '));
  if (active.some((o) => o.kind === 'present-tense')) {
    sentences = splitSentences(presentTense(sentences.join(' '), names) ?? sentences.join(' '));
  }
  if (active.some((o) => o.kind === 'name-pronouns')) sentences = namePronouns(sentences, who) ?? sentences;
  const merges = new Set(
    active.filter((o) => o.kind === 'merge').map((o) => (o as { sentence: number }).sentence),
  );
  if (merges.size > 0) {
    const merged: string[] = [];
    for (let i = 0; i < sentences.length; i++) {
      const s = sentences[i] as string;
      const next = sentences[i + 1];
      if (merges.has(i) && next !== undefined && mergeable(s, next, cast)) {
        merged.push(`${s.slice(0, -1)}, and ${lowerFirst(next, keep)}`);
        i++;
      } else merged.push(s);
    }
    sentences = merged;
  }
  if (active.some((o) => o.kind === 'reverse-givens')) sentences = reverseGivens(sentences, who) ?? sentences;
  const frame = active.find((o) => o.kind === 'frame');
  if (frame) sentences = [frame.text, ...sentences];
  return applyWordOps(
    sentences.join(' '),
    active.filter((o): o is WordOp => o.kind === 'word'),
  );
}

/** Word-count change of an operation on the original (the 1.3x rule is kept for every prefix of the plan). */
function wordDelta(op: Op, original: string, keep: ReadonlySet<string>): number {
  switch (op.kind) {
    case 'word': {
      let delta = 0;
      for (const m of original.matchAll(new RegExp(bounded(op.pattern), 'gi'))) {
        delta +=
          op.replacement.split(/\s+/).filter(Boolean).length - m[0].split(/\s+/).filter(Boolean).length;
      }
      return delta;
    }
    case 'local': {
      const sentence = splitSentences(original)[op.sentence] ?? '';
      const out = applyLocal(op.label, sentence, keep);
      return out ? whitespaceWords(out).length - whitespaceWords(sentence).length : 0;
    }
    case 'merge':
      return 1;
    case 'frame':
      return op.text.split(' ').length;
    default:
      return 0;
  }
}

function structOps(original: string, level: Level, cast: Cast, rng: PyRandom): StructOp[] {
  const { names, keep, who } = cast;
  if (level < 2) return [];
  const sentences = splitSentences(original);
  const local: StructOp[] = [];
  sentences.forEach((s, i) => {
    // One clause move per sentence (two would undo each other).
    // "Suppose A. How B?" adds a sentence: L3 and up.
    const moves = (
      [
        'if-to-end',
        'if-to-front',
        'time-to-end',
        'time-to-front',
        'place-to-front',
        'question-phrase-front',
        ...(level >= 3 ? (['suppose'] as const) : []),
      ] as const
    ).filter((l) => applyLocal(l, s, keep));
    if (moves.length > 0) local.push({ kind: 'local', label: rng.choice(moves), sentence: i });
    for (const label of [
      'passive',
      'active',
      'of-them',
      'list-reverse',
      'it-takes',
      'there-is',
      'per-each',
      'each-costs',
    ] as const) {
      if (applyLocal(label, s, keep) !== undefined) local.push({ kind: 'local', label, sentence: i });
    }
    if (level >= 3 && applyLocal('split', s, keep) !== undefined)
      local.push({ kind: 'local', label: 'split', sentence: i });
  });
  if (presentTense(sentences.join(' '), names) !== undefined)
    local.push({ kind: 'present-tense', label: 'present-tense' });
  if (namePronouns(sentences, who) !== undefined)
    local.push({ kind: 'name-pronouns', label: 'name-pronouns' });
  const ops = shuffled(local, rng);
  if (level >= 3) {
    const joinable = sentences
      .map((_, i) => i)
      .filter((i) => mergeable(sentences[i] as string, sentences[i + 1], cast));
    // L3 may change the sentence count by one: a single merge. L4-L5: every other boundary.
    const merges = level === 3 ? joinable.slice(0, 1) : joinable.filter((_, j) => j % 2 === 0);
    for (const i of merges) ops.push({ kind: 'merge', label: 'merge', sentence: i });
  }
  const last = sentences.length - 1;
  // Asking the question as an instruction rewrites one sentence in place: fine from L2 on.
  // Or as "What is the number of ... that ...?".
  const asks = (['imperative', 'number-question', 'ask-directly'] as const).filter(
    (l) => applyLocal(l, sentences[last] as string, keep) !== undefined,
  );
  if (asks.length > 0) ops.push({ kind: 'local', label: rng.choice(asks), sentence: last });
  // The facts in reverse order keep the sentence count: L3 may use it too (reordering independent
  // sentences), after its one merge.
  if (level >= 3 && reverseGivens(sentences, who) !== undefined) {
    ops.push({ kind: 'reverse-givens', label: 'reverse-givens' });
  }
  return ops;
}

/** Abbreviations whose dot is not a sentence end ("Mr. Tan"): hidden while sentences are handled. */
const ABBREVIATION = /\b(Mr|Mrs|Ms|Dr|St|Jr|Sr)\. /g;
const HIDDEN_DOT = '\uE000';

/**
 * The operations in the order strength adds them: word rewrites first (L1's whole repertoire),
 * then clause work, then merges, asking the question first, and the frame, so that a higher
 * strength is always a heavier paraphrase.
 */
function plan(original: string, level: Level, rng: PyRandom, cast: Cast, clausesFirst = false): Op[] {
  const words = [
    ...shuffled(wordOps(original, level, cast.names), rng),
    ...(level === 1 ? shuffled(phraseOps(original), rng) : []),
  ];
  const clauses = structOps(original, level, cast, rng);
  // Words first is the usual order; clause work first lands in a band that one clause move steps
  // over when it comes after all the words (a plan the second try uses).
  const candidates: Op[] = clausesFirst ? [...clauses, ...words] : [...words, ...clauses];
  const count = whitespaceWords(original).length;
  const budget = Math.floor(count * 1.3 + 1e-9) - count;
  const out: Op[] = [];
  let used = 0;
  for (const op of candidates) {
    const delta = wordDelta(op, original, cast.keep);
    if (used + delta > budget) continue;
    out.push(op);
    used += delta;
  }
  // A framing sentence: L5's device, and L4's last resort (both leave the sentence count free).
  if (level >= 4) {
    const fitting = FRAMES.filter((f) => used + f.split(' ').length <= budget);
    const frame = fitting.at(-1);
    if (frame) out.push({ kind: 'frame', label: 'frame', text: frame });
  }
  return out;
}

function whoOf(entities: Entities): Who | undefined {
  const person = entities.names[0];
  if (entities.names.length !== 1 || !person || entities.pronouns.subject === 'they') return undefined;
  return { person, subject: entities.pronouns.subject, possessive: entities.pronouns.possessive };
}

/** Seeded plans tried per candidate: another order of the same operations (every second one with the clause work first) often lands in a band the first stepped over. */
const PLANS = 4;

const rules = rulesFor('SV', semanticVariationGate, ({ original, level, rng, target }) => {
  const hidden = original.replace(ABBREVIATION, `$1${HIDDEN_DOT} `);
  const entities = extractEntities(original);
  const names = new Set(entities.names.flatMap((n) => n.split(' ')));
  const cast: Cast = { names, keep: withProperWords(original, names), who: whoOf(entities) };
  let best: { aimed: Aimed; ops: Op[] } | undefined;
  for (let p = 0; p < PLANS; p++) {
    const ops = plan(hidden, level, rng, cast, p % 2 === 1);
    if (ops.length === 0) return undefined;
    const aimed = aimAtLevel(target, ops.length, (k) => {
      const text = build(hidden, ops, k + 1, cast).replaceAll(HIDDEN_DOT, '.');
      return text === original ? undefined : text;
    });
    if (!aimed) continue;
    const nearer =
      !best ||
      Math.abs((aimed.severity.level ?? 0) - level) < Math.abs((best.aimed.severity.level ?? 0) - level);
    if (nearer) best = { aimed, ops };
    if (aimed.severity.level === level) break;
    // Every operation applied and still below the band: another order of the same operations will
    // not reach it either, so the other plans are not tried (they cost most of the suite's time).
    const edge = lowerEdge(target);
    if (aimed.strength === ops.length - 1 && edge !== undefined && aimed.severity.score < edge) break;
  }
  if (!best) return undefined;
  const used = best.ops.slice(0, best.aimed.strength + 1);
  const kinds = [
    ...new Set(used.map((o) => (o.kind === 'word' ? (o.label.split(':')[0] as string) : o.label))),
  ];
  const wordOnly = kinds.every((k) =>
    ['lexicon', 'wordnet', 'contract', 'expand', 'digits', 'form'].includes(k),
  );
  const restructured = kinds.some((k) => ['merge', 'reverse-givens', 'frame'].includes(k));
  return {
    text: best.aimed.text,
    name: kinds.join('+'),
    subtype: wordOnly ? 'synonyms' : restructured ? 'restructure' : 'clauses',
  };
});

export const semanticVariation: FamilyModule = {
  family: 'SV',
  rules,
  modelInstructions: (seed, level, attempt) => instructionsFor('SV', seed, level, attempt),
  familyGate: semanticVariationGate,
};
