import { describe, expect, it } from 'vitest';
import { BaseConfig } from '../../../../config/schema.js';
import { sharedDataEnv, sharedFile } from '../../../../test-support/shared.js';
import { resolveLadderSeeds } from '../../data/datasets.js';
import { GRADE_SCHOOL_SEEDS } from '../../data/grade-school.js';
import { formatKindLevel } from '../../severity/content-level.js';
import { buildLadderSuite } from '../../suite.js';
import { SUITE_SCANS, scanSuite } from '../../suite-scans.js';
import {
  type ChoiceSeed,
  choiceQuestion,
  type LadderTest,
  LEVELS,
  type Seed,
  type TextSeed,
} from '../../types.js';
import { clearlyHeavier } from './choose.js';
import { sentenceClauses } from './units.js';

/**
 * Structural/Format's rules on every seed type against the blind read's rejects (issue 36): L1
 * heavier than L1 (a break mid-sentence), bullets cut at a width, " |" at the ends of quoted lines,
 * tables of fragments, options reordered. The F scans (suite-scans.ts) must find 0.
 */

const F_SCANS = SUITE_SCANS.filter((s) => s.id.startsWith('f-')).map((s) => s.id);

const number = (id: string, question: string, gold: number): Seed => ({ id, question, gold, source: 'test' });
const choice = (id: string, stem: string, texts: string[], gold: string): ChoiceSeed => {
  const options = texts.map((text, i) => ({ letter: String.fromCharCode(65 + i), text }));
  return {
    id,
    answerType: 'choice',
    stem,
    options,
    gold,
    question: choiceQuestion(stem, options),
    source: 'test',
  };
};
const text = (id: string, question: string, gold: string): TextSeed => ({
  id,
  answerType: 'text',
  question,
  gold,
  aliases: [],
  source: 'test',
});

/** The seeds of the rejected tests (review v3), as the suites had them. */
const REJECTED: Seed[] = [
  number(
    'gsm-symbolic-2',
    'Jerry is rolling a six-sided die. How much more likely is it (expressed as a percentage) that he rolls a number greater than 3 than that he rolls two even numbers in a row?',
    25,
  ),
  number(
    'gsm-symbolic-63',
    'A boy has 5 cards. His brother has 3 fewer cards than he has. How many cards do they have together?',
    7,
  ),
  choice(
    'arc-challenge-18',
    'Logging companies cut trees in a forest and send the trees to lumber mills far from the forest. The mills make boards that are used for construction. Some logging companies do not plant tree seedlings after cutting trees. Not planting tree seedlings might affect people who need boards in the future because',
    [
      'the price of boards will increase',
      'the price of boards will decrease',
      'there will be more boards available',
      'there will be more trees for logging',
    ],
    'A',
  ),
  choice(
    'arc-challenge-14',
    'Which of these gases is the most abundant greenhouse gas in the lower atmosphere of Earth?',
    ['ozone', 'methane', 'water vapor', 'carbon dioxide'],
    'C',
  ),
  text(
    'trivia-10',
    'Who captained the England rugby union team 59 times between 1988 and 1996?',
    'Will Carling',
  ),
  text(
    'trivia-29',
    'Which city is the destination of the yacht race which leaves Sydney every Boxing Day?',
    'Hobart',
  ),
  text('trivia-16', "What did Cinderella's carriage turn into after midnight?", 'a Pumpkin'),
];

async function formatSuite(seeds: readonly Seed[]): Promise<LadderTest[]> {
  const config = BaseConfig.parse({ store: ':memory:' });
  const built = await buildLadderSuite({
    seeds: [...seeds],
    config,
    generator: 'rules',
    seed: 0,
    families: ['F'],
  });
  return built.tests.filter((t) => t.family === 'F');
}

/** Each F scan's hits, as "seed L<level>: why". */
function fHits(tests: readonly LadderTest[]): Record<string, string[]> {
  const hits = scanSuite(tests);
  return Object.fromEntries(
    F_SCANS.map((id) => [id, (hits.get(id) ?? []).map((h) => `${h.seedId} L${h.level}: ${h.why}`)]),
  );
}
const NONE = Object.fromEntries(F_SCANS.map((id) => [id, []]));

