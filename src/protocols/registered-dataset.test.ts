import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerDataset } from '../data/registry.js';
import { QUIZ_MC, QUIZ_MC_LINES, QUIZ_QA, QUIZ_QA_LINES } from '../test-support/data/quiz-datasets.js';
import { resolveLadderSeeds } from './ladder/data/datasets.js';
import type { ChoiceSeed, TextSeed } from './ladder/types.js';
import { resolveMcItems } from './paraphrase/data/datasets.js';
import { resolveOpenPrompts } from './sago/data/datasets.js';

/**
 * A named dataset is one module and one registration (docs/architecture.md#adding-a-dataset): the two
 * datasets of src/test-support/data/quiz-datasets.ts, registered here and in no other file, are read by name
 * by every protocol that asks their answer type, with their licence in the record.
 */

const dir = mkdtempSync(join(tmpdir(), 'waver-quiz-'));
const env = { WAVER_DATA_DIR: dir };
const lines = (rows: readonly object[]) => `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`;
const unregister: (() => void)[] = [];

beforeAll(() => {
  mkdirSync(join(dir, 'quiz'));
  writeFileSync(join(dir, 'quiz/mc.jsonl'), lines(QUIZ_MC_LINES));
  writeFileSync(join(dir, 'quiz/qa.jsonl'), lines(QUIZ_QA_LINES));
  unregister.push(registerDataset(QUIZ_MC), registerDataset(QUIZ_QA));
});
afterAll(() => {
  for (const undo of unregister) undo();
});

describe('a dataset registered from outside waver', () => {
  it('multiple choice: paraphrase reads its items and the ladder its choice seeds, by name and alias', async () => {
    const items = await resolveMcItems('quiz-mc', { env });
    expect(items.name).toBe('quiz-mc');
    expect(items.items.map((i) => [i.id, i.key])).toEqual([
      ['q1', 'B'],
      ['q2', 'B'],
    ]);
    expect(items.source).toMatchObject({
      name: 'quiz-mc',
      licence: 'CC0-1.0',
      files: [{ path: 'quiz/mc.jsonl' }],
    });
    const seeds = (await resolveLadderSeeds('quiz', { env })) as ChoiceSeed[];
    expect(seeds.map((s) => [s.id, s.answerType, s.gold])).toEqual([
      ['q1', 'choice', 'B'],
      ['q2', 'choice', 'B'],
    ]);
    expect(seeds[0]?.dataset).toEqual(items.source);
  });

  it('short answers: sago samples its prompts and the ladder reads its text seeds', async () => {
    const [sample] = await resolveOpenPrompts(['quiz-qa'], { n: 2, seed: 0, env });
    expect(sample?.name).toBe('quiz-qa');
    expect(sample?.available).toBe(3);
    expect(sample?.source).toMatchObject({ name: 'quiz-qa', licence: 'CC0-1.0' });
    const seeds = (await resolveLadderSeeds('quiz-qa', { env })) as TextSeed[];
    expect(seeds.map((s) => [s.id, s.answerType, s.gold])).toEqual([
      ['quiz-qa-1', 'text', 'Rome'],
      ['quiz-qa-2', 'text', 'Leonardo da Vinci'],
      ['quiz-qa-3', 'text', 'carbon dioxide'],
    ]);
  });

  it('is listed where the names are, and refused twice', async () => {
    await expect(resolveMcItems('nope', { env })).rejects.toThrow(
      /expected builtin, .*truthfulqa-mc, quiz-mc,/,
    );
    expect(() => registerDataset({ ...QUIZ_QA, name: 'other', aliases: ['quiz-qa'] })).toThrow(
      "dataset name 'quiz-qa' is already registered",
    );
  });

  it('not on the Hub and no data directory: an input error naming the file to provide', async () => {
    await expect(resolveMcItems('quiz-mc', { env: {} })).rejects.toThrow(
      "dataset 'quiz-mc' is not on the Hugging Face Hub: set WAVER_DATA_DIR to the folder that holds quiz/mc.jsonl",
    );
  });
});
