/**
 * A person's pronouns in a problem's sentences: what a sentence added before one could take for
 * its referent (issue 36: "His aunt ... only came up with 7" no longer says whose).
 */

/** A pronoun that points at a person. */
export const PERSON_PRONOUN = /\b(?:he|she|him|his|her|hers)\b/i;

/** A person named by a noun ("a man", "the teacher"). */
const PERSON_NOUN =
  /\b(?:man|woman|boy|girl|person|mother|father|mom|dad|wife|husband|son|daughter|brother|sister|teacher|farmer|baker|student|child|kid|friend|owner|chef|driver|worker|player)\b/i;

/** Capitalised words that open a sentence without naming anyone. */
const OPENERS = new Set(
  (
    'The A An If On In At After Before When While During Each Every Last This That These Those There It ' +
    'He She They His Her Their Feeling Yesterday Today Tomorrow Later Then So But And Also How What Which ' +
    'Who Find Calculate Meanwhile Since Because Once Now Finally First Next Both All Some Most'
  ).split(' '),
);

/**
 * Whether the sentence's first reference to a person is a pronoun (no name before it), so a
 * sentence put just before it could take its referent.
 */
export function opensWithPronoun(sentence: string): boolean {
  const m = PERSON_PRONOUN.exec(sentence);
  if (!m) return false;
  const before = sentence.slice(0, m.index);
  // "A man eats 5 sandwiches, his wife 4": the referent stands in the sentence itself.
  if (PERSON_NOUN.test(before)) return false;
  const names = before.match(/\b[A-Z][a-z]+\b/g) ?? [];
  return names.every((w) => OPENERS.has(w));
}
