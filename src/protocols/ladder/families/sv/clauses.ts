/**
 * Semantic Variation's sentence-local rewrites: each takes one sentence and returns it reworded
 * (a clause or phrase moved, the voice or the construction changed) with every number and the
 * meaning kept, or undefined where the rewrite would not read as English. `sv.ts` plans them.
 */

import { analyse, inflect } from '../../text/morphology.js';
import { capitalize, endsWithAbbreviation, numbersIn, splitSentences } from '../../text/tokens.js';
import { LEX_FILE, synsets } from '../../text/wordnet.js';

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
  | 'number-question'
  | 'question-phrase-front'
  | 'time-to-front'
  | 'suppose'
  | 'each-costs'
  | 'active'
  | 'of-them'
  | 'ask-directly'
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
    'finally first next last once how what which who daily weekly monthly yearly every usually normally ' +
    'sometimes currently recently altogether together meanwhile also still over during far'
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
  if (names.has(first) || first === 'I' || /^[A-Z]{2,}/.test(first) || endsWithAbbreviation(first))
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
  // "She bought a top for $10, shorts for $15, and shoes": the verb has a list of objects; "reads
  // 25 pages on Monday and twice as many on Tuesday": a second object after "and".
  if (/,| and /.test(tail)) return undefined;
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
  // "... when he was three times the age his father was when he saw it": a clause holding a
  // second clause reads ambiguously in front.
  if (/\b(?:and|or|but|then|when|if|because)\b/.test(clause)) return undefined;
  // "If he works for a year, if he gets paid $50": the main clause holds a condition already;
  // "he earns $10 an hour and gets a bonus if the company does well": the condition is the
  // second verb's, and fronted it would hold for both.
  if (/\b(?:if|when|and|or|but)\b/i.test(main)) return undefined;
  return `${capitalize(conj)} ${clause}, ${lowerFirst(main, names)}${end}`;
}

function timeToEnd(sentence: string, names: ReadonlySet<string>): string | undefined {
  const m =
    /^((?:On|In|At|During|Over|For|Yesterday|Today|Later|Last|This|(?:Every|Each) (?:day|week|month|year|morning|afternoon|evening|night|hour|minute|weekend|time|[A-Z][a-z]+day)\b|Daily|So far)\b[^,]{0,40}), (.{6,})([.!?])$/.exec(
      sentence,
    );
  if (!m) return undefined;
  const [, phrase, main, end] = m as unknown as [string, string, string, string];
  // "he picks triple what he did on Wednesday on Friday": not after a phrase of its own kind.
  if (/ (?:on|in|at|during|after|before|by|within|every|each) (?!\$)(?:\S+ ){0,3}\S+$/.test(main))
    return undefined;
  // "On Sunday, he sold 5 more than on Saturday": at the end the phrase would read as the
  // comparison's; "Later, when she set the table, she had 12 spoons" would end "12 spoons later".
  if (/\bthan\b|,/.test(main)) return undefined;
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
  // "3 red balls, 11 blue balls, and 25 green balls in the store": the place is the whole list's
  // (unless every item has its own: "$18 for an adult and $11 for a child").
  const phrase = / (?:in|at|on|from|to|for|with|per|each|into) /;
  if (phrase.test(items.at(-1) as string) && !items.every((it) => phrase.test(it))) return undefined;
  // "15 red cards, and 60% more green cards": an item measured against the one before stays after it.
  if (items.some((it) => /\b(?:more|fewer|less|times|twice|half|than|as many|as much)\b/.test(it)))
    return undefined;
  if (/,\s*$/.test(sentence.slice(0, first))) return undefined;
  // "2 skeins of wool to make a hat, 4 for a scarf": the later items lean on the first one's noun,
  // so they cannot go ahead of it.
  const counted = (it: string) => /^\$?\d[\d.,]*\s+(?!(?:for|to|per|each|in|on|at|of)\b)[A-Za-z]/.test(it);
  if (counted(items[0] as string) && !items.slice(1).every(counted)) return undefined;
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
    // "On the sidewalk, she walks twice as fast as she does on the beach": the phrase belongs to
    // the clause it ends, and a fronted phrase is there already.
    /,|\b(?:than|as|does|do|did)\b/.test(main) ||
    numbersIn(main).length > 1 ||
    // "the last time she was at the shop": the phrase completes a clause of its own.
    /\b(?:was|were|is|are|am|be|been)$|\b(?:time|when|where|while|until|before|after)\b/.test(main)
  )
    return undefined;
  const noun = (head.split(' ').at(-1) ?? '').toLowerCase();
  const lexFile = synsets(analyse(noun, 'noun')[0]?.base ?? noun, 'noun')[0]?.lexFile;
  if (!PLACE_NOUNS.has(noun) && lexFile !== LEX_FILE.location && lexFile !== LEX_FILE.time) return undefined;
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
  const [, be, listed, det, place] = m as unknown as [string, string, string, string, string];
  const has = be === 'is' || be === 'are' ? 'has' : 'had';
  // "There are currently 3 balls in the store" -> "The store currently has 3 balls" (not "has currently").
  const adverb = /^(?:currently|now|still|already|also|only) /.exec(listed)?.[0] ?? '';
  return `${capitalize(det)} ${place} ${adverb}${has} ${listed.slice(adverb.length)}.`;
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

