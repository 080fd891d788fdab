/**
 * The people, things and places a word problem talks about, found by simple rules (capitalised
 * names, nouns after quantities, nouns after "to the"/"at the"), so that the Context Interference
 * and Context Load generators can write sentences about the problem's own world.
 */
import { isPersonName } from './given-names.js';
import { analyse } from './morphology.js';
import { NUMBER_PATTERN } from './tokens.js';
import { hasLemma, LEX_FILE, synsets } from './wordnet.js';

export interface Pronouns {
  subject: string;
  object: string;
  possessive: string;
}

export interface Entities {
  /** Capitalised names in order of frequency (`Toula`, `Mr. Tan`, `Google`): kept as written, not all people. */
  names: string[];
  /** The problem's main person, a given or titled name (given-names.ts), or "someone" when it names none. */
  person: string;
  /** Whether `person` is a proper name (templates write "Toula's friend" vs "a friend of the shopper"). */
  named: boolean;
  pronouns: Pronouns;
  /** Plural noun phrases of the things counted (`donuts`, `mini cupcakes`); never people (`students`). */
  objects: string[];
  /** Places (`bakery`, `store`). */
  places: string[];
}

/** Capitalised words that start sentences without naming anyone. */
const NOT_NAMES = new Set(
  (
    'the a an if how what when where which who whose why each every there it its he she they his her their ' +
    'on in at after before during over of to for but and so then yesterday today tomorrow later while since ' +
    'because one two three four five six seven eight nine ten half twice find calculate daily meanwhile also ' +
    'this that these those i we you my our your all some most many both either neither no not out as by ' +
    'monday tuesday wednesday thursday friday saturday sunday january february march april may june july ' +
    'august september october november december easter christmas thanksgiving halloween first second third ' +
    'last next another other let suppose given assume according usually ' +
    'mr mrs ms dr prince princess king queen uncle aunt grandma grandpa sir lady'
  ).split(' '),
);
const TITLES = new Set(['Mr.', 'Mrs.', 'Ms.', 'Dr.', 'Prince', 'Princess', 'King', 'Queen', 'Uncle', 'Aunt']);

/** Quantity words that sit between a number and the thing counted ("3 dozen donuts"). */
const UNIT_WORDS = new Set(
  (
    'dozen dozens pair pairs pack packs packages package box boxes bag bags piece pieces cup cups liter liters ' +
    'litre litres gallon gallons pound pounds ounce ounces gram grams kilogram kilograms kg g lb lbs mile miles ' +
    'foot feet inch inches yard yards meter meters hour hours minute minutes second seconds day days week weeks ' +
    'month months year years times percent cents dollars dollar slices slice set sets rows row batch batches acre acres hectare hectares ' +
    'more less fewer extra other different new small large big full whole'
  ).split(' '),
);

/** Words that end a noun phrase after a number. */
const PHRASE_STOP = new Set(
  (
    'which that who and or but for per each a an the to of in on at with from by as than if is are was were ' +
    'has have had will would can could should did does do be been it its his her their he she they this those ' +
    'these every all more less fewer each'
  ).split(' '),
);

function isCapitalisedWord(token: string): boolean {
  return /^[A-Z][a-z]+$/.test(token);
}

