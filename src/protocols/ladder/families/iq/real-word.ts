/**
 * Whether a slip made a capitalised word into another real word or name ("Mary" -> "May"): a
 * reader then meets a new entity, not a typo (docs/decisions.md E62). Real-word errors are
 * what spell-checkers miss; on a name they change who the problem is about, and on a word of the
 * question's meaning ("how many" -> "how may") what is asked (E70), so IQ writes neither.
 */
import { GIVEN_NAMES } from '../../text/given-names.js';
import { analyse } from '../../text/morphology.js';

/** Closed-class words WordNet leaves out: "They" from "The", "Hr" is none. */
const FUNCTION_WORDS = new Set(
  `a an the this that these those they them their there then than he she it its his her him we us our you your
  i me my who whom whose which what when where why how and or but nor so yet if of in on at by for to from with
  as up down out off over under into onto upon about after before since until while can could may might must
  shall should will would do does did is are was were be been am has have had not no yes all any each every
  some few many much more most own same such only also just too very`.split(/\s+/),
);

/** The letters of a word as written: "Mary's," -> "Mary". */
function bare(word: string): string {
  return word.replace(/'s$/i, '').replace(/[^A-Za-z]/g, '');
}

/** Whether `word` is an English word (any part of speech, any inflection) or a given name. */
export function isRealWord(word: string): boolean {
  // A digit read into a word ("Car0l") makes no word.
  if (/\d/.test(word)) return false;
  const w = bare(word);
  if (w.length === 0) return false;
  const lower = w.toLowerCase();
  if (FUNCTION_WORDS.has(lower)) return true;
  const name = `${lower.charAt(0).toUpperCase()}${lower.slice(1)}`;
  if (GIVEN_NAMES.has(name)) return true;
  return (['noun', 'verb', 'adj', 'adv'] as const).some((pos) => analyse(lower, pos).length > 0);
}

/**
 * Whether a capitalised word names someone or something: a given name, a capital inside a
 * sentence, or a sentence's first word that is no English word ("Toula"); "How" opening a question
 * is none ("Ho wmany" is a slip of the space, not a new entity).
 */
function isProperNoun(word: string, previous: string | undefined): boolean {
  const w = bare(word);
  if (!/^[A-Z]/.test(w)) return false;
  if (GIVEN_NAMES.has(w)) return true;
  const opensSentence = previous === undefined || /[.!?]["')]?$/.test(previous);
  return !opensSentence || !isRealWord(w);
}

/**
 * The words of a question whose slip into another real word flips what is asked ("how many" ->
 * "how may", "more" -> "mare", "than" -> "then", "not" -> "nut"): quantity, comparison, polarity and
 * the question's own words (review v4, E70). A slip elsewhere into a real word ("paler") stays
 * a recoverable real-word error.
 */
const MEANING_WORDS = new Set(
  `how many much more less fewer few most least not no never none all each every any some than then
  twice half per only with without before after both either neither same left total and or`.split(/\s+/),
);

/** The words beside a slipped word, each as [original, slipped]. */
export interface Beside {
  before?: readonly [string, string];
  after?: readonly [string, string];
}

/**
 * Whether the slip is a space struck early or late: a letter moved across the space to or from a
 * word beside it ("How many" -> "Ho wmany", "Howm any"); the words are all there, no new word.
 */
function spaceShift(original: string, slipped: string, beside: Beside): boolean {
  const { before, after } = beside;
  return (
    (after !== undefined && `${original}${after[0]}` === `${slipped}${after[1]}`) ||
    (before !== undefined && `${before[0]}${original}` === `${before[1]}${slipped}`)
  );
}

/**
 * A proper noun, or a word that carries the question's meaning, slipped into another real word or
 * name, or undefined when it is none; `previous` is the word before it (undefined at the start),
 * `beside` the words around it, original and slipped (a space shift between them is no new word).
 */
export function realWordSlip(
  original: string,
  slipped: string,
  previous: string | undefined,
  beside: Beside = {},
): string | undefined {
  if (bare(original).toLowerCase() === bare(slipped).toLowerCase()) return undefined;
  if (isProperNoun(original, previous))
    return isRealWord(slipped) ? `"${original}" -> "${slipped}", another word or name` : undefined;
  if (!MEANING_WORDS.has(bare(original).toLowerCase()) || spaceShift(original, slipped, beside))
    return undefined;
  return isRealWord(slipped)
    ? `"${original}" -> "${slipped}", another word that changes the question`
    : undefined;
}
