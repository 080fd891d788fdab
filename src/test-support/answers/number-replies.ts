/**
 * Replies to grade-school word problems in the forms models write them, each with the number a
 * careful reader takes from it, written from the reply as it stands (never from a parser's output).
 * `where` is where that reader finds it: the `via` a parser should record (docs/ladder.md#scoring).
 * `reading: null` means no number: the reply gives none, or gives two or more answers and a careful
 * reader would call it ambiguous (`ambiguous` says why) rather than guess.
 *
 * The rows marked `issue` are the table of issue 40 (what the default read before, and what a
 * careful reader reads).
 */
export interface NumberReply {
  reply: string;
  reading: number | null;
  where:
    | 'json'
    | 'hashes'
    | 'boxed'
    | 'final-marker'
    | 'bold'
    | 'correction'
    | 'leading-number'
    | 'last-number'
    | 'ambiguous'
    | 'unparsed';
  /** How the number is written, where it is not plain digits (the `+form` of `via`). */
  form?: string;
  ambiguous?: string;
  issue?: true;
}

const json: NumberReply[] = [
  { reply: '{"ground_truth": 18}', reading: 18, where: 'json' },
  {
    reply: '{"reasoning": "9 apples + 9 apples = 18 apples", "ground_truth": 18}',
    reading: 18,
    where: 'json',
  },
  { reply: '```json\n{\n  "ground_truth": 18\n}\n```', reading: 18, where: 'json' },
  { reply: 'Answer: {"ground_truth": 18, "work": {"step": 2}}', reading: 18, where: 'json', issue: true },
  {
    reply: '```json\n{\n  "reasoning": "two bags of 9",\n  "ground_truth": 18 // 9 + 9\n}\n```',
    reading: 18,
    where: 'json',
    issue: true,
  },
  { reply: '{"ground_truth": "18 apples"}', reading: 18, where: 'json' },
  { reply: '{"ground_truth": "$1,250.00"}', reading: 1250, where: 'json' },
  { reply: '{"answer": 18}', reading: 18, where: 'json' },
  { reply: "{'ground_truth': 18}", reading: 18, where: 'json' },
  { reply: '{"ground_truth": 18,}', reading: 18, where: 'json' },
  { reply: '{ground_truth: 18}', reading: 18, where: 'json' },
  { reply: '{"result": {"ground_truth": 18}, "steps": [9, 9]}', reading: 18, where: 'json' },
  { reply: '{"ground_truth": "37/2"}', reading: 18.5, where: 'json', form: 'fraction' },
  { reply: '{"ground_truth": "eighteen"}', reading: 18, where: 'json', form: 'number-word' },
  { reply: '{"ground_truth": 18.0}', reading: 18, where: 'json' },
  { reply: 'First, 9 + 9 = 18.\n\n{"ground_truth": 18}', reading: 18, where: 'json' },
  { reply: '{"ground_truth": -5}', reading: -5, where: 'json' },
  { reply: '{"final_answer": 18}', reading: 18, where: 'json' },
  { reply: '{"ground_truth": "9 + 9 = 18"}', reading: 18, where: 'json' },
  {
    reply: '{"ground_truth": null}\nI cannot determine it: the price of a pen is not given.',
    reading: null,
    where: 'unparsed',
  },
];

const hashes: NumberReply[] = [
  {
    reply:
      "Janet's ducks lay 16 eggs per day. She eats 3 for breakfast and bakes muffins with 4, so she uses 3 + 4 = 7 eggs. That leaves 16 - 7 = 9 eggs. She sells them at $2 each, so she makes 9 * 2 = $18.\n#### 18",
    reading: 18,
    where: 'hashes',
  },
  { reply: '9 + 9 = 18\n#### 18', reading: 18, where: 'hashes' },
  { reply: 'She buys 2 bags of 9.\n#### 18 apples', reading: 18, where: 'hashes' },
  { reply: 'Total cost: 5 x $250\n#### $1,250', reading: 1250, where: 'hashes' },
  {
    reply: 'Each gets 3 of the 4 parts.\n#### 3/4',
    reading: 0.75,
    where: 'hashes',
    form: 'fraction',
    issue: true,
  },
  { reply: "#### 18\nWait, I mis-added: it's 20.", reading: 20, where: 'correction', issue: true },
  { reply: 'The temperature falls 8 degrees from 3.\n#### -5', reading: -5, where: 'hashes' },
  { reply: '#### 18.50', reading: 18.5, where: 'hashes' },
  { reply: 'So the final answer is #### 18. (I double-checked 2 times)', reading: 18, where: 'hashes' },
  {
    reply: '#### 18\n\nWait — did I count the 2 dogs? No, dogs do not eat apples, so 18 stands.',
    reading: 18,
    where: 'hashes',
  },
];

