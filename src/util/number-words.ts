/** English words for the whole numbers 0-12, indexed by value: the counts a problem spells out. */
export const SMALL_NUMBER_WORDS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
] as const;

/** The words for 13-19, after SMALL_NUMBER_WORDS in value. */
export const TEEN_NUMBER_WORDS = [
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
] as const;

/** The word for a whole number 0-12 (`3` -> `three`). */
export function numberWord(n: number): string {
  const w = SMALL_NUMBER_WORDS[n];
  if (w === undefined) throw new Error(`no word for ${n}`);
  return w;
}