/** "X, and she Y." -> "X. She Y."; "X, so he Y." -> "X. So he Y." (L4-L5: the sentence count is free). */
function split(sentence: string): string | undefined {
  // A question stays one sentence: "What is left for Sam if they have 100 feet. They agree ...?" is none.
  const m = /^(.{15,}?), (and|so|but) (he|she|they|it|I|we|[A-Z][a-z]+) (.{8,}\.)$/.exec(sentence);
  if (!m) return undefined;
  const [, first, conj, subject, rest] = m as unknown as [string, string, string, string, string];
  // "so" and "but" carry the cause or the contrast into the new sentence ("So he watched ...").
  const link = conj === 'and' ? '' : `${capitalize(conj)} `;
  return `${first}. ${link}${link ? subject : capitalize(subject)} ${rest}`;
}

const AUX_FORM: Record<string, 'base' | 'third' | 'past' | undefined> = {
  do: 'base',
  does: 'third',
  did: 'past',
};

/** Participle -> past of the verbs the passive knows ("found" -> "found", "eaten" -> "ate"). */
const ACTIVE_PAST = new Map<string, string>(
  Object.entries(PASSIVE_VERBS)
    .filter(([, [, past]]) => past)
    .map(([written, [participle]]) => [participle, written]),
);

/**
 * "All the other eggs were found by their friends." -> "Their friends found all the other eggs.":
 * the passive made active, where the agent is a name or a determiner and a noun.
 */
function active(sentence: string, names: ReadonlySet<string>): string | undefined {
  const m = /^(.{4,}?) (?:was|were) ([a-z]+) by ((?:the|their|his|her|its) [a-z]+|[A-Z][a-z]+)([.!?])$/.exec(
    sentence,
  );
  if (!m) return undefined;
  const [, object, participle, agent, end] = m as unknown as [string, string, string, string, string];
  const past = ACTIVE_PAST.get(participle);
  if (!past || /,|\b(?:and|or|which|that|who)\b/.test(object)) return undefined;
  if (/^[A-Z]/.test(agent) && !agent.includes(' ') && !names.has(agent)) return undefined;
  return `${capitalize(agent)} ${past} ${lowerFirst(object, names)}${end}`;
}