const boxed: NumberReply[] = [
  {
    reply: String.raw`The answer is \boxed{18}, which uses 2 steps.`,
    reading: 18,
    where: 'boxed',
    issue: true,
  },
  { reply: String.raw`$$\boxed{18}$$`, reading: 18, where: 'boxed' },
  { reply: String.raw`\boxed{\frac{37}{2}}`, reading: 18.5, where: 'boxed', form: 'latex-fraction' },
  { reply: String.raw`So she has \boxed{18 \text{ apples}} left.`, reading: 18, where: 'boxed' },
  { reply: String.raw`The total is \boxed{\$1{,}250}.`, reading: 1250, where: 'boxed' },
  {
    reply: String.raw`Step 1: 3 \times 4 = 12
Step 2: 12 + 6 = 18

### Final Answer
\boxed{18}`,
    reading: 18,
    where: 'boxed',
  },
  {
    reply: String.raw`\boxed{18}

This took 3 steps.`,
    reading: 18,
    where: 'boxed',
  },
];

const markers: NumberReply[] = [
  { reply: 'Final answer: 90 km (45 km/h × 2 h).', reading: 90, where: 'final-marker', issue: true },
  { reply: 'The answer is 18.', reading: 18, where: 'final-marker' },
  { reply: 'Answer: 18', reading: 18, where: 'final-marker' },
  { reply: '**Final Answer:** 18 apples', reading: 18, where: 'final-marker' },
  { reply: 'She has 9 + 9 apples.\n\n### Final Answer\n18', reading: 18, where: 'final-marker' },
  { reply: 'The final answer is $18.', reading: 18, where: 'final-marker' },
  { reply: 'Therefore, the answer is 18 apples, since 2 were eaten.', reading: 18, where: 'final-marker' },
  {
    reply: 'The answer is 18. Wait, no: I misread the question. The answer is 20.',
    reading: 20,
    where: 'final-marker',
  },
  { reply: 'Answer: eighteen', reading: 18, where: 'final-marker', form: 'number-word' },
  { reply: 'Final answer: €1.234,50', reading: 1234.5, where: 'final-marker', form: 'grouped' },
  { reply: 'Final answer: 18,5 km', reading: 18.5, where: 'final-marker', form: 'decimal-comma' },
  { reply: 'Answer = 18', reading: 18, where: 'final-marker' },
  { reply: 'The answer is 9 + 9 = 18.', reading: 18, where: 'final-marker' },
  { reply: 'The answer is not 16 but 18.', reading: 18, where: 'final-marker' },
  { reply: 'The answer is: twenty-five apples.', reading: 25, where: 'final-marker', form: 'number-word' },
];

const bold: NumberReply[] = [
  {
    reply: 'The answer is **18** apples, found in 2 steps.',
    reading: 18,
    where: 'final-marker',
    issue: true,
  },
  { reply: '9 + 9 = 18, so she has **18 apples** left after giving 2 away.', reading: 18, where: 'bold' },
  { reply: 'Total: **$1,250**. That is 5 payments of $250.', reading: 1250, where: 'bold' },
  {
    reply: 'Her share is **3/4**; the other 1/4 goes to her brother.',
    reading: 0.75,
    where: 'bold',
    form: 'fraction',
  },
];

const leading: NumberReply[] = [
  { reply: '18 apples, of which 2 are left', reading: 18, where: 'leading-number', issue: true },
  { reply: '18', reading: 18, where: 'leading-number' },
  { reply: '18.', reading: 18, where: 'leading-number' },
  { reply: '18 (9 + 9)', reading: 18, where: 'leading-number' },
  { reply: '$18.50', reading: 18.5, where: 'leading-number' },
  { reply: '1 234', reading: 1234, where: 'leading-number', form: 'grouped', issue: true },
  { reply: 'eighteen', reading: 18, where: 'leading-number', form: 'number-word', issue: true },
  { reply: 'Eighteen.', reading: 18, where: 'leading-number', form: 'number-word' },
  {
    reply: String.raw`$\frac{37}{2}$`,
    reading: 18.5,
    where: 'leading-number',
    form: 'latex-fraction',
    issue: true,
  },
  { reply: '18,5', reading: 18.5, where: 'leading-number', form: 'decimal-comma', issue: true },
  { reply: '-5', reading: -5, where: 'leading-number' },
  { reply: '１８', reading: 18, where: 'leading-number', form: 'unicode-digits' },
  { reply: '2 1/2 cups', reading: 2.5, where: 'leading-number', form: 'mixed-number' },
  { reply: '18. She started with 20 and gave away 2.', reading: 18, where: 'leading-number' },
  { reply: '18 apples: 9 in each of the 2 bags.', reading: 18, where: 'leading-number' },
];

