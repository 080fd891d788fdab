import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../../errors.js';
import { sharedDataEnv, sharedFile } from '../../../test-support/shared.js';
import type { ChoiceSeed, TextSeed } from '../types.js';
import { resolveLadderSeeds } from './datasets.js';

/** Choice and text seeds from the named datasets in ../shared/data, read as WAVER_DATA_DIR reads them. */

const env = sharedDataEnv;
const missing = (file: string) =>
  sharedFile(`data/${file}`) ? '' : ` (skipped: ../shared/data/${file} is not there)`;
const ARC = 'arc-challenge/arc_challenge.jsonl';
const CSQA = 'commonsenseqa/dev_rand_split.jsonl';
const TRIVIA = 'triviaqa/triviaqa_sm_sub.jsonl';
const SIMPLE = 'simpleqa/simple_qa_test_set.csv';
const NQ = 'nq-open/NQ-open.dev.jsonl';

describe('choice seeds', () => {
  it.skipIf(missing(ARC) !== '')(
    `arc-challenge: stem, lettered options and the key's letter${missing(ARC)}`,
    async () => {
      const seeds = (await resolveLadderSeeds('arc-challenge', { env, limit: 3 })) as ChoiceSeed[];
      const [s] = seeds;
      expect(s?.answerType).toBe('choice');
      expect(s?.id).toBe('arc-challenge-0');
      expect(s?.stem).toMatch(/^An astronomer observes that a planet rotates faster/);
      expect(s?.options.map((o) => o.letter)).toEqual(['A', 'B', 'C', 'D']);
      // The row's gold is index 2: "Planetary days will become shorter."
      expect(s?.gold).toBe('C');
      expect(s?.options[2]?.text).toBe('Planetary days will become shorter.');
      expect(s?.question).toBe(
        `${s?.stem}\n\nA. Planetary density will decrease.\nB. Planetary years will become longer.\nC. Planetary days will become shorter.\nD. Planetary gravity will become stronger.`,
      );
      expect(s?.dataset?.name).toBe('arc-challenge');
      expect(s?.dataset?.licence).toBe('CC-BY-SA-4.0');
      // The alias reads the same dataset.
      expect((await resolveLadderSeeds('arc', { env, limit: 3 })).map((x) => x.id)).toEqual(
        seeds.map((x) => x.id),
      );
    },
  );

  it.skipIf(missing(CSQA) !== '')(
    `commonsenseqa: five options and the dataset's ids${missing(CSQA)}`,
    async () => {
      const [s] = (await resolveLadderSeeds('commonsenseqa', { env, limit: 1 })) as ChoiceSeed[];
      expect(s?.id).toBe('1afa02df02c908a558b4036e80242fac');
      expect(s?.options.map((o) => `${o.letter}:${o.text}`)).toEqual([
        'A:bank',
        'B:library',
        'C:department store',
        'D:mall',
        'E:new york',
      ]);
      expect(s?.gold).toBe('A');
    },
  );
});

describe('text seeds', () => {
  it.skipIf(missing(TRIVIA) !== '')(
    `triviaqa: the answer is the gold, the aliases beside it${missing(TRIVIA)}`,
    async () => {
      const [s] = (await resolveLadderSeeds('triviaqa', { env, limit: 1 })) as TextSeed[];
      expect(s?.answerType).toBe('text');
      expect(s?.id).toBe('trivia-1');
      expect(s?.question).toBe('Brunswick, Lancastrian and Pearl Pickler are types of which vegetable?');
      expect(s?.gold).toBe('Onion');
      expect(s?.aliases).toContain('Allium cepa');
      expect(s?.aliases).not.toContain('Onion');
    },
  );

  it.skipIf(missing(SIMPLE) !== '')(`simpleqa: one answer, no aliases${missing(SIMPLE)}`, async () => {
    const [s] = (await resolveLadderSeeds('simpleqa', { env, limit: 1 })) as TextSeed[];
    expect(s?.question).toBe('Who received the IEEE Frank Rosenblatt Award in 2010?');
    expect(s?.gold).toBe('Michio Sugeno');
    expect(s?.aliases).toEqual([]);
  });

  it.skipIf(missing(NQ) !== '')(
    `nq-open: the first answer is the gold, the others its aliases${missing(NQ)}`,
    async () => {
      const [s] = (await resolveLadderSeeds('nq-open', { env, limit: 1 })) as TextSeed[];
      expect(s?.question).toBe('when was the last time anyone was on the moon');
      expect(s?.gold).toBe('14 December 1972 UTC');
      expect(s?.aliases).toEqual(['December 1972']);
    },
  );
});

describe('answer types of a file', () => {
  const file = (name: string, lines: unknown[]) => {
    const dir = mkdtempSync(join(tmpdir(), 'waver-typed-'));
    const path = join(dir, name);
    writeFileSync(path, lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
    return path;
  };

  it('reads options as choice seeds and a text answer with --answer-type text', async () => {
    const mc = file('mc.jsonl', [{ question: 'Sky?', choices: ['red', 'blue'], answerKey: 'B' }]);
    const [c] = (await resolveLadderSeeds(mc)) as ChoiceSeed[];
    // A file's seeds are named by its records' content, never its name (docs/datasets.md#identity).
    expect(c).toMatchObject({
      id: `${c?.dataset?.name}-0`,
      answerType: 'choice',
      gold: 'B',
      question: 'Sky?\n\nA. red\nB. blue',
    });

    const qa = file('qa.jsonl', [{ question: 'Capital of France?', answer: ['Paris', 'Paris, France'] }]);
    const err: unknown = await resolveLadderSeeds(qa).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect(err).toMatchObject({ line: 1, field: 'answer' });
    expect((err as InputError).message).toMatch(/cannot tell the answer type: .*pass --answer-type text/);
    const [t] = (await resolveLadderSeeds(qa, { answerType: 'text' })) as TextSeed[];
    expect(t).toMatchObject({ gold: 'Paris', aliases: ['Paris, France'] });
    expect(t?.id).toMatch(/^records-[0-9a-f]{12}-0$/);
    expect(t?.id).not.toBe(c?.id);
  });

  it('refuses an answer type the named dataset does not have, before reading it', async () => {
    await expect(resolveLadderSeeds('arc-challenge', { env, answerType: 'number' })).rejects.toThrow(
      /dataset 'arc-challenge' has choice answers, not number/,
    );
    await expect(resolveLadderSeeds('builtin', { answerType: 'text' })).rejects.toThrow(/has number answers/);
  });
});