/** "43 of them are girls." -> "Of them, 43 are girls."; "The Smith twins each found 30 eggs." -> "Each of the Smith twins found 30 eggs." */
function ofThem(sentence: string): string | undefined {
  const partitive = /^(\d[\d,]*) of (them|these|those|the [a-z]+) (are|were|have|had|can|will) (.+)$/.exec(
    sentence,
  );
  if (partitive) {
    const [, n, whole, verb, rest] = partitive as unknown as [string, string, string, string, string];
    return `Of ${whole}, ${n} ${verb} ${rest}`;
  }
  const each = /^The ((?:[A-Z]?[a-z]+ ){0,2}[a-z]+s) each ([a-z]+) (.+)$/.exec(sentence);
  if (each) {
    const [, group, verb, rest] = each as unknown as [string, string, string, string];
    // A past or modal verb reads the same after "Each of the twins"; a present one would need "-s".
    if (!/ed$|^(?:found|got|ate|made|bought|sold|had|took|gave|can|could|will|would)$/.test(verb))
      return undefined;
    return `Each of the ${group} ${verb} ${rest}`;
  }
  return undefined;
}

/** "Calculate the total number of insects in the garden." -> "What is the total number of insects in the garden?" */
function askDirectly(sentence: string): string | undefined {
  const m = /^(?:Calculate|Find|Determine|Work out|Compute) (the [^,]{6,})\.$/.exec(sentence);
  return m ? `What is ${m[1]}?` : undefined;
}

/** A "How many/much ...?" question in statement order: "does James have" -> "James has". */
interface Asked {
  quantifier: 'many' | 'much';
  /** What is counted, with its leading space (" blue golf balls"), or "". */
  what: string;
  /** The rest in statement order ("James has", "there are", "the total cost was"). */
  clause: string;
}

/**
 * "How many pineapples can John harvest within a year?" -> John can harvest ...: the subject is a
 * pronoun, a name, or a determiner and one word; with do/does/did the main verb takes its tense
 * ("does James have" -> "James has").
 */
