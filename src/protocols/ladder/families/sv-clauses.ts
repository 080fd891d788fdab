/**
 * Semantic Variation's sentence-local rewrites: each takes one sentence and returns it reworded
 * (a clause or phrase moved, the voice or the construction changed) with every number and the
 * meaning kept, or undefined where the rewrite would not read as English. `sv.ts` plans them.
 */

import { analyse, inflect } from '../text/morphology.js';
import { capitalize, numbersIn } from '../text/tokens.js';
import { synsets } from '../text/wordnet.js';

export type SentenceOpName =
  | 'if-to-end'
  | 'if-to-front'
  | 'time-to-end'
  | 'place-to-front'
  | 'passive'
  | 'list-reverse'
  | 'imperative'
  | 'it-takes'
  | 'there-is'
  | 'per-each'
  | 'split';

const SUBJECT_OBJECT: Record<string, string> = { he: 'him', she: 'her', they: 'them', i: 'me', we: 'us' };

/** Transitive verbs that read well in the passive: written form -> [participle, past?]. */
const PASSIVE_VERBS: Record<string, [string, boolean]> = {};
for (const [base, past, participle] of [
  ['buy', 'bought', 'bought'],
  ['sell', 'sold', 'sold'],
  ['pick', 'picked', 'picked'],
  ['catch', 'caught', 'caught'],
  ['eat', 'ate', 'eaten'],
  ['find', 'found', 'found'],
  ['make', 'made', 'made'],
  ['bake', 'baked', 'baked'],
  ['collect', 'collected', 'collected'],
  ['receive', 'received', 'received'],
  ['hide', 'hid', 'hidden'],
  ['slice', 'sliced', 'sliced'],
  ['score', 'scored', 'scored'],
  ['plant', 'planted', 'planted'],
  ['cook', 'cooked', 'cooked'],
  ['paint', 'painted', 'painted'],
  ['drink', 'drank', 'drunk'],
  ['use', 'used', 'used'],
  ['write', 'wrote', 'written'],
  ['read', 'read', 'read'],
  ['order', 'ordered', 'ordered'],
  ['harvest', 'harvested', 'harvested'],
  ['peel', 'peeled', 'peeled'],
  ['fill', 'filled', 'filled'],
] as const) {
  PASSIVE_VERBS[past] = [participle, true];
  PASSIVE_VERBS[inflect(base, 'verb', 'third')] = [participle, false];
}

const OBJECT_END = new Set([
  'for',
  'at',
  'on',
  'in',
  'from',
  'into',
  'onto',
  'with',
  'to',
  'every',
  'each',
  'per',
  'during',
  'last',
  'this',
  'yesterday',
  'today',
]);
const OBJECT_ABORT = new Set(['which', 'that', 'who', 'and', 'or', 'but', 'than', 'if', 'because']);

/** Words that open a sentence and are written in lower case elsewhere: closed-class words and common openers. */
const SENTENCE_OPENERS = new Set(
  (
    'a an the this that these those there it he she they we you i his her their its our my your each every all ' +
    'some most many few both half one two three four five six seven eight nine ten if when while after before ' +
    'during since so but and or then now today yesterday later of in on at for from to with by according due ' +
    'finally first next last once how what which who'
  ).split(' '),
);

/**
 * `names` and the capitalised words of `original` that it never writes in lower case and that do not
 * commonly open a sentence ("John", "Google", "Brandon"): such a word keeps its capital when a clause
 * moves it inside a sentence.
 */
