import { describe, expect, it } from 'vitest';
import type { McOption } from '../data/mc/mc-item.js';
import { type LetterVia, parseLetterAnswer } from './letter.js';

const lettered = (...texts: string[]): McOption[] =>
  texts.map((text, i) => ({ letter: 'ABCDEFGHIJKLM'[i] as string, text }));

const PRICE = lettered('$81.90', '$90', '$93', '$96');
const CITY = lettered('Sydney', 'Melbourne', 'Canberra', 'Perth');
const KNIGHTS = lettered(
  'Both are knights',
  'Rosa is a knight and Tomas is a knave',
  'Rosa is a knave and Tomas is a knight',
  'Both are knaves',
);
const FIVE = lettered('bank', 'library', 'department store', 'mall', 'new york');
const THIRTEEN = lettered(...'abcdefghijklm'.split('').map((c) => `choice ${c}${c}`));
const SIDES = lettered('6', '7', '8', '9');

type Row = [reply: string, options: McOption[], letter: string | undefined, via?: LetterVia | 'unparsed'];

/** Replies as models really write them, with the letter a careful human reader would take (or none). */
const TABLE: Row[] = [
  // 1. bare letters, however decorated
  ['B', PRICE, 'B', 'bare'],
  ['B.', PRICE, 'B', 'bare'],
  [' B\n', PRICE, 'B', 'bare'],
  ['(B)', PRICE, 'B', 'bare'],
  ['[C]', PRICE, 'C', 'bare'],
  ['b', PRICE, 'B', 'bare'],
  ['d)', PRICE, 'D', 'bare'],
  ['**B**', PRICE, 'B', 'bare'],
  ['**B.**', PRICE, 'B', 'bare'],
  ['`C`', PRICE, 'C', 'bare'],
  ['"A"', PRICE, 'A', 'bare'],
  ['Answer: b', PRICE, 'B', 'bare'],
  ['Answer - D', PRICE, 'D', 'bare'],
  ['B) $90', PRICE, 'B', 'bare'],
  ['C. Canberra', CITY, 'C', 'bare'],
  ['Ｂ', PRICE, 'B', 'bare'],
  ['A', PRICE, 'A', 'bare'],
  ['E', PRICE, undefined, 'unparsed'],
  // 2. answer statements
  ['The answer is B.', PRICE, 'B', 'answer-statement'],
  ['The correct answer is **B) $90**.', PRICE, 'B', 'answer-statement'],
  ['Answer: (C)', PRICE, 'C', 'bare'],
  ['Final answer: D', PRICE, 'D', 'bare'],
  ['The answer is (A) because 63 / 0.7 = 90... wait, no.', PRICE, 'A', 'answer-statement'],
  ["I'd go with B.", PRICE, 'B', 'answer-statement'],
  ['I would choose option C', CITY, 'C', 'answer-statement'],
  ['My answer is D', PRICE, 'D', 'answer-statement'],
  ['The correct option is c.', PRICE, 'C', 'answer-statement'],
  ['The answer is B, not C.', PRICE, 'B', 'answer-statement'],
  [
    'Let me think. A is wrong because 63 x 1.3 is not the price before. So the answer is B.',
    PRICE,
    'B',
    'answer-statement',
  ],
  ['The answer is A or B.', PRICE, undefined, 'unparsed'],
  ['The answer is B and C', PRICE, undefined, 'unparsed'],
  ['The answer is E.', PRICE, undefined, 'unparsed'],
  ['Answer: A is correct.', PRICE, 'A', 'answer-statement'],
  ['The answer is a trick question: none fits.', PRICE, undefined, 'unparsed'],
  ['answer: a', PRICE, 'A', 'bare'],
  // 3. letter mentions
  ['B is correct.', PRICE, 'B', 'letter-mention'],
  ['A or B', PRICE, undefined, 'unparsed'],
  ['Not A', PRICE, undefined, 'unparsed'],
  ['Not A. It is B.', PRICE, 'B', 'letter-mention'],
  ['I think (C) — no wait, D', PRICE, undefined, 'unparsed'],
  ['Option B.', PRICE, 'B', 'letter-mention'],
  [
    'B\n\nExplanation: 63 / 0.7 = 90. A is wrong: it adds 30% to the sale price.',
    PRICE,
    'B',
    'letter-mention',
  ],
  ['Because the discount was 30%, the original was higher. D', PRICE, 'D', 'letter-mention'],
  ['Definitely (b).', PRICE, 'B', 'letter-mention'],
  ['A jacket-style puzzle: the price before was $90, so B.', PRICE, 'B', 'letter-mention'],
  ['A lamp discounted by 30% costs 0.7 of its price, so it is C', PRICE, 'C', 'letter-mention'],
  ['Both A and C look plausible.', PRICE, undefined, 'unparsed'],
  ['We can rule out A. C it is.', PRICE, 'C', 'letter-mention'],
  ['D cannot be right; B.', PRICE, 'B', 'letter-mention'],
  ['B. A is tempting but wrong.', PRICE, 'B', 'letter-mention'],
  ['Both A and C are wrong; B.', PRICE, 'B', 'letter-mention'],
  ['A, C and D are all incorrect, so B', PRICE, 'B', 'letter-mention'],
  ['A is right but B is wrong.', PRICE, 'A', 'letter-mention'],
  ['It was made in the U.S.A. in 1990.', PRICE, undefined, 'unparsed'],
  ['BECAUSE', PRICE, undefined, 'unparsed'],
  ['Because', PRICE, undefined, 'unparsed'],
  ['CAB', PRICE, undefined, 'unparsed'],
  ['A-grade reasoning says B', PRICE, 'B', 'letter-mention'],
  ['The meeting is at 9 A.M. so D', PRICE, 'D', 'letter-mention'],
  ["It's B's price that matters", PRICE, undefined, 'unparsed'],
  ['I think it is B', THIRTEEN, 'B', 'letter-mention'],
  ['(I)', THIRTEEN, 'I', 'bare'],
  ['The answer is I.', THIRTEEN, 'I', 'answer-statement'],
  ['Rosa is a knight and Tomas is a knave, so B.', KNIGHTS, 'B', 'letter-mention'],
  // 4. option text
  ['$90', PRICE, 'B', 'option-text'],
  ['It cost $90 before the discount.', PRICE, 'B', 'option-text'],
  ['$90.00', PRICE, undefined, 'unparsed'],
  ['The original price was $900.', PRICE, undefined, 'unparsed'],
  ['Canberra', CITY, 'C', 'option-text'],
  ['canberra.', CITY, 'C', 'option-text'],
  ['The capital is Canberra, not Sydney.', CITY, 'C', 'option-text'],
  ['Sydney is bigger, but the capital is Canberra.', CITY, undefined, 'unparsed'],
  ['Rosa is a knave and Tomas is a knight', KNIGHTS, 'C', 'option-text'],
  ['Both are knaves.', KNIGHTS, 'D', 'option-text'],
  ['department store', FIVE, 'C', 'option-text'],
  ['a mall', FIVE, 'D', 'option-text'],
  ['A heptagon has 7 sides.', SIDES, 'B', 'option-text'],
  ['7 sides, not 6', SIDES, 'B', 'option-text'],
  // nothing to read
  ['', PRICE, undefined, 'unparsed'],
  ['   ', PRICE, undefined, 'unparsed'],
  ['I am not sure.', PRICE, undefined, 'unparsed'],
  ['Once upon a time there was a little dog named Tim.', PRICE, undefined, 'unparsed'],
  ['None of the above.', CITY, undefined, 'unparsed'],
];