describe('Structural/Format rules (issue 36): whole sentences, real layouts, format only', () => {
  it('the rejected seeds: no F scan hit at any level, each level its kind', async () => {
    const tests = await formatSuite(REJECTED);
    expect(fHits(tests)).toEqual(NONE);
    for (const t of tests)
      expect(formatKindLevel(t.original, t.text), `${t.seedId}: ${t.text}`).toBe(t.measuredLevel);
    const at = (seed: string, level: number) =>
      tests.find((t) => t.seedId === seed && t.measuredLevel === level);
    // L1 keeps each sentence on one line with single spaces: "How\n\nmuch\n\nmore likely" is gone.
    const gsmL1 = at('gsm-symbolic-2', 1)?.text ?? '';
    expect(
      gsmL1
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => l.trim()),
    ).toEqual(
      expect.arrayContaining([
        'How much more likely is it (expressed as a percentage) that he rolls a number greater than 3 than that he rolls two even numbers in a row?',
      ]),
    );
    // A one-sentence question has no L1: an indent is stripped by the runner, a break inside is no L1.
    expect(at('trivia-10', 1)).toBeUndefined();
    for (const t of tests) expect(t.text.trim(), t.id).not.toBe(t.original.trim());
    // No width-wrapped bullets: a one-clause question gets no L3 rather than "- yacht race which leaves".
    expect(at('trivia-29', 3)).toBeUndefined();
    expect(at('gsm-symbolic-63', 3)?.text).not.toMatch(/^\s+- has\.$/m);
    // Options stay in order with the seed's key, never under a fragment.
    for (const t of tests.filter((x) => x.seedId.startsWith('arc'))) {
      const seed = REJECTED.find((s) => s.id === t.seedId) as ChoiceSeed;
      expect(t.gold, t.text).toBe(seed.gold);
      expect(t.options ?? seed.options, t.text).toEqual(seed.options);
    }
    // L5 is a real table or a fence: no cell "| What did |".
    expect(at('trivia-16', 5)?.text ?? '').not.toMatch(/\| What did \|/);
    expect(tests.some((t) => / \|$/m.test(t.text) && !/^\|/m.test(t.text))).toBe(false);
  });

  it('L1 measures no heavier than the same seed’s L2 and L3 on the paper’s measure (48 built-in seeds)', async () => {
    const tests = await formatSuite(GRADE_SCHOOL_SEEDS);
    const score = (seed: string, level: number) =>
      tests.find((t) => t.seedId === seed && t.measuredLevel === level)?.severity?.score;
    const inverted = GRADE_SCHOOL_SEEDS.flatMap((s) => {
      const l1 = score(s.id, 1);
      return [2, 3, 4, 5].flatMap((l) => {
        const other = score(s.id, l);
        return l1 !== undefined && other !== undefined && l1 > other
          ? [`${s.id}: L1 ${l1} > L${l} ${other}`]
          : [];
      });
    });
    expect(inverted).toEqual([]);
    expect(fHits(tests)).toEqual(NONE);
    // L5 only where a fence at one width is clearly heavier than the seed's L4: 29 of 48 (E77).
    for (const level of LEVELS)
      expect(tests.filter((t) => t.measuredLevel === level).length, `L${level}`).toBeGreaterThan(
        level === 5 ? 25 : 40,
      );
  }, 60_000);

  const dataWhy =
    sharedFile('data/arc-challenge/arc_challenge.jsonl') && sharedFile('data/triviaqa/triviaqa_sm_sub.jsonl')
      ? ''
      : ' (skipped: ../shared/data not there)';
  it.skipIf(dataWhy !== '')(
    `choice and text seeds: no F scan hit; a level left empty only where the item has no whole unit to lay out${dataWhy}`,
    async () => {
      for (const name of ['arc-challenge', 'triviaqa']) {
        const seeds = await resolveLadderSeeds(name, { env: sharedDataEnv, limit: 30 });
        const tests = await formatSuite(seeds);
        expect(fHits(tests), name).toEqual(NONE);
        const missing = seeds.flatMap((seed) =>
          LEVELS.filter((l) => !tests.some((t) => t.seedId === seed.id && t.measuredLevel === l)).map((l) => {
            const units = sentenceClauses(seed.answerType === 'choice' ? seed.stem : seed.question);
            // L1 needs two sentences (a break between them); L3 and L4 two sentences or clauses; L5
            // a fence at one width clearly heavier than the seed's L4 (E77), which the scans hold.
            const fits = l === 1 ? units.length > 1 : l === 3 || l === 4 ? units.flat().length > 1 : l !== 5;
            return `${seed.id} L${l}${fits ? ' could be laid out' : ''}`;
          }),
        );
        expect(
          missing.filter((m) => m.endsWith('could be laid out')),
          name,
        ).toEqual([]);
        if (name === 'arc-challenge')
          expect(
            missing.filter((m) => !m.includes(' L5')),
            name,
          ).toEqual([]);
        expect(tests.filter((t) => t.measuredLevel === 2).length).toBe(seeds.length);
      }
    },
    60_000,
  );
});

