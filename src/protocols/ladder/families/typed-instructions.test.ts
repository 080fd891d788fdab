import { describe, expect, it } from 'vitest';
import { buildLadderSuite } from '../suite.js';
import { Recording, scratchDir, testConfig } from '../test-support/fakes.js';
import { type ChoiceSeed, choiceQuestion, LEVELS, type TextSeed } from '../types.js';
import { builtInFamilyCodes } from './roster.js';

const FAMILIES = builtInFamilyCodes();

import { modelCandidateText, modelInstructions } from './instructions.js';
import { generatorRequest } from './model-generator.js';
import { ladderFamily } from './registry.js';

/** ARC-Challenge's first row (../shared/data/arc-challenge/arc_challenge.jsonl line 1). */
const STEM =
  'An astronomer observes that a planet rotates faster after a meteorite impact. Which is the most likely effect of this increase in rotation?';
const OPTIONS = [
  { letter: 'A', text: 'Planetary density will decrease.' },
  { letter: 'B', text: 'Planetary years will become longer.' },
  { letter: 'C', text: 'Planetary days will become shorter.' },
  { letter: 'D', text: 'Planetary gravity will become stronger.' },
];
const ARC: ChoiceSeed = {
  id: 'arc-challenge-0',
  answerType: 'choice',
  question: choiceQuestion(STEM, OPTIONS),
  stem: STEM,
  options: OPTIONS,
  gold: 'C',
  source: 'arc-challenge:0',
};
const TRIVIA: TextSeed = {
  id: 'trivia-1',
  answerType: 'text',
  question: 'Brunswick, Lancastrian and Pearl Pickler are types of which vegetable?',
  gold: 'Onion',
  aliases: ['Allium cepa'],
  source: 'triviaqa:1',
};

describe('the model generator on choice and text seeds', () => {
  it('asks about a question, not a math problem, and never for the options on a choice stem', () => {
    for (const family of FAMILIES)
      for (const level of LEVELS)
        for (const seed of [ARC, TRIVIA]) {
          const i = modelInstructions(ladderFamily(family), seed, level, 1);
          expect(`${i.system}\n${i.user}`, `${family} L${level} ${seed.answerType}`).not.toMatch(
            /math|problem|calculat|operations/i,
          );
          expect(i.temperature).toBe(ladderFamily(family).instructions.temperatures[level - 1]);
          if (seed === ARC && family !== 'F') {
            expect(i.user).toContain(
              `QUESTION:\n${STEM}\n\nOPTIONS (fixed: not yours to change or repeat):\nA. Planetary`,
            );
            if (family !== 'CI') expect(i.system).toMatch(/without the options/);
          }
        }
    expect(modelInstructions(ladderFamily('F'), ARC, 3, 1).user).toContain(`ITEM:\n${ARC.question}`);
    expect(modelInstructions(ladderFamily('CI'), TRIVIA, 2, 1).output).toBe('append');
    // A number seed gets the family's own math-problem instructions.
    const sv = ladderFamily('SV');
    expect(modelInstructions(sv, { id: 'n', question: 'q', gold: 1, source: 's' }, 1, 1).system).toBe(
      sv.instructions.number.system,
    );
  });

  it('puts the options back after the stem the model wrote; a distractor goes before them', () => {
    expect(
      modelCandidateText(
        ladderFamily('SV'),
        ARC,
        'A planet spins faster after an impact. What follows most likely?',
      ),
    ).toBe(choiceQuestion('A planet spins faster after an impact. What follows most likely?', OPTIONS));
    expect(
      modelCandidateText(ladderFamily('CI'), ARC, `${ARC.question}\nThe observatory was built in 1950.`),
    ).toBe(choiceQuestion(`${STEM} The observatory was built in 1950.`, OPTIONS));
    expect(modelCandidateText(ladderFamily('F'), ARC, `- ${STEM}\n- A. x`)).toBe(`- ${STEM}\n- A. x`);
    expect(
      modelCandidateText(
        ladderFamily('SV'),
        TRIVIA,
        'Which vegetable has the types Brunswick and Pearl Pickler?',
      ),
    ).toBe('Which vegetable has the types Brunswick and Pearl Pickler?');
  });

  it('builds choice tests from a recorded generator: options kept, a reply that drops one rejected at gate answer', async () => {
    const dir = scratchDir('waver-typed-model-');
    const job = (family: 'SV' | 'KB', attempt: number) => ({ seed: ARC, family, level: 1 as const, attempt });
    const gen = new Recording(dir, 'gen.jsonl')
      .add(
        generatorRequest(ladderFamily('SV'), job('SV', 1)),
        'A planet spins faster after an impact. Which effect is most likely?',
      )
      .add(
        generatorRequest(ladderFamily('SV'), job('SV', 2)),
        'An astronomer sees a planet spin faster after a meteorite hits it. Which effect of the faster spin is most likely?',
      )
      .add(
        generatorRequest(ladderFamily('KB'), job('KB', 1)),
        `${STEM.replace('a planet', 'the planet Veltris in a system no one has observed')}\nA. Planetary density will decrease.`,
      );
    const build = await buildLadderSuite({
      seeds: [ARC],
      config: testConfig(dir, { generator: gen.spec }),
      generator: 'model',
      seed: 1,
      families: ['SV', 'KB'],
      levels: [1],
    });
    const sv = build.tests.find((t) => t.family === 'SV');
    // The first reply measured off SV's L1 band or not: whichever was admitted ends in the options, untouched.
    expect(sv?.text.endsWith(`\n\n${OPTIONS.map((o) => `${o.letter}. ${o.text}`).join('\n')}`)).toBe(true);
    expect(sv?.options).toEqual(OPTIONS);
    expect(sv?.gold).toBe('C');
    expect(sv?.gates.find((g) => g.gate === 'answer')?.verdict).toBe('pass');
    // The KB reply repeated one option after the stem: the item then lists option A twice.
    const kbRow = build.admission.find((r) => r.family === 'KB');
    expect(kbRow?.rejectedByGate).toMatchObject({ answer: 1 });
  });
});
