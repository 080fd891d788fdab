import { describe, expect, it } from 'vitest';
import { selectDataFiles } from './data-files.js';
import type { HubFile } from './datasets.js';

const tree = (...paths: string[]): HubFile[] => paths.map((path) => ({ path, size: 1, oid: 'x' }));
const paths = (c: { files: HubFile[] }) => c.files.map((f) => f.path);

describe('which files are a config split', () => {
  it('a config is a top-level folder; a split is named between separators; shards in order', () => {
    const gsm8k = tree(
      'README.md',
      'main/test-00000-of-00001.parquet',
      'main/train-00000-of-00001.parquet',
      'socratic/test-00000-of-00001.parquet',
    );
    expect(selectDataFiles(gsm8k, { config: 'main', split: 'test' }, 'openai/gsm8k')).toEqual({
      files: [gsm8k[1]],
      config: 'main',
      split: 'test',
    });
    expect(() => selectDataFiles(gsm8k, {}, 'openai/gsm8k')).toThrow(
      /several configs \(main, socratic\): name one with \?config=/,
    );
    expect(() => selectDataFiles(gsm8k, { config: 'nope' }, 'openai/gsm8k')).toThrow(
      /no config 'nope' \(its configs: main, socratic\)/,
    );
    const shards = tree(
      'data/test-00001-of-00002.parquet',
      'data/test-00000-of-00002.parquet',
      'data/train-0.parquet',
    );
    expect(paths(selectDataFiles(shards, {}, 'x/y'))).toEqual([
      'data/test-00001-of-00002.parquet',
      'data/test-00000-of-00002.parquet',
    ]);
  });

  it('no split named: test, else validation, ...; a root file named by its split; file= picks one', () => {
    expect(
      selectDataFiles(tree('nq_open/train-0.parquet', 'nq_open/validation-0.parquet'), {}, 'x/y').split,
    ).toBe('validation');
    expect(paths(selectDataFiles(tree('simple_qa_test_set.csv', 'README.md'), {}, 'x/y'))).toEqual([
      'simple_qa_test_set.csv',
    ]);
    // "latest" does not name the test split.
    expect(() => selectDataFiles(tree('latest.jsonl', 'older.jsonl'), { split: 'test' }, 'x/y')).toThrow(
      /no 'test' split/,
    );
    expect(
      paths(selectDataFiles(tree('a.json', 'alpaca_eval.json'), { file: 'alpaca_eval.json' }, 'x/y')),
    ).toEqual(['alpaca_eval.json']);
    expect(() => selectDataFiles(tree('a.json'), { file: 'b.json' }, 'x/y')).toThrow(
      /has no file 'b.json' \(its data files: a.json\)/,
    );
    expect(() => selectDataFiles(tree('README.md'), {}, 'x/y')).toThrow(/no data files/);
  });
});