describe('parseLetterAnswer on real-looking replies', () => {
  it(`has a table of ${TABLE.length} replies (at least 60)`, () => {
    expect(TABLE.length).toBeGreaterThanOrEqual(60);
  });

  it.each(TABLE.map((row, i) => [i + 1, ...row] as const))('#%i %j', (_n, reply, options, letter, via) => {
    const parsed = parseLetterAnswer(reply, options);
    expect(parsed.letter).toBe(letter);
    if (via !== undefined) expect(parsed.via).toBe(via);
  });

  it('reads a letter the question uses as a name as the person, not the option', () => {
    const KIND = lettered('a knight', 'a knave');
    const question =
      'On an island, knights always tell the truth and knaves always lie. You meet A, who says: "I am a knave and 2 + 2 = 5." What is A?';
    const read = (reply: string) => parseLetterAnswer(reply, KIND, { question });
    expect(read("A can't be a knight, so A is a knave: B")).toEqual({ letter: 'B', via: 'letter-mention' });
    expect(read('A is a knave.')).toEqual({ letter: 'B', via: 'option-text' });
    expect(read('A is not a knight, so A is a knave.')).toEqual({ letter: 'B', via: 'option-text' });
    // Without the question, "A is a knave" reads as option A: the name is what changes it.
    expect(parseLetterAnswer('A is a knave.', KIND).letter).toBe('A');
    // The letter as an option is still read: bare, bracketed, stated, or judged as an option.
    expect(read('A').letter).toBe('A');
    expect(read('(A)').letter).toBe('A');
    expect(read('The answer is A.').letter).toBe('A');
    expect(read('A is correct.').letter).toBe('A');
    expect(read('Option A, since he lies.').letter).toBe('A');
    // A question whose capital A is only the article names nobody.
    const article = 'A farmer has 3 cows. How many legs?';
    expect(parseLetterAnswer('A is a knave.', KIND, { question: article }).letter).toBe('A');
  });

  it('says why a reply is unparsed and which letters competed', () => {
    expect(parseLetterAnswer('A or B', PRICE)).toEqual({
      letter: undefined,
      via: 'unparsed',
      reason: 'several letters: A, B',
      candidates: ['A', 'B'],
    });
    expect(parseLetterAnswer('Not A', PRICE)).toMatchObject({ reason: 'only negated letters: A' });
    expect(parseLetterAnswer('E', PRICE)).toMatchObject({ reason: 'letter E is not an option' });
    expect(parseLetterAnswer('', PRICE)).toMatchObject({ reason: 'empty reply' });
  });

  it('is deterministic and does not depend on option order for the letters it reads', () => {
    const shuffled = [PRICE[2], PRICE[0], PRICE[3], PRICE[1]] as McOption[];
    for (const [reply] of TABLE)
      expect(parseLetterAnswer(reply, shuffled)).toEqual(parseLetterAnswer(reply, PRICE));
  });
});