export function withProperWords(original: string, names: ReadonlySet<string>): Set<string> {
  const lower = new Set(original.match(/\b[a-z][a-z']*/g) ?? []);
  const out = new Set(names);
  for (const w of original.match(/\b[A-Z][a-z']*/g) ?? []) {
    const bare = w.replace(/'s$/, '');
    if (!SENTENCE_OPENERS.has(bare.toLowerCase()) && !lower.has(bare.toLowerCase())) out.add(bare);
  }
  return out;
}

export function lowerFirst(text: string, names: ReadonlySet<string>): string {
  const first =
    text
      .split(/\s+/)[0]
      ?.replace(/'s$/, '')
      .replace(/[^A-Za-z.]/g, '') ?? '';
  if (names.has(first) || first === 'I' || /^[A-Z]{2,}/.test(first) || /^(Mr|Mrs|Ms|Dr)\./.test(first))
    return text;
  // "Facebook", "Monday": capitalised inside the original too, so keep.
  return text.length > 0 ? (text[0]?.toLowerCase() ?? '') + text.slice(1) : text;
}

function passive(sentence: string, names: ReadonlySet<string>): string | undefined {
  const m = /^(\S+) (\S+) (.+?)([.!?])$/.exec(sentence);
  if (!m) return undefined;
  const [, subject, verb, rest, end] = m as unknown as [string, string, string, string, string];
  const subjectLower = subject.toLowerCase();
  const agent = SUBJECT_OBJECT[subjectLower] ?? (names.has(subject) ? subject : undefined);
  const verbInfo = PASSIVE_VERBS[verb];
  if (!agent || !verbInfo) return undefined;
  const words = rest.split(' ');
  const object: string[] = [];
  let i = 0;
  for (; i < words.length; i++) {
    const w = words[i] as string;
    const bare = w.toLowerCase().replace(/[^a-z]/g, '');
    if (OBJECT_ABORT.has(bare)) return undefined;
    if (OBJECT_END.has(bare) && object.length > 0) break;
    if (w.endsWith(',')) return undefined;
    object.push(w);
  }
  if (object.length === 0 || !/^(\$?\d|a\b|an\b|some\b|the\b|his\b|her\b|their\b)/i.test(object[0] as string))
    return undefined;
  const tail = words.slice(i).join(' ');
  const singular = /^(1|a|an|one)$/i.test(object[0] as string);
  const copula = verbInfo[1] ? (singular ? 'was' : 'were') : singular ? 'is' : 'are';
  const objectText = object.join(' ');
  return `${capitalize(objectText)} ${copula} ${verbInfo[0]} by ${agent}${tail ? ` ${tail}` : ''}${end}`;
}

const CLAUSE_CONJ = 'If|When|After|Before|Since|While|Although|Because|Once|Until';

function ifToEnd(sentence: string, names: ReadonlySet<string>): string | undefined {
  // The main clause starts at the last comma followed by a question word or a subject, so a list
  // inside the condition ("If Artie sells 12 pots, 9 pots and 17 pots, how much ...") stays whole.
  const m = new RegExp(
    `^(${CLAUSE_CONJ}) (.{3,}), ((?:how|what|which|who|where|when|why|he|she|they|it|i|we|you|there|calculate|find)\\b.{6,})([.!?])$`,
    'i',
  ).exec(sentence);
  if (!m) return undefined;
  const [, conj, clause, main, end] = m as unknown as [string, string, string, string, string];
  // Two conditions in a row ("... if your target is 2000 ... if a bag has 5 servings") read as one.
  if (/\b(?:if|when)\b/i.test(main)) return undefined;
  // "She gets out toys for him when Sophie watches her nephew": a pronoun before the name it
  // stands for reads as someone else.
  const named = clause.split(/\s+/).some((w) => names.has(w.replace(/'s$|[^A-Za-z']/g, '')));
  if (named && /\b(?:he|she|him|her|his|hers|they|them|their)\b/i.test(main)) return undefined;
  return `${capitalize(main)} ${conj.toLowerCase()} ${lowerFirst(clause, names)}${end}`;
}

function ifToFront(sentence: string, names: ReadonlySet<string>): string | undefined {
  // Not "after"/"before": they are as often prepositions ("each hour after that").
  const m = /^(.{12,}?) (if|when|because|since|while) ([^,]{8,})([.!?])$/.exec(sentence);
  if (!m) return undefined;
  const [, main, conj, clause, end] = m as unknown as [string, string, string, string, string];
  // "He tripped while carrying it and dropped half": the "and" goes with the main verb, and the
  // clause cannot be moved without it.
  if (/\b(?:and|or|but|then)\b/.test(clause)) return undefined;
  return `${capitalize(conj)} ${clause}, ${lowerFirst(main, names)}${end}`;
}

function timeToEnd(sentence: string, names: ReadonlySet<string>): string | undefined {
  const m =
    /^((?:On|In|At|During|Over|For|Yesterday|Today|Later|Last|This|Every|Each|Daily)\b[^,]{0,40}), (.{6,})([.!?])$/.exec(
      sentence,
    );
  if (!m) return undefined;
  const [, phrase, main, end] = m as unknown as [string, string, string, string];
  // "he picks triple what he did on Wednesday on Friday": not after a phrase of its own kind.
  if (/ (?:on|in|at|during|after|before|by|within|every|each) (?:\S+ ){0,3}\S+$/.test(main)) return undefined;
  return `${capitalize(main)} ${lowerFirst(phrase, names)}${end}`;
}

/** "..., A, B, and C." with every item starting with a number -> "..., C, B, and A." */
function listReverse(sentence: string): string | undefined {
  const first = sentence.search(/\$?\d/);
  if (first <= 0) return undefined;
  const end = /[.!?]$/.test(sentence) ? (sentence.at(-1) as string) : '';
  const body = sentence.slice(first, end ? -1 : undefined);
  const items = body.split(/, and |, | and /);
  if (items.length < 2 || items.length > 6 || !items.every((it) => /^\$?\d/.test(it))) return undefined;
  // Only a list that is the object at the end of the sentence: no predicate inside the last item,
  // and a verb or preposition (not a fronted phrase with its comma) just before the first item.
  if (/ (is|are|was|were|has|have|had|will|can) /.test(items.at(-1) as string)) return undefined;
  // "3 red balls, 11 blue balls, and 25 green balls in the store": the place is the whole list's.
  if (/ (?:in|at|on|from|to|for|with|per|each|into) /.test(items.at(-1) as string)) return undefined;
  if (/,\s*$/.test(sentence.slice(0, first))) return undefined;
  const reversed = [...items].reverse();
  const joined =
    reversed.length === 2
      ? reversed.join(' and ')
      : `${reversed.slice(0, -1).join(', ')}, and ${reversed.at(-1)}`;
  return `${sentence.slice(0, first)}${joined}${end}`;
}

/** Nouns of places a problem happens in (besides WordNet's locations and times). */
const PLACE_NOUNS = new Set(
  'house home school store shop park pantry garden yard kitchen office bakery market farm beach library class classroom party city town street room stable'.split(
    ' ',
  ),
);

/**
 * "Mary has 6 jars in her pantry." -> "In her pantry, Mary has 6 jars." Only a phrase naming a
 * place or a time, and only when the rest holds at most one number and no "and": in "47 muffins in
 * the morning and 38 in the afternoon" the phrase belongs to one of the quantities, not the sentence.
 */
function placeToFront(sentence: string, names: ReadonlySet<string>): string | undefined {
  const m =
    /^(.{10,}?) ((?:in|at|on|during|within) (?:the|his|her|their|a|an|its|this|that) ((?:[A-Za-z'-]+ ){0,2}[A-Za-z'-]+))\.$/.exec(
      sentence,
    );
  if (!m) return undefined;
  const [, main, phrase, head] = m as unknown as [string, string, string, string];
  if (
    /\d|,|\b(to|from|of|for|with|than)\b/.test(head) ||
    main.split(' ').length < 3 ||
    / and /.test(main) ||
    numbersIn(main).length > 1
  )
    return undefined;
  const noun = (head.split(' ').at(-1) ?? '').toLowerCase();
  const lexFile = synsets(analyse(noun, 'noun')[0]?.base ?? noun, 'noun')[0]?.lexFile;
  if (!PLACE_NOUNS.has(noun) && lexFile !== 15 && lexFile !== 28) return undefined;
  return `${capitalize(phrase)}, ${lowerFirst(main, names)}.`;
}

/** "It takes Carmen 10 minutes to finish a puzzle." -> "Carmen needs 10 minutes to finish a puzzle." */
function itTakes(sentence: string, names: ReadonlySet<string>): string | undefined {
  const m = /^It takes (\S+) (.+?) to (.+)$/.exec(sentence);
  if (!m) return undefined;
  const [, who, amount, rest] = m as unknown as [string, string, string, string];
  const subject =
    { him: 'He', her: 'She', them: 'They', me: 'I', us: 'We' }[who] ?? (names.has(who) ? who : undefined);
  if (!subject) return undefined;
  const verb = /^(They|I|We)$/.test(subject) ? 'need' : 'needs';
  return `${subject} ${verb} ${amount} to ${rest}`;
}

/** "There are 6 girls in the park." -> "The park has 6 girls." */
function thereIs(sentence: string): string | undefined {
  const m = /^There (is|are|was|were) (.+?) (?:in|at|on) (the|his|her|their) ([a-z]+(?: [a-z]+)?)\.$/.exec(
    sentence,
  );
  if (!m) return undefined;
  const [, be, what, det, place] = m as unknown as [string, string, string, string, string];
  const has = be === 'is' || be === 'are' ? 'has' : 'had';
  return `${capitalize(det)} ${place} ${has} ${what}.`;
}

/** "There are 100 pineapples per hectare." -> "Each hectare has 100 pineapples." */
function perEach(sentence: string): string | undefined {
  const m = /^There (are|were) (\d[\d,]*(?: [a-z]+){1,3}) (?:per|in each|in every) ([a-z]+)\.$/.exec(
    sentence,
  );
  if (!m) return undefined;
  const [, be, what, unit] = m as unknown as [string, string, string, string];
  return `Each ${unit} ${be === 'are' ? 'has' : 'had'} ${what}.`;
}

/** "X, and she Y." -> "X. She Y." (L4-L5: the sentence count is free). */
function split(sentence: string): string | undefined {
  const m = /^(.{15,}?), (?:and|so|but) (he|she|they|it|I|we|[A-Z][a-z]+) (.{8,})$/.exec(sentence);
  if (!m) return undefined;
  const [, first, subject, rest] = m as unknown as [string, string, string, string];
  return `${first}. ${capitalize(subject)} ${rest}`;
}

const AUX_FORM: Record<string, 'base' | 'third' | 'past' | undefined> = {
  do: 'base',
  does: 'third',
  did: 'past',
};

/**
 * "How many pineapples can John harvest within a year?" -> "Find how many pineapples John can
 * harvest within a year." The subject is a pronoun, a name, or a determiner and one word; with
 * do/does/did the main verb takes its tense ("does James have" -> "James has").
 */
export function imperative(sentence: string, names: ReadonlySet<string>): string | undefined {
  const m =
    /^How (many|much)((?: [a-z-]+){0,4}?) (can|could|will|would|should|does|do|did|is|are|was|were|has|have|had) (.+)\?$/.exec(
      sentence,
    );
  if (!m) return undefined;
  const [, quantifier, what, aux, rest] = m as unknown as [string, string, string, string, string];
  const words = rest.split(' ');
  // "How much was the total cost?" -> "Find how much the total cost was."
  if (
    /^(is|are|was|were)$/.test(aux) &&
    words.length <= 4 &&
    /^(the|his|her|their|its|this|that)$/.test(words[0] as string)
  ) {
    return `Find how ${quantifier}${what} ${rest} ${aux}.`;
  }
  let subjectLength = 0;
  const first = words[0] as string;
  if (/^(he|she|it|they|you|we|I)$/.test(first) || names.has(first.replace(/'s$/, ''))) subjectLength = 1;
  else if (/^(Mr|Mrs|Ms|Dr)[.\uE000]$/.test(first) && words[1]) subjectLength = 2;
  if (subjectLength === 0) {
    // "How many boys were at school?": nothing to invert.
    if (!/^(is|are|was|were)$/.test(aux) || !/^(at|in|on|there|left)$/.test(first)) return undefined;
    // "How many balls are there?" -> "Find how many balls there are." (not "... are there.")
    if (first === 'there')
      return `Find how ${quantifier}${what} there ${[aux, ...words.slice(1)].join(' ')}.`;
    return `Find how ${quantifier}${what} ${aux} ${rest}.`;
  }
  const subject = words.slice(0, subjectLength).join(' ');
  const after = words.slice(subjectLength);
  const form = AUX_FORM[aux];
  if (form !== undefined) {
    const verb = after[0];
    const base = verb ? analyse(verb, 'verb').find((a) => a.form === 'base')?.base : undefined;
    if (!verb || !base) return undefined;
    const inflected = inflect(
      base,
      'verb',
      form === 'third' && /^(they|you|we|I)$/.test(first) ? 'base' : form,
    );
    return `Find how ${quantifier}${what} ${subject} ${[inflected, ...after.slice(1)].join(' ')}.`;
  }
  return `Find how ${quantifier}${what} ${subject} ${aux}${after.length ? ` ${after.join(' ')}` : ''}.`;
}

export function applyLocal(
  name: SentenceOpName,
  sentence: string,
  names: ReadonlySet<string>,
): string | undefined {
  switch (name) {
    case 'if-to-end':
      return ifToEnd(sentence, names);
    case 'if-to-front':
      return ifToFront(sentence, names);
    case 'time-to-end':
      return timeToEnd(sentence, names);
    case 'passive':
      return passive(sentence, names);
    case 'list-reverse':
      return listReverse(sentence);
    case 'imperative':
      return imperative(sentence, names);
    case 'place-to-front':
      return placeToFront(sentence, names);
    case 'it-takes':
      return itTakes(sentence, names);
    case 'there-is':
      return thereIs(sentence);
    case 'per-each':
      return perEach(sentence);
    case 'split':
      return split(sentence);
  }
}
