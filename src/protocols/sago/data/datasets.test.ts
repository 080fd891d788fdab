import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OPEN_TYPES } from '../../../data/open/resolve.js';
import { namedDatasets } from '../../../data/registry.js';
import { InputError } from '../../../errors.js';
import { sharedDir, sharedFile } from '../../../test-support/shared.js';
import { BUILTIN_OPEN_QUESTIONS } from './builtin-questions.js';
import { loadOpenDataset, resolveOpenPrompts } from './datasets.js';

const dataDir = join(sharedDir, 'data');

async function inputError(fn: () => unknown): Promise<InputError> {
  try {
    await fn();
  } catch (e) {
    if (e instanceof InputError) return e;
    throw e;
  }
  throw new Error('expected an InputError');
}

/** Row counts from ../shared/data/README.md. */
const EXPECTED: Record<string, { rows: number; first: string }> = {
  truthfulqa: { rows: 790, first: 'What happens to you if you eat watermelon seeds?' },
  'nq-open': { rows: 3610, first: 'when was the last time anyone was on the moon' },
  triviaqa: { rows: 3000, first: 'Brunswick, Lancastrian and Pearl Pickler are types of which vegetable?' },
  hotpotqa: { rows: 7405, first: 'Were Scott Derrickson and Ed Wood of the same nationality?' },
  simpleqa: { rows: 4326, first: 'Who received the IEEE Frank Rosenblatt Award in 2010?' },
  alpaca: {
    rows: 805,
    first: 'What are the names of some famous actors that started their careers on Broadway?',
  },
};

describe('named open-ended datasets', () => {
  for (const { name, file } of namedDatasets(OPEN_TYPES)) {
    const present = sharedFile(`data/${file}`);
    const run = present ? it : it.skip;
    run(
      `${name} loads every row with a clean prompt${present ? '' : ` (skipped: ../shared/data/${file} is missing)`}`,
      async () => {
        const prompts = await loadOpenDataset(name, { dataDir });
        const expected = EXPECTED[name] as { rows: number; first: string };
        expect(prompts).toHaveLength(expected.rows);
        expect(prompts[0]?.text).toBe(expected.first);
        expect(new Set(prompts.map((p) => p.id)).size).toBe(prompts.length);
        for (const p of prompts) {
          expect(p.text.trim()).toBe(p.text);
          expect(p.text.length).toBeGreaterThan(0);
          expect(p.dataset).toBe(name);
          // The stored source is relative to the data directory: no machine path in a suite.
          expect(p.source.file).toBe(file);
        }
      },
    );
  }

  const tqa = sharedFile('data/truthfulqa/TruthfulQA.csv');
  (tqa ? it : it.skip)(
    `samples N prompts like CPython's random.Random(seed).sample${tqa ? '' : ' (skipped: TruthfulQA.csv missing)'}`,
    async () => {
      const [sample] = await resolveOpenPrompts(['truthfulqa'], { n: 4, seed: 0, dataDir });
      // python3: random.Random(deriveSeed(0, 'sago/sample', 'truthfulqa')).sample(range(790), 4)
      expect(sample?.prompts.map((p) => p.id)).toEqual(['tqa-494', 'tqa-176', 'tqa-35', 'tqa-530']);
      expect(sample?.available).toBe(790);
      const again = await resolveOpenPrompts(['truthfulqa'], { n: 4, seed: 0, dataDir });
      expect(again).toEqual([sample]);
    },
  );

  it('reads WAVER_DATA_DIR when no data directory is given, and names the missing file', async () => {
    const err = await inputError(() =>
      loadOpenDataset('truthfulqa', { env: { WAVER_DATA_DIR: '/nonexistent-waver-data' } }),
    );
    expect(err.message).toMatch(
      /dataset 'truthfulqa' not found: \/nonexistent-waver-data\/truthfulqa\/TruthfulQA\.csv is missing/,
    );
  });
});

describe('the built-in open questions', () => {
  it('run with no dataset named: N sampled with the seed', async () => {
    const [sample] = await resolveOpenPrompts([], { n: 4, seed: 0 });
    expect(sample?.name).toBe('builtin');
    expect(sample?.available).toBe(BUILTIN_OPEN_QUESTIONS.length);
    // python3: random.Random(deriveSeed(0, 'sago/sample', 'builtin')).sample(range(32), 4)
    expect(sample?.prompts.map((p) => p.id)).toEqual(
      [7, 30, 23, 18].map((i) => BUILTIN_OPEN_QUESTIONS[i]?.id),
    );
  });

  it('are distinct, end with ? or ., and have unique ids', () => {
    expect(new Set(BUILTIN_OPEN_QUESTIONS.map((q) => q.id)).size).toBe(BUILTIN_OPEN_QUESTIONS.length);
    expect(new Set(BUILTIN_OPEN_QUESTIONS.map((q) => q.text)).size).toBe(BUILTIN_OPEN_QUESTIONS.length);
    for (const q of BUILTIN_OPEN_QUESTIONS) expect(q.text).toMatch(/[?.]$/);
  });
});