describe('sentence and clause units', () => {
  it('splits at sentence ends and at commas or semicolons before a clause, never inside a name or a list', () => {
    expect(
      sentenceClauses(
        'In a 60-item quiz, 40% are easy, and the rest are equally divided. How many are hard?',
      ),
    ).toEqual([
      ['In a 60-item quiz, 40% are easy,', 'and the rest are equally divided.'],
      ['How many are hard?'],
    ]);
    expect(sentenceClauses('If she sells 5 cups a day, how many does she sell in a week?')).toEqual([
      ['If she sells 5 cups a day,', 'how many does she sell in a week?'],
    ]);
    expect(sentenceClauses('When he went back home, he inspected the marbles further.')).toEqual([
      ['When he went back home,', 'he inspected the marbles further.'],
    ]);
    // A list going on after ", and" is no clause: "- and half of the average questions correctly," is a fragment.
    expect(
      sentenceClauses(
        'If Aries gets 75% of the easy questions, and half of the average questions correctly, how many points does she get?',
      ),
    ).toEqual([
      [
        'If Aries gets 75% of the easy questions, and half of the average questions correctly,',
        'how many points does she get?',
      ],
    ]);
    expect(sentenceClauses('Which books by H. A. Rey feature a monkey?')).toEqual([
      ['Which books by H. A. Rey feature a monkey?'],
    ]);
    expect(sentenceClauses('She buys apples, pears, and plums.')).toEqual([
      ['She buys apples, pears, and plums.'],
    ]);
    expect(sentenceClauses('Ann reads 5 pages; Bo reads 7 pages each day.')).toEqual([
      ['Ann reads 5 pages;', 'Bo reads 7 pages each day.'],
    ]);
  });
});

