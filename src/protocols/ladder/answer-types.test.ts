import { describe, expect, it } from 'vitest';
import {
  CHOICE_FILES,
  choiceSeeds,
  dataMissing,
  TEXT_FILES,
  textSeeds,
} from '../../test-support/protocols/ladder/answer-data.js';
import { python3Missing, runPython } from '../../test-support/python3.js';
import { sharedDataEnv } from '../../test-support/shared.js';
import { parseChoiceReply } from './answer-choice.js';
import { extractTextAnswer, matchTextAnswer, normaliseAnswer } from './answer-text.js';
import { choiceStemOf } from './choice-lines.js';
import { resolveLadderSeeds } from './data/datasets.js';
import { scoreAnswer } from './score-answer.js';
import type { ChoiceSeed, TextSeed } from './types.js';

/**
 * The parser and scorer of each answer type on real rows of ../shared/data (skipped visibly when a
 * file is missing), in the formats models really answer in.
 */

/** A choice seed as the suite builder makes its baseline test. */
const choiceTest = (s: ChoiceSeed) => ({
  answerType: 'choice' as const,
  gold: s.gold,
  options: s.options,
  text: s.question,
});
const textTest = (s: TextSeed) => ({
  answerType: 'text' as const,
  gold: s.gold,
  aliases: s.aliases,
  text: s.question,
});

describe('choice: the key letter, however a model writes it', () => {
  it.skipIf(dataMissing(...CHOICE_FILES) !== '')(
    `reads every format on 20 real ARC-Challenge and CommonsenseQA rows${dataMissing(...CHOICE_FILES)}`,
    async () => {
      const seeds = await choiceSeeds(10);
      for (const s of seeds) {
        const key = s.gold;
        const text = s.options.find((o) => o.letter === key)?.text as string;
        const other = s.options.find((o) => o.letter !== key) as { letter: string; text: string };
        const right = [
          key,
          `(${key})`,
          `${key})`,
          `${key}. ${text}`,
          text,
          `The answer is ${key} because it fits the question best.`,
          `Let me think. Option ${other.letter} does not fit.\nThe answer is ${key}.`,
          `{"answer": "${key}"}`,
          `{"answer": "${text.replace(/"/g, '\\"')}"}`,
          `Step by step...\n#### ${key}`,
          `**${key}**`,
        ];
        for (const reply of right) {
          const score = scoreAnswer(choiceTest(s), reply);
          expect(score.correct, `${s.id}: ${JSON.stringify(reply)} -> ${JSON.stringify(score)}`).toBe(true);
          expect(score.parsed).toBe(key);
        }
        const wrong = scoreAnswer(choiceTest(s), `The answer is ${other.letter}.`);
        expect(wrong).toMatchObject({ correct: false, parsed: other.letter });
        // Two letters is no choice: unparsed, wrong, never a guess.
        expect(scoreAnswer(choiceTest(s), `${key} or ${other.letter}`)).toMatchObject({
          correct: false,
          via: 'unparsed',
        });
        expect(scoreAnswer(choiceTest(s), '')).toMatchObject({ correct: false, via: 'unparsed' });
      }
    },
  );

  it('reads the JSON answer before a stray letter, and the stem only for names', () => {
    const options = [
      { letter: 'A', text: 'a knight' },
      { letter: 'B', text: 'a knave' },
    ];
    expect(parseChoiceReply('I considered A first. {"answer": "B"}', options)).toEqual({
      letter: 'B',
      via: 'json',
    });
    expect(choiceStemOf('You meet A and B. Who lies?\n\nA. a knight\nB. a knave')).toBe(
      'You meet A and B. Who lies?',
    );
  });
});