const lastNumber: NumberReply[] = [
  { reply: 'She is 18 (as of 2024).', reading: 18, where: 'last-number', issue: true },
  { reply: 'She had 20 apples and gave away 2, so she has 18 left.', reading: 18, where: 'last-number' },
  { reply: 'The total is 20 (18 + 2).', reading: 20, where: 'last-number' },
  { reply: 'It costs $1,200 in total, not 1,000.', reading: 1200, where: 'last-number' },
  { reply: '45 km/h × 2 h = 90 km', reading: 90, where: 'last-number' },
  { reply: 'Each friend gets 3/4 of a pizza.', reading: 0.75, where: 'last-number', form: 'fraction' },
  { reply: 'The discount is 25%.', reading: 25, where: 'last-number' },
  { reply: 'There are 1,250 students in the school.', reading: 1250, where: 'last-number' },
  { reply: 'The temperature drops to −5 degrees.', reading: -5, where: 'last-number' },
  {
    reply: '1. Janet has 16 eggs.\n2. She eats 3 and bakes with 4.\n3. She sells 9 at $2 each: $18.',
    reading: 18,
    where: 'last-number',
  },
  { reply: '2 boxes, each with 9 apples, so 18 apples.', reading: 18, where: 'last-number' },
  { reply: '9 eggs, sold at $2 each: $18.', reading: 18, where: 'last-number' },
  {
    reply: 'Janet uses 3 + 4 = 7 eggs, so 16 - 7 = 9 are left. 9 × $2 = $18.',
    reading: 18,
    where: 'last-number',
  },
  {
    reply: 'Step 1: 16 − 3 − 4 = 9 eggs.\nStep 2: 9 × 2 = 18.\nShe makes $18 every day.',
    reading: 18,
    where: 'last-number',
  },
  { reply: '**Step 1:** 16 − 3 − 4 = 9\n**Step 2:** 9 × $2 = $18', reading: 18, where: 'last-number' },
  { reply: 'She makes 18 dollars a day (9 eggs × $2).', reading: 18, where: 'last-number' },
  {
    reply: 'The result is 9 eggs, which she sells for $2 each, so she makes $18.',
    reading: 18,
    where: 'last-number',
  },
  { reply: 'x = 18', reading: 18, where: 'last-number' },
  {
    reply: 'The chance of both is 0.01 × 0.005 = 5e-05.',
    reading: 0.00005,
    where: 'last-number',
    form: 'scientific',
  },
];

const corrections: NumberReply[] = [
  {
    reply: 'The answer is 18. Actually, I made an error: 9 + 11 = 20, so it is 20.',
    reading: 20,
    where: 'correction',
  },
  { reply: '{"ground_truth": 18}\nCorrection: the answer should be 20.', reading: 20, where: 'correction' },
  { reply: 'The answer is 18. A common mistake is to add the 2 dogs.', reading: 18, where: 'final-marker' },
];

const none: NumberReply[] = [
  {
    reply: "It's either 18 or 20, depending on whether the dog counts.",
    reading: null,
    where: 'ambiguous',
    ambiguous: 'two answers offered',
  },
  { reply: 'Final answer: 18 or 20', reading: null, where: 'ambiguous', ambiguous: 'two answers offered' },
  { reply: 'Between 15 and 20 apples.', reading: null, where: 'ambiguous', ambiguous: 'a range' },
  { reply: 'Somewhere around 15–20 apples.', reading: null, where: 'ambiguous', ambiguous: 'a range' },
  { reply: '18-20 apples', reading: null, where: 'ambiguous', ambiguous: 'a range' },
  {
    reply: String.raw`\boxed{18} or \boxed{20}`,
    reading: null,
    where: 'ambiguous',
    ambiguous: 'two boxed answers offered',
  },
  {
    reply: '{"ground_truth": "18 or 20"}',
    reading: null,
    where: 'ambiguous',
    ambiguous: 'two answers in the answer key',
  },
  {
    reply: 'The answer is 18 (or 20 if the dog counts).',
    reading: null,
    where: 'ambiguous',
    ambiguous: 'an alternative offered beside the answer',
  },
  {
    reply: 'I cannot determine the answer: the price of a pen is not given.',
    reading: null,
    where: 'unparsed',
  },
  { reply: 'The answer depends on the price.', reading: null, where: 'unparsed' },
  { reply: "I can't answer: the number of apples in each bag is missing.", reading: null, where: 'unparsed' },
];

export const NUMBER_REPLIES: readonly NumberReply[] = [
  ...json,
  ...hashes,
  ...boxed,
  ...markers,
  ...bold,
  ...leading,
  ...lastNumber,
  ...corrections,
  ...none,
];
