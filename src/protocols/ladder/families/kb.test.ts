import { describe, expect, it } from 'vitest';
import { PyRandom } from '../../../util/random.js';
import { LEVELS, type Level, type Seed } from '../types.js';
import { knowledgeBoundary } from './kb.js';

const seed = (id: string, question: string): Seed => ({ id, question, gold: 0, source: 'issue-11' });
// Issue 11's bad examples.
const DRINK = seed(
  'drink',
  'I have 10 liters of orange drink that are two-thirds water and I wish to add it to 15 liters of pineapple drink that is three-fifths water. But as I pour it, I spill one liter of the orange drink. How much water is in the remaining 24 liters?',
);
const HOUSE = seed(
  'house',
  "Mrs. Cruz is looking for a house that will not go beyond her $400 000 budget. She saw a property that has a selling price of $350 000. On top of that, the buyer has to pay a brokerage fee which is 5% of the selling price, and also the transfer fee that is 12% of the selling price. How much more is the total price of the house than Mrs. Cruz's budget?",
);
const EGGS = seed(
  'eggs',
  'Cole hid 3 dozen eggs in the yard for the Easter egg hunt. Lamar finds 5 eggs. Stacy finds twice as many as Lamar. How many eggs are still hidden in the yard?',
);
const EMAILS = seed(
  'emails',
  'James gets 80 emails a day. 20% of those emails do not require any response. He responds to the rest of them. How many emails does he respond to in a 5 day work week?',
);

const DANA = seed(
  'dana',
  'Dana can run at a rate of speed four times faster than she can walk, but she can skip at a rate of speed that is half as fast as she can run. If she can skip at 3 miles per hour, how many miles can she travel in six hours if she spends one-third of the time running and two-thirds of the time walking?',
);

function kb(s: Seed, level: Level, r = 1) {
  return knowledgeBoundary.rules(s, level, 1, new PyRandom(r));
}

describe('Knowledge Boundary rules', () => {
  it('leave no total in the question that gives the removed value back', () => {
    for (let r = 0; r < 8; r++) {
      const text = kb(DRINK, 1, r)?.text as string;
      if (!/\b(?:10|15)\b/.test(text.replace(/two-thirds|three-fifths/, '')) || !text.includes(' 24 '))
        continue;
      throw new Error(`recoverable: ${text}`);
    }
    expect(kb(DRINK, 1, 0)?.text).not.toMatch(/remaining 24 liters/);
  });

  it('cite a report on what the quantity measures, never on household spending in a speed problem', () => {
    const texts = [0, 1, 2, 3, 4, 5].map((r) => kb(DANA, 2, r)?.text ?? '');
    expect(texts.some((t) => /report on travel speeds/.test(t))).toBe(true);
    for (const t of texts) expect(t).not.toMatch(/household spending/);
  });

  it('write a removed amount grammatically', () => {
    for (const level of LEVELS)
      for (let r = 0; r < 6; r++) {
        const text = kb(HOUSE, level, r)?.text ?? '';
        expect(text).not.toMatch(/a certain amount \d|a several|her a certain|undisclosed \d/);
      }
  });

  it('make L5 an impossible value the computation uses, never an appended sentence', () => {
    for (const s of [DRINK, HOUSE, EGGS, EMAILS]) {
      const c = kb(s, 5);
      expect(c?.kbType).toBe('impossible-premise');
      const text = c?.text as string;
      // Same number of sentences: the impossibility is inside the problem, not after it.
      expect(text.split(/(?<=[.?!])\s+/).length).toBe(s.question.split(/(?<=[.?!])\s+/).length);
      expect(text).not.toMatch(/30th of February|fewer than 1 |have ever existed/);
      expect(text).toMatch(/-\$?\d|1[1-9]0%|\b(?:2[5-9]|3[0-6]) hours|\d\.5 |\d+ \w+ in all\)|\d+\/\d+ of/);
    }
    expect(kb(HOUSE, 5)?.text).toMatch(/1[1-9]0% of the selling price/);
  });

  it('make L2-L4 three different problems, each rewriting the given the answer needs in place', () => {
    const sentences = (t: string) => t.split(/(?<=[.?!])\s+/);
    for (const s of [HOUSE, EGGS, EMAILS]) {
      const texts = ([2, 3, 4] as const).map((level) => kb(s, level)?.text as string);
      expect(new Set(texts).size).toBe(3);
      for (const [i, text] of texts.entries()) {
        // Not the problem plus an excuse sentence: as many sentences as the original, one rewritten.
        expect(sentences(text).length, text).toBe(sentences(s.question).length);
        expect(text).toMatch(
          [
            /(?:as|whatever figure is) given in the \d{4} .* report on /,
            /as will be decided |whatever amount will be decided /,
            /as there are .* (?:of|in|by) the |whatever the /,
          ][i] as RegExp,
        );
      }
    }
    expect(kb(EGGS, 4)?.text).not.toMatch(/founders of the .* eggs\b.*\bLamar finds 5 eggs/);
  });

  it('take a quantity the worked solution computes with', () => {
    // 7 appears in the problem but not in the solution's calculations: never the one taken away.
    const withSolution: Seed = {
      ...seed(
        'path',
        'Ann has 4 apples and 7 friends. She buys 3 more apples. How many apples does she have?',
      ),
      solution: 'She has 4 + 3 = <<4+3=7>>7 apples.\n#### 7',
    };
    for (let r = 0; r < 12; r++) {
      const text = kb(withSolution, 1, r)?.text as string;
      expect(text).toContain('7 friends');
    }
  });

  it('make L5 impossible in more than one way: a share over the whole, time, half a person, more taken than there is, a contradiction', () => {
    const cases: [Seed, RegExp, string][] = [
      [
        seed('over', 'A class has 40 students. 1/4 of the students left early. How many stayed?'),
        /[5-7]\/4 of the students/,
        'over-whole',
      ],
      [
        seed(
          'time',
          'Ann works 8 hours a day at a shop. She earns $10 an hour. How much does she earn in a day?',
        ),
        /\b(?:2[5-9]|3[0-6]) hours a day/,
        'time',
      ],
      [
        seed(
          'half',
          'There are 6 girls in the park. There are twice as many boys. How many kids are in the park?',
        ),
        /6\.5 girls/,
        'physical',
      ],
      [
        {
          ...seed(
            'taken',
            'There are 96 pupils at the school. 43 of them are girls. How many boys are there?',
          ),
          solution: 'There are 96-43=<<96-43=53>>53 boys.\n#### 53',
        },
        /\b(?:9[7-9]|1\d\d) of them are girls/,
        'more-taken',
      ],
      [
        seed('sum', 'Ben has 4 red tubes and 3 blue tubes. How many tubes does he have?'),
        /3 blue tubes \(\d+ tubes in all\)\./,
        'contradiction',
      ],
    ];
    for (const [s, pattern, kind] of cases) {
      const made = [0, 1, 2, 3, 4, 5]
        .map((r) => kb(s, 5, r))
        .find((c) => c?.generator.kind === 'rules' && c.generator.name.endsWith(kind));
      expect(made?.text, kind).toMatch(pattern);
      // Never the 7 of "7 tubes in all": the stated total is not the sum.
      if (kind === 'contradiction') expect(made?.text).not.toMatch(/\(7 tubes/);
    }
  });
});
