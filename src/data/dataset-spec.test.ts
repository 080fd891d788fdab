import { describe, expect, it } from 'vitest';
import { formatHfDatasetSpec, parseHfDatasetSpec } from './dataset-spec.js';

describe('hf: dataset specs', () => {
  it('parses the repository and the query options, and writes them back in one order', () => {
    expect(parseHfDatasetSpec('hf:openai/gsm8k')).toEqual({ repo: 'openai/gsm8k' });
    const spec = parseHfDatasetSpec(
      'hf:allenai/ai2_arc?split=test&config=ARC-Challenge&revision=refs%2Fconvert%2Fparquet',
    );
    expect(spec).toEqual({
      repo: 'allenai/ai2_arc',
      config: 'ARC-Challenge',
      split: 'test',
      revision: 'refs/convert/parquet',
    });
    expect(formatHfDatasetSpec(spec)).toBe(
      'hf:allenai/ai2_arc?config=ARC-Challenge&split=test&revision=refs/convert/parquet',
    );
    expect(parseHfDatasetSpec('hf:tatsu-lab/alpaca_eval?file=alpaca_eval.json').file).toBe(
      'alpaca_eval.json',
    );
  });

  it('refuses what it cannot mean', () => {
    expect(() => parseHfDatasetSpec('hf:gsm8k')).toThrow(/does not name a Hub dataset repository/);
    expect(() => parseHfDatasetSpec('hf:a/b/c')).toThrow(/does not name/);
    expect(() => parseHfDatasetSpec('hf:a/b?name=x')).toThrow(
      /unknown option 'name' \(expected config, split, revision, file\)/,
    );
    expect(() => parseHfDatasetSpec('hf:a/b?split=')).toThrow(/'split' needs a value/);
    expect(() => parseHfDatasetSpec('hf:a/b?split=a&split=b')).toThrow(/given twice/);
    expect(() => parseHfDatasetSpec('hf:a/b?file=../x.json')).toThrow(/inside the repository/);
  });
});