describe('dataset files and bad input', () => {
  const dir = mkdtempSync(join(tmpdir(), 'waver-open-'));

  it('reads JSONL, JSON and CSV with a field mapping (dotted paths, ids, references)', async () => {
    const jsonl = join(dir, 'q.jsonl');
    writeFileSync(
      jsonl,
      '{"q": {"stem": "Why is the sea salty?"}, "key": 7, "gold": ["salt"]}\n\n{"q": {"stem": "What is fog?"}, "key": 8}\n',
    );
    const prompts = await loadOpenDataset(jsonl, {
      fields: { prompt: 'q.stem', id: 'key', references: 'gold' },
    });
    expect(prompts.map((p) => [p.id, p.text, p.references])).toEqual([
      ['7', 'Why is the sea salty?', ['salt']],
      ['8', 'What is fog?', undefined],
    ]);
    const csv = join(dir, 'q.csv');
    writeFileSync(csv, 'question,answer\n"Why, then?",x\n');
    expect((await loadOpenDataset(csv)).map((p) => [p.id, p.text])).toEqual([['row-0', 'Why, then?']]);
    const json = join(dir, 'q.json');
    writeFileSync(json, JSON.stringify([{ instruction: 'Name a colour.' }]));
    expect((await loadOpenDataset(json))[0]?.id).toBe('row-0');
  });

  it('reads JSONL, JSON and CSV saved with a byte-order mark and CRLF line ends', async () => {
    const jsonl = join(dir, 'bom.jsonl');
    writeFileSync(jsonl, '\ufeff{"question": "Why is the sea salty?"}\r\n{"question": "What is fog?"}\r\n');
    expect((await loadOpenDataset(jsonl)).map((p) => [p.id, p.text])).toEqual([
      ['row-0', 'Why is the sea salty?'],
      ['row-1', 'What is fog?'],
    ]);
    const json = join(dir, 'bom.json');
    writeFileSync(json, `\ufeff${JSON.stringify([{ instruction: 'Name a colour.' }])}\r\n`);
    expect((await loadOpenDataset(json))[0]?.text).toBe('Name a colour.');
    const csv = join(dir, 'bom.csv');
    writeFileSync(csv, '\ufeffquestion,answer\r\n"Why, then?",x\r\n');
    expect((await loadOpenDataset(csv)).map((p) => [p.id, p.text])).toEqual([['row-0', 'Why, then?']]);
  });

  it('an empty dataset is an error naming it', async () => {
    const empty = join(dir, 'empty.jsonl');
    writeFileSync(empty, '\n');
    const err = await inputError(() => resolveOpenPrompts([empty], { n: 2 }));
    expect(err.format()).toBe(`${empty}: datasets: dataset '${empty}' has no prompts`);
  });

  it('a sample larger than the dataset is an error naming both', async () => {
    const err = await inputError(() => resolveOpenPrompts([], { n: 40 }));
    expect(err.reason).toBe("sample size 40 is larger than dataset 'builtin' (32 prompts); lower --n");
  });

  it('unknown names, missing prompt fields and bad JSON name the thing', async () => {
    expect((await inputError(() => resolveOpenPrompts(['nope']))).message).toMatch(/unknown dataset 'nope'/);
    const noField = join(dir, 'nofield.jsonl');
    writeFileSync(noField, '{"body": "x"}\n');
    expect((await inputError(() => loadOpenDataset(noField))).message).toMatch(
      /no prompt field.*fields: body.*--prompt-field/,
    );
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(bad, '{"prompt": "ok"}\n{oops\n');
    const err = await inputError(() => loadOpenDataset(bad));
    expect([err.file, err.line]).toEqual([bad, 2]);
    expect((await inputError(() => resolveOpenPrompts(['builtin', 'builtin']))).message).toMatch(
      /listed twice/,
    );
    expect((await inputError(() => resolveOpenPrompts([], { n: 0 }))).message).toMatch(/positive integer/);
  });

  it('a file is named by its records (docs/datasets.md#identity): two spellings or copies of it are one dataset', async () => {
    const sub = mkdtempSync(join(dir, 'identity-'));
    writeFileSync(join(sub, 'q.jsonl'), '{"prompt": "Why is the sea salty?"}\n{"prompt": "What is fog?"}\n');
    writeFileSync(
      join(sub, 'copy.json'),
      JSON.stringify([{ prompt: 'Why is the sea salty?' }, { prompt: 'What is fog?' }]),
    );
    const [relative] = await resolveOpenPrompts(['q.jsonl'], { n: 2, seed: 7, cwd: sub });
    const [absolute] = await resolveOpenPrompts([join(sub, 'q.jsonl')], { n: 2, seed: 7 });
    expect(relative?.name).toMatch(/^records-[0-9a-f]{12}$/);
    // The same sample; only where each prompt was read (for errors, never in a suite) differs.
    const asked = (sample: typeof relative) => ({
      ...sample,
      prompts: sample?.prompts.map(({ source: _where, ...p }) => p),
    });
    expect(asked(absolute)).toEqual(asked(relative));
    expect(relative?.prompts.map((p) => [p.dataset, p.id])).toEqual(
      expect.arrayContaining([
        [relative?.name, 'row-0'],
        [relative?.name, 'row-1'],
      ]),
    );
    const err = await inputError(() => resolveOpenPrompts(['q.jsonl', 'copy.json'], { n: 1, cwd: sub }));
    expect(err.message).toBe(
      `datasets: 'q.jsonl' and 'copy.json' hold the same records (${relative?.name}): list one of them`,
    );
  });
});