function asked(sentence: string, names: ReadonlySet<string>): Asked | undefined {
  const m =
    /^How (many|much)((?: [a-z-]+){0,4}?) (can|could|will|would|should|does|do|did|is|are|was|were|has|have|had) (.+)\?$/.exec(
      sentence,
    );
  if (!m) return undefined;
  const [, quantifier, what, aux, rest] = m as unknown as ['', 'many' | 'much', string, string, string];
  const words = rest.split(' ');
  // "How much was the total cost?" -> "how much the total cost was".
  if (
    /^(is|are|was|were)$/.test(aux) &&
    words.length <= 4 &&
    /^(the|his|her|their|its|this|that)$/.test(words[0] as string)
  ) {
    return { quantifier, what, clause: `${rest} ${aux}` };
  }
  let subjectLength = 0;
  const first = words[0] as string;
  if (/^(he|she|it|they|you|we|I)$/.test(first) || names.has(first.replace(/'s$/, ''))) subjectLength = 1;
  else if (/^(Mr|Mrs|Ms|Dr)[.\uE000]$/.test(first) && words[1]) subjectLength = 2;
  else if (
    /^(?:the|this|that|these|those|his|her|their|its|each|every|a|an)$/.test(first) &&
    aux in AUX_FORM
  ) {
    // "does the farm make", "do the two of them have": the subject runs to the first verb.
    const verb = words.findIndex(
      (w, j) => j >= 2 && j <= 4 && analyse(w, 'verb').some((a) => a.form === 'base'),
    );
    if (verb > 0) subjectLength = verb;
  }
  if (subjectLength === 0) {
    // "How many boys were at school?": nothing to invert.
    if (!/^(is|are|was|were)$/.test(aux) || !/^(at|in|on|there|left)$/.test(first)) return undefined;
    // "How many balls are there?" -> "how many balls there are" (not "... are there").
    if (first === 'there') return { quantifier, what, clause: `there ${[aux, ...words.slice(1)].join(' ')}` };
    return { quantifier, what, clause: `${aux} ${rest}` };
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
    return { quantifier, what, clause: `${subject} ${[inflected, ...after.slice(1)].join(' ')}` };
  }
  return { quantifier, what, clause: `${subject} ${aux}${after.length ? ` ${after.join(' ')}` : ''}` };
}

/** "How many pineapples can John harvest?" -> "Find how many pineapples John can harvest." */
function imperative(sentence: string, names: ReadonlySet<string>): string | undefined {
  const a = asked(sentence, names);
  return a ? `Find how ${a.quantifier}${a.what} ${a.clause}.` : undefined;
}

/**
 * "How many tubes of paint does Jasper have?" -> "What is the number of tubes of paint that Jasper
 * has?", "How much money does he have left?" -> "What is the amount of money that he has left?".
 * Only where a noun is counted: "how many more", "how much longer" compare and are left alone.
 */
function numberQuestion(sentence: string, names: ReadonlySet<string>): string | undefined {
  // "If he gets paid $50 a day, how much money does he earn?": the question after its condition.
  const condition = /^((?:If|When) [^,]{6,}, )(how .+)$/.exec(sentence);
  if (condition) {
    const asked = numberQuestion(capitalize(condition[2] as string), names);
    return asked ? `${condition[1]}${asked[0]?.toLowerCase()}${asked.slice(1)}` : undefined;
  }
  const a = asked(sentence, names);
  if (!a || a.clause.startsWith('there ')) return undefined;
  const words = a.what.trim().split(' ');
  if (
    words[0] === '' ||
    /^(?:more|fewer|less|longer|extra|additional|times|of|in|on|at)$/.test(words[0] as string)
  )
    return undefined;
  // "How many dragons" counts a plural noun; "how much water" a mass noun (no plural read).
  const head = (words.includes('of') ? words[0] : words.at(-1)) as string;
  const plural = analyse(head, 'noun').some((x) => x.form === 'plural');
  if (a.quantifier === 'many' ? !plural : plural || analyse(head, 'noun').length === 0) return undefined;
  const measure = a.quantifier === 'many' ? 'number' : 'amount';
  return `What is the ${measure} of${a.what} that ${a.clause}?`;
}

/** The phrases a question may end on and start with instead: a time, or a total. */
const QUESTION_TAIL = new RegExp(
  '^((?:How|What)\\b.{8,}?) (' +
    '(?:after|before|during|within|by the end of|at the end of|over the next) [^,?]{3,40}' +
    '|in (?:total|all)|altogether|together' +
    '|in (?:one|a|an|\\d+|two|three|four|five|six|seven|eight|nine|ten|the first|the next|that|this) ' +
    '(?:[a-z]+ )?(?:days?|weeks?|months?|years?|hours?|minutes?|seconds?|semesters?|seasons?)' +
    ')\\?$',
);

/**
 * "How many people are infected after three days?" -> "After three days, how many people are
 * infected?": a closing time phrase or total asked first, the question still last.
 */
function questionPhraseFront(sentence: string, names: ReadonlySet<string>): string | undefined {
  const m = QUESTION_TAIL.exec(sentence);
  if (!m) return undefined;
  const [, main, phrase] = m as unknown as [string, string, string];
  // "after 3 weeks than before", "after lunch and dinner": the phrase is not one piece.
  if (
    /\b(?:than|and|or|if|when)\b/.test(phrase) ||
    / (?:to|of|for|in|on|at|with|from|by|the|a|an)$/.test(main)
  )
    return undefined;
  return `${capitalize(phrase)}, ${lowerFirst(main, names)}?`;
}

/** A sentence that continues the one before: fronting a phrase before its connective reads wrong. */
const CONNECTIVE_START = /^(?:Then|But|So|And|Also|Later|However|Finally|Next|Afterwards?|Meanwhile|Still)\b/;

const TIME_TAIL =
  /^(.{10,}?) ((?:on|every|each) (?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)s?|on (?:the )?weekends?|on weekdays|(?:every|each) (?:day|week|month|year|morning|afternoon|evening|night)|in the (?:morning|afternoon|evening)|at night|(?:last|this|next) (?:week|month|year|night|weekend|summer|winter|spring|fall)|yesterday|today|tomorrow)\.$/;

/**
 * "John picks 4 bananas on Wednesday." -> "On Wednesday, John picks 4 bananas.": a closing time
 * phrase fronted, where it belongs to the whole sentence (one number, no "and", no list).
 */
function timeToFront(sentence: string, names: ReadonlySet<string>): string | undefined {
  const m = TIME_TAIL.exec(sentence);
  if (!m) return undefined;
  const [, main, phrase] = m as unknown as [string, string, string];
  if (numbersIn(main).length > 1 || /,| and | but | or /.test(main) || CONNECTIVE_START.test(main))
    return undefined;
  return `${capitalize(phrase)}, ${lowerFirst(main, names)}.`;
}

/**
 * "If he has 64 eggs and 2 trays, how many eggs won't he place?" -> "Suppose he has 64 eggs and 2
 * trays. How many eggs won't he place?": one sentence more, so L3 and up.
 */
function suppose(sentence: string): string | undefined {
  const m = /^If ([^,]{8,}), ((?:how|what|which|who|calculate|find|determine|work out)\b.{6,}[?.])$/.exec(
    sentence,
  );
  if (!m) return undefined;
  const [, clause, main] = m as unknown as [string, string, string];
  return `Suppose ${clause}. ${capitalize(main)}`;
}

/**
 * "Bagels cost $1 each." -> "Each bagel costs $1."; "Each bolt costs $0.03." -> "The price of each
 * bolt is $0.03.".
 */
function eachCosts(sentence: string, names: ReadonlySet<string>): string | undefined {
  const plural = /^([A-Z][a-z]+(?: [a-z]+){0,2}) cost (\$[\d.,]*\d) (?:each|apiece)\.$/.exec(sentence);
  if (plural) {
    const [, things, price] = plural as unknown as [string, string, string];
    const words = things.split(' ');
    const head = (words.at(-1) as string).toLowerCase();
    const singular = analyse(head, 'noun').find((a) => a.form === 'plural')?.base;
    if (!singular || names.has(words[0] as string)) return undefined;
    return `Each ${[...words.slice(0, -1), singular].join(' ').toLowerCase()} costs ${price}.`;
  }
  const each = /^Each ([a-z]+(?: of [a-z]+)?) costs (\$[\d.,]*\d)\.$/.exec(sentence);
  if (each) return `The price of each ${each[1]} is ${each[2]}.`;
  return undefined;
}

/** Each sentence rewrite by name; those that move no proper name ignore the second argument. */
const SENTENCE_OPS: Record<
  SentenceOpName,
  (sentence: string, names: ReadonlySet<string>) => string | undefined
> = {
  'if-to-end': ifToEnd,
  'if-to-front': ifToFront,
  'time-to-end': timeToEnd,
  passive,
  'list-reverse': listReverse,
  imperative,
  'place-to-front': placeToFront,
  'it-takes': itTakes,
  'there-is': thereIs,
  'per-each': perEach,
  'number-question': numberQuestion,
  'question-phrase-front': questionPhraseFront,
  'time-to-front': timeToFront,
  suppose,
  'each-costs': eachCosts,
  active,
  'of-them': ofThem,
  'ask-directly': askDirectly,
  split,
};

/**
 * One sentence rewritten by `name`, or undefined where it does not apply. A rewrite that would open a
 * sentence with a numeral ("5 eggs are found by Lamar.") is refused: style guides spell such a
 * number out or recast the sentence, and spelling it out would drop a number the gates count.
 */
export function applyLocal(
  name: SentenceOpName,
  sentence: string,
  names: ReadonlySet<string>,
): string | undefined {
  const out = SENTENCE_OPS[name](sentence, names);
  if (out === undefined) return undefined;
  const opensWithNumeral = (s: string) => splitSentences(s).some((x) => /^\$?\d/.test(x));
  return opensWithNumeral(out) && !opensWithNumeral(sentence) ? undefined : out;
}