describe('text: an accepted answer after SQuAD normalisation', () => {
  it.skipIf(dataMissing(...TEXT_FILES) !== '')(
    `scores the formats models answer in on 30 real TriviaQA, SimpleQA and NQ-open rows${dataMissing(...TEXT_FILES)}`,
    async () => {
      const seeds = await textSeeds(10);
      for (const s of seeds) {
        const alias = s.aliases.at(-1) ?? s.gold;
        const right: [string, string][] = [
          [s.gold, 'exact'],
          [`The ${s.gold.toUpperCase()}!`, 'exact'],
          [`{"answer": "${s.gold.replace(/"/g, '\\"')}"}`, 'exact'],
          [`Thinking it over...\n#### ${s.gold}`, 'exact'],
          [`The answer is ${alias}.`, 'exact'],
          [`I am fairly sure it is ${alias}, as far as I remember.`, 'contains'],
          [`Reasoning first: this is well documented.\nFinal answer: ${s.gold}`, 'exact'],
        ];
        for (const [reply, via] of right) {
          const score = scoreAnswer(textTest(s), reply);
          expect(score.correct, `${s.id}: ${JSON.stringify(reply)} -> ${JSON.stringify(score)}`).toBe(true);
          expect(score.via, `${s.id}: ${JSON.stringify(reply)}`).toBe(via);
        }
        // What normalisation cannot decide is left to the judge, never credited.
        for (const reply of ['Zanzibar-Vostok 9', `It is not ${s.gold}, it is Zanzibar.`]) {
          const score = scoreAnswer(textTest(s), reply);
          expect(score.correct, `${s.id}: ${reply}`).toBe(false);
          expect(score.undecided, `${s.id}: ${reply}`).toBeDefined();
        }
        expect(scoreAnswer(textTest(s), '  ')).toMatchObject({ correct: false, via: 'empty' });
      }
    },
  );

  it('a mention inside long reasoning without a stated answer is undecided, not credited', () => {
    const reply = `${'Let me think about the vegetables that come in many varieties and are pickled. '.repeat(2)}Onion is one candidate but so is garlic.`;
    expect(matchTextAnswer(reply, ['Onion'])).toMatchObject({ decided: false });
    expect(matchTextAnswer('Onion, I think.', ['Onion'])).toMatchObject({ decided: true, via: 'contains' });
    expect(matchTextAnswer('Rather than onion, garlic.', ['Onion'])).toMatchObject({ decided: false });
  });

  it('takes the stated answer: JSON, then ####, then the last "answer is" statement, else the reply', () => {
    expect(extractTextAnswer('{"answer": "Paris"}')).toEqual({ answer: 'Paris', via: 'json' });
    expect(extractTextAnswer('so\n#### Paris, France')).toEqual({ answer: 'Paris, France', via: 'hashes' });
    expect(extractTextAnswer('The answer is Paris. It has 2.1 million people.')).toEqual({
      answer: 'Paris',
      via: 'statement',
    });
    expect(extractTextAnswer('The answer is 2.5 km.')).toEqual({ answer: '2.5 km', via: 'statement' });
    expect(extractTextAnswer('Paris')).toEqual({ answer: 'Paris', via: 'reply' });
  });

  it.skipIf(python3Missing !== undefined || dataMissing(TEXT_FILES[0] as string) !== '')(
    `normalises exactly as the SQuAD v1.1 script's normalize_answer in CPython${python3Missing ?? dataMissing(TEXT_FILES[0] as string)}`,
    async () => {
      const seeds = (await resolveLadderSeeds('triviaqa', { env: sharedDataEnv, limit: 300 })) as TextSeed[];
      const texts = [
        ...seeds.flatMap((s) => [s.gold, ...s.aliases]),
        'The  Beatles!',
        'A-ha',
        'an apple a day',
        'thea the',
        'Café a la carte',
        'İstanbul',
        'naïve  “quotes” — dash',
        'x\u00a0the\u2003y',
        'THE END.',
        'éa',
      ];
      const program = [
        'import json, re, string, sys',
        'def normalize_answer(s):',
        "    def remove_articles(text): return re.sub(r'\\b(a|an|the)\\b', ' ', text)",
        "    def white_space_fix(text): return ' '.join(text.split())",
        "    def remove_punc(text): return ''.join(ch for ch in text if ch not in set(string.punctuation))",
        '    return white_space_fix(remove_articles(remove_punc(s.lower())))',
        'print(json.dumps([normalize_answer(t) for t in json.load(sys.stdin)]))',
      ].join('\n');
      const expected = runPython<string[]>(program, texts);
      expect(texts.length).toBeGreaterThan(1000);
      expect(texts.map(normaliseAnswer)).toEqual(expected);
    },
  );
});

describe('number: unchanged', () => {
  it('scores a number within 0.1% of the gold, by the paper parser or the reference one', () => {
    const t = { answerType: 'number' as const, gold: 18, text: 'q' };
    expect(scoreAnswer(t, '{"ground_truth": 18}')).toEqual({ correct: true, parsed: 18, via: 'json' });
    expect(scoreAnswer({ ...t, answerType: undefined }, '#### 18')).toMatchObject({ correct: true });
    expect(scoreAnswer(t, 'no idea')).toEqual({ correct: false, via: 'unparsed' });
    expect(scoreAnswer(t, '#### 18', 'reference')).toMatchObject({ correct: true, via: 'hashes' });
  });
});

describe('choice: the stem a reply is read against', () => {
  it('is the text without its option lines, in any layout Format makes', () => {
    expect(choiceStemOf('Q one?\n\nA. x\nB. y')).toBe('Q one?');
    expect(
      choiceStemOf('|  |\n| --- |\n| You meet A and B. |\n| Who lies? |\n| A. a knight |\n| B. a knave |'),
    ).toBe('|  |\n| --- |\n| You meet A and B. |\n| Who lies? |');
    expect(choiceStemOf('> Who\n> lies? |\n>\n> - A. a knight\n> - B. a knave')).toBe('> Who\n> lies? |\n>');
  });
});
