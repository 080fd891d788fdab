import { describe, expect, it } from 'vitest';
import { isCorrectNumber, readNumericAnswer } from './number.js';

describe('isCorrectNumber', () => {
  it('uses a 0.1% relative tolerance', () => {
    expect(isCorrectNumber(1000.9, 1000)).toBe(true);
    expect(isCorrectNumber(1001, 1000)).toBe(false);
    expect(isCorrectNumber(1e-10, 0)).toBe(true);
    expect(isCorrectNumber(1e-8, 0)).toBe(false);
    expect(isCorrectNumber(undefined, 3)).toBe(false);
  });
});

describe('readNumericAnswer', () => {
  it('reads JSON first, then the last ####, then the last number', () => {
    expect(readNumericAnswer('{"answer": "18 (9 + 9)"} #### 20')).toEqual({ value: 18, via: 'json' });
    expect(readNumericAnswer('So 9 + 9 = 18.\n#### - 5')).toEqual({ value: -5, via: 'hashes' });
    expect(readNumericAnswer('10 - 5 is 5')).toEqual({ value: 5, via: 'last-number' });
    expect(readNumericAnswer('no idea')).toEqual({ value: undefined, via: 'unparsed' });
  });
});