/** A token without surrounding punctuation or a possessive `'s`. */
function bare(token: string): string {
  return token
    .replace(/^[^A-Za-z]+/, '')
    .replace(/[^A-Za-z]+$/, '')
    .replace(/'s$/, '');
}

/** Words that, right after a sentence-initial capitalised word, show it is someone doing something. */
const VERBISH = new Set(
  (
    'is was has had have can could will would wants wanted went goes bought buys sells sold gets got makes made ' +
    'needs needed takes took gives gave decides decided likes liked loves loved lives lived works worked ' +
    'plans planned uses used runs ran reads read writes wrote spends spent earns earned pays paid saw sees ' +
    'collects collected picks picked found finds caught catches does did starts started began begins ' +
    'and'
  ).split(' '),
);

/**
 * Whether a capitalised word names someone. Inside a sentence a capital is enough (unless a lowercase
 * noun follows it, as in "Facebook friends"); at the start of a sentence it must be followed by a verb,
 * or be unknown to WordNet as a common word, or be a person in WordNet's first sense.
 */
function looksLikeName(word: string, next: string, initial: boolean, lowerText: string): boolean {
  const lower = word.toLowerCase();
  if (NOT_NAMES.has(lower)) return false;
  if (new RegExp(`\\b${lower}\\b`).test(lowerText.replace(new RegExp(`\\b${word}\\b`, 'g'), ''))) {
    // The same word also appears in lowercase: a common word capitalised at a sentence start.
    return false;
  }
  const nextLower = next.toLowerCase();
  if (!initial) {
    if (VERBISH.has(nextLower)) return true;
    // "the rest were Chinese", "the Chinese team": a nationality or language, not a person.
    if (hasLemma(lower, 'adj') || hasLemma(lower.replace(/s$/, ''), 'adj')) return false;
    return !(
      next === nextLower &&
      /^[a-z]+s$/.test(next) &&
      analyse(nextLower, 'noun').some((a) => a.form === 'plural')
    );
  }
  if (/s$/.test(lower) && analyse(lower, 'noun').some((a) => a.form === 'plural')) return false;
  if (VERBISH.has(nextLower)) return true;
  if (/^[a-z]+(ed|es)$/.test(next) && analyse(nextLower, 'verb').length > 0) return true;
  const nouns = synsets(lower, 'noun');
  if (nouns.length === 0) return !hasLemma(lower, 'verb') && !hasLemma(lower, 'adj');
  return nouns[0]?.lexFile === LEX_FILE.person;
}

function findNames(text: string): string[] {
  const counts = new Map<string, number>();
  const tokens = text.split(/\s+/).filter((t) => t.length > 0);
  const lowerText = text;
  for (let i = 0; i < tokens.length; i++) {
    const raw = tokens[i] as string;
    const prevRaw = i > 0 ? (tokens[i - 1] as string) : '';
    const initial = i === 0 || (/[.!?]["')]?$/.test(prevRaw) && !TITLES.has(prevRaw));
    const title = raw.replace(/[,;:]$/, '');
    if (TITLES.has(title) && tokens[i + 1] && isCapitalisedWord(bare(tokens[i + 1] as string))) {
      const name = `${title} ${bare(tokens[i + 1] as string)}`;
      counts.set(name, (counts.get(name) ?? 0) + 1);
      i++;
      continue;
    }
    const word = bare(raw);
    if (!isCapitalisedWord(word)) continue;
    const next = tokens[i + 1] ? bare(tokens[i + 1] as string) : '';
    const prev = bare(prevRaw);
    // "Fine Arts Center", "Small Tree School": a run of capitals is a place, not a person.
    const joinedNext = tokens[i + 1] !== undefined && !/[.,;:!?]$/.test(raw) && isCapitalisedWord(next);
    const joinedPrev =
      i > 0 && !initial && !/[.,;:!?]$/.test(prevRaw) && isCapitalisedWord(prev) && !TITLES.has(prevRaw);
    if (joinedNext || joinedPrev) continue;
    const nextForVerb = /[.,;:!?]$/.test(raw) ? '' : next;
    if (!looksLikeName(word, nextForVerb, initial, lowerText)) continue;
    counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([name]) => name);
}

function findPronouns(text: string): Pronouns {
  const lower = ` ${text.toLowerCase().replace(/[^a-z' ]/g, ' ')} `;
  const count = (words: string[]) => words.reduce((n, w) => n + (lower.split(` ${w} `).length - 1), 0);
  const she = count(['she', 'her', 'hers', 'herself']);
  const he = count(['he', 'him', 'his', 'himself']);
  const they = count(['they', 'them', 'their', 'themselves']);
  if (she > he && she >= they) return { subject: 'she', object: 'her', possessive: 'her' };
  if (he > 0 && he >= they) return { subject: 'he', object: 'him', possessive: 'his' };
  return { subject: 'they', object: 'them', possessive: 'their' };
}

/** Words that are never the thing counted. */
const NOT_OBJECTS = new Set(
  'so then old long wide tall high deep away apart ago later inside left right total free off up down early late pm am'.split(
    ' ',
  ),
);

function isPluralNoun(word: string): boolean {
  return /s$/.test(word) && analyse(word, 'noun').some((a) => a.form === 'plural');
}

/** A plural whose commonest noun sense is a person (WordNet's noun.person). */
function isPersonNoun(plural: string): boolean {
  const base = analyse(plural, 'noun').find((a) => a.form === 'plural')?.base ?? plural;
  return synsets(base, 'noun')[0]?.lexFile === LEX_FILE.person;
}

function findObjects(text: string): string[] {
  const out: string[] = [];
  const add = (phrase: string) => {
    if (phrase && !out.includes(phrase)) out.push(phrase);
  };
  const tokens = text.replace(NUMBER_PATTERN, ' #NUM# ').split(/\s+/);
  for (let i = 0; i < tokens.length; i++) {
    // "a 36-minute call": a number joined to a word by a hyphen is an adjective, not a count.
    if (tokens[i] !== '#NUM#' || tokens[i + 1]?.startsWith('-')) continue;
    const words: string[] = [];
    for (let j = i + 1; j < tokens.length && words.length < 4; j++) {
      const raw = tokens[j] as string;
      const w = raw.toLowerCase().replace(/[^a-z-]/g, '');
      if (!w || raw !== raw.toLowerCase() || PHRASE_STOP.has(w) || NOT_OBJECTS.has(w) || raw === '#NUM#')
        break;
      if (/ing$/.test(w) && analyse(w, 'verb').some((a) => a.form === 'gerund')) break;
      words.push(w);
      if (/[,.;:!?)]$/.test(raw)) break;
    }
    // Drop leading unit words; "3 dozen donuts" counts donuts, "10 liters of orange drink" a volume.
    while (words.length > 0 && UNIT_WORDS.has(words[0] as string)) words.shift();
    const plural = words.findIndex(isPluralNoun);
    const phrase = plural >= 0 ? words.slice(0, plural + 1) : [];
    if (phrase.length === 0) continue;
    if (phrase.some((w) => !/^[a-z]+$/.test(w))) continue;
    // Counted people are not things: "the store sold 115 students".
    if (isPersonNoun(phrase[phrase.length - 1] as string)) continue;
    add(phrase.slice(-2).join(' '));
  }
  for (const m of text.matchAll(/\b(?:kinds|types|sorts|variety) of ([a-z]+)/g)) {
    const w = (m[1] as string).toLowerCase();
    if (analyse(w, 'noun').length && !UNIT_WORDS.has(w) && !NOT_OBJECTS.has(w)) add(w);
  }
  return out;
}

/** Locations that are parts of something, not places one goes to ("in the end", "to the corner"). */
const NOT_PLACES = new Set(
  'corner edge side end top bottom middle front back area spot point way line rest left right center centre'.split(
    ' ',
  ),
);

/** Made things that are places one goes to. */
const PLACE_WORDS = new Set(
  (
    'store shop bakery market supermarket mall school library park zoo museum farm restaurant cafe diner ' +
    'office hospital theater theatre cinema gym pool beach station airport garden yard kitchen house home ' +
    'pantry classroom hall fair carnival stand salon bank church stadium arena court factory warehouse ' +
    'studio center centre club hotel arcade rink'
  ).split(' '),
);

function findPlaces(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/\b(?:to|at|in|from|into|near) the ([a-z]+)/gi)) {
    const w = (m[1] as string).toLowerCase();
    const noun = synsets(w, 'noun')[0];
    // A location (city, park, beach), or a made thing that is a place one goes to (store, school):
    // never "the tube" or "the tray".
    if (
      noun &&
      ((noun.lexFile === LEX_FILE.location && !NOT_PLACES.has(w)) ||
        (noun.lexFile === LEX_FILE.artifact && PLACE_WORDS.has(w))) &&
      !out.includes(w) &&
      !UNIT_WORDS.has(w)
    )
      out.push(w);
  }
  return out;
}

export function extractEntities(text: string): Entities {
  const names = findNames(text);
  const pronouns = findPronouns(text);
  // Only a name known as a person's is written as one (issue 36: "A friend of Earth").
  const person = names.find(isPersonName);
  return {
    names,
    person: person ?? 'someone',
    named: person !== undefined,
    pronouns: person ? pronouns : { subject: 'they', object: 'them', possessive: 'their' },
    objects: findObjects(text),
    places: findPlaces(text),
  };
}