describe('F L5 breaks a sentence mid-line; L2 heads no premise (review v4, E69)', () => {
  const V4: Seed[] = [
    number(
      'gsm-symbolic-94',
      '100 people apply for a job at Google. Of the people that apply, only 30% receive interviews. Of those who receive interviews, 20% receive a job offer. Of those who receive a job offer, a third of the people accept the position. How many people accept the position?',
      2,
    ),
    number(
      'gsm-symbolic-55',
      'Elise is learning to write and decides to keep re-writing the alphabet until she knows it. She writes it in full twice, writes half of it once, then re-writes everything she has already written. How many letters has Elise written in total?',
      130,
    ),
    text('trivia-2', 'What type of animal is a dik-dik?', 'Antelope'),
  ];

  it('every L5 of every seed type wraps a sentence mid-line; no heading holds a premise', async () => {
    const tests = await formatSuite([...V4, ...REJECTED]);
    expect(fHits(tests)).toEqual(NONE);
    const l5 = tests.filter((t) => t.measuredLevel === 5);
    // No L5 where no fence at one width is clearly heavier than the seed's L4 (E77): the two ARC
    // items' options outrun their stems, and gsm-symbolic-55 and -94's quoted lists move more; the
    // short trivia-2 and -16 cannot wrap twice, and one wrap is no L5 (review v8, trivia-24).
    const without = [
      'arc-challenge-14',
      'arc-challenge-18',
      'gsm-symbolic-55',
      'gsm-symbolic-94',
      'trivia-16',
      'trivia-2',
    ];
    expect(l5.map((t) => t.seedId).sort()).toEqual(
      [...V4, ...REJECTED]
        .map((s) => s.id)
        .filter((id) => !without.includes(id))
        .sort(),
    );
    // The 17-word premise is no title; the L2 keeps every word with another device.
    const l2 = tests.find((t) => t.seedId === 'gsm-symbolic-55' && t.measuredLevel === 2)?.text ?? '';
    expect(l2).not.toMatch(/^# Elise/m);
  });

  it('the scans find the rejected L5 and L2 (a fence of whole sentences, a premise as H1)', () => {
    const [gsm94, gsm55, trivia2] = V4 as [Seed, Seed, Seed];
    const as = (seed: Seed, level: number, t: string) =>
      ({
        seedId: seed.id,
        family: 'F',
        original: seed.question,
        text: t,
        measuredLevel: level,
      }) as LadderTest;
    const fence94 = `\`\`\`\n${sentenceClauses(gsm94.question)
      .map((c) => c.join(' '))
      .join('\n')}\n\`\`\``;
    const rejected = [
      as(gsm94, 5, fence94),
      as(trivia2, 5, `\`\`\`\n${trivia2.question}\n\`\`\``),
      as(gsm55, 2, gsm55.question.replace(/^(.+?it\.) /, '# $1\n\n')),
    ];
    const hits = scanSuite(rejected);
    expect(hits.get('f-l5-no-wrap')?.map((h) => h.seedId)).toEqual(['gsm-symbolic-94', 'trivia-2']);
    expect(hits.get('f-heading-premise')?.map((h) => h.seedId)).toEqual(['gsm-symbolic-55']);
    // A short scene line with no quantity, or a one-line question, may be a heading.
    const fine = [
      as(trivia2, 2, `# ${trivia2.question}`),
      {
        ...as(gsm55, 2, ''),
        original: 'Sally went on vacation. She has $10.',
        text: '# Sally went on vacation.\n\nShe has $10.',
      },
    ];
    expect(scanSuite(fine).get('f-heading-premise')).toEqual([]);
  });
});

describe('clauses: never a list before its last item, never a clause cut from its head (E71)', () => {
  it('keeps "a, b, and c" and a subjectless or verbless "and ..." on the clause before', () => {
    for (const whole of [
      'There are currently 3 red balls, 11 blue balls, and 25 green balls in the store.',
      'She wants to make a hat, scarf, sweater, mittens, and socks for each of them.',
      'Snow, rain, hail, and fog are all forms of precipitation.',
      'She ate 1 slice, her sister ate 1 more than her, and her brother ate 1 more than her sister.',
      'Jasper has half as many tubes of blue paint as Ben, and three times as many tubes of yellow paint as Ben.',
      'In a set of magicians cards, there are 15 red cards, and 60% more green cards.',
      'Teddy finished half of a 500 piece puzzle, and then started and finished another 500 piece puzzle within an hour.',
    ])
      expect(
        sentenceClauses(whole).map((c) => c.length),
        whole,
      ).toEqual([1]);
    expect(sentenceClauses('Carol has 20 signatures in her book, and Jennifer has 44 of them.')).toEqual([
      ['Carol has 20 signatures in her book,', 'and Jennifer has 44 of them.'],
    ]);
    expect(sentenceClauses('Half of the balls are golf balls, and half of the golf balls are blue.')).toEqual(
      [['Half of the balls are golf balls,', 'and half of the golf balls are blue.']],
    );
  });
});

describe('F L5 above its own L4, the whole fence at one width (review v6, E77)', () => {
  const ARC11 = choice(
    'arc-challenge-11',
    'Which statement best describes the effect of the Sun on the oceans?',
    [
      'The Sun influences the formation of waves.',
      'The Sun creates water particles.',
      "The Sun's rays cause organisms to come to the surface.",
      'The Sun provides minerals.',
    ],
    'A',
  );
  const ARC22 = choice(
    'arc-challenge-22',
    'Which is a fact about penguins?',
    [
      'Penguins can live in climates with freezing temperatures.',
      'Penguins are fierce competitors.',
      'Penguins are some of the most beautiful birds.',
      'Penguins make great pets.',
    ],
    'A',
  );
  const TRIVIA28 = text(
    'trivia-28',
    "In 'Moh's Scale' of hardness, Talc is at number 1, but what is number 2?",
    'Gypsum',
  );
  const as = (seed: Seed, level: number, t: string) =>
    ({ seedId: seed.id, family: 'F', original: seed.question, text: t, measuredLevel: level }) as LadderTest;
  const ARC22_L5 =
    '```\nWhich is a fact\nabout penguins?\n\nA. Penguins can live in climates with freezing temperatures.\nB. Penguins are fierce competitors.\nC. Penguins are some of the most beautiful birds.\nD. Penguins make great pets.\n```';
  const ARC22_L4 =
    '> Which is a fact about penguins?\n>\n> - A. Penguins can live in climates with freezing temperatures.\n> - B. Penguins are fierce competitors.\n> - C. Penguins are some of the most beautiful birds.\n> - D. Penguins make great pets.';
  const T28_L4 = "> - In 'Moh's Scale' of hardness, Talc is at number 1,\n>   - but what is number 2?";
  const T28_L5 = "```\nIn 'Moh's Scale' of hardness, Talc is at number 1,\nbut what is number 2?\n```";

  it('the scans find the rejected L5s: under their own L4, and a stem wrapped narrower than its options', () => {
    const hits = scanSuite([
      as(ARC22, 4, ARC22_L4),
      as(ARC22, 5, ARC22_L5),
      as(TRIVIA28, 4, T28_L4),
      as(TRIVIA28, 5, T28_L5),
    ]);
    expect(hits.get('f-l5-not-heaviest')?.map((h) => h.seedId)).toEqual(['arc-challenge-22', 'trivia-28']);
    expect(hits.get('f-l5-uneven-wrap')?.map((h) => h.seedId)).toEqual(['arc-challenge-22']);
  });

  it('the rules write an L5 only clearly above every L4 of the seed, the fence at one width', async () => {
    const seeds = [ARC11, ARC22, TRIVIA28, ...REJECTED];
    const tests = await formatSuite(seeds);
    expect(fHits(tests)).toEqual(NONE);
    const l5 = new Set(tests.filter((t) => t.measuredLevel === 5).map((t) => t.seedId));
    // No width fits arc-challenge-22's 31-character stem beside its 57-character options, and
    // arc-challenge-11's stem wraps at 60 only with "oceans?" alone on a line: no L5 for either.
    expect(l5.has('arc-challenge-22')).toBe(false);
    expect(l5.has('arc-challenge-11')).toBe(false);
    for (const t of tests.filter((x) => x.measuredLevel === 5)) {
      const seed = seeds.find((s) => s.id === t.seedId) as Seed;
      const own4 = tests.find((x) => x.seedId === t.seedId && x.measuredLevel === 4);
      if (own4) expect(clearlyHeavier(seed.question, t.text, own4.text), t.text).toBe(true);
    }
  });
});

describe('F L5 above every lower level of its seed (review v8, trivia-24)', () => {
  const TRIVIA24 = text(
    'trivia-24',
    'How is Marie Grosholz, born in Strasbourg in 1761, known today due to an establishment founded in London in 1835?',
    'Madame Tussaud',
  );
  const as = (level: number, t: string) =>
    ({
      seedId: TRIVIA24.id,
      family: 'F',
      original: TRIVIA24.question,
      text: t,
      measuredLevel: level,
    }) as LadderTest;
  const L2 = `# ${TRIVIA24.question}`;
  const L5 =
    '```\nHow is Marie Grosholz, born in Strasbourg in 1761, known\ntoday due to an establishment founded in London in 1835?\n```';

  it('the scans find an L5 that is a fence with one wrap, and one under a lower level of its seed', () => {
    const hits = scanSuite([as(2, L2), as(5, L5)]);
    expect(hits.get('f-l5-one-wrap')?.map((h) => h.seedId)).toEqual(['trivia-24']);
    // A lower level heavier than the L5 (a three-line fence stored as L2) inverts the seed's ladder.
    const heavyL2 =
      '```\nHow is Marie Grosholz, born in\nStrasbourg in 1761, known today due to\nan establishment founded\nin London in 1835?\n```';
    const inverted = scanSuite([as(2, heavyL2), as(5, L5)]);
    expect(inverted.get('f-l5-not-heaviest')?.map((h) => h.why)).toEqual([expect.stringMatching(/its L2/)]);
  });

  it('the rules write an L5 only clearly above every lower level the seed has', async () => {
    const seeds = [TRIVIA24, ...REJECTED];
    const tests = await formatSuite(seeds);
    expect(fHits(tests)).toEqual(NONE);
    for (const t of tests.filter((x) => x.measuredLevel === 5)) {
      const seed = seeds.find((s) => s.id === t.seedId) as Seed;
      for (const lower of tests.filter((x) => x.seedId === t.seedId && (x.measuredLevel ?? 0) < 5))
        expect(clearlyHeavier(seed.question, t.text, lower.text), `${t.text} over ${lower.text}`).toBe(true);
    }
  });
});
