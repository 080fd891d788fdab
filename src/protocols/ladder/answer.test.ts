import { describe, expect, it } from 'vitest';
import { isCorrectNumber, parseNumericAnswer } from './answer.js';

describe('parseNumericAnswer', () => {
  it.each([
    ['{"reasoning": "2+2", "ground_truth": 4}', 4, 'json'],
    ['Sure. {"answer": "1,250"}', 1250, 'json'],
    ['She has 3 apples then 5.\n#### 8\nThanks, 9 times over', 8, 'hashes'],
    ['#### 1\n#### $2,500.50', 2500.5, 'hashes'],
    ['It costs $1,200 in total, not 1,000.', 1000, 'last-number'],
    ['The answer is -7.', -7, 'last-number'],
    ['So 12, and then, , done', 12, 'last-number'],
    ['value .5', 0.5, 'last-number'],
  ])('%s', (text, value, via) => {
    expect(parseNumericAnswer(text)).toEqual({ value, via });
  });

  it('treats a bare comma and words as unparsed', () => {
    expect(parseNumericAnswer('I do not know, sorry , ,')).toEqual({ value: undefined, via: 'unparsed' });
  });

  it('falls through JSON without an answer field', () => {
    expect(parseNumericAnswer('{"note": "x"} so 42')).toEqual({ value: 42, via: 'last-number' });
  });
});

describe('isCorrectNumber', () => {
  it('uses a 0.1% relative tolerance', () => {
    expect(isCorrectNumber(1000.9, 1000)).toBe(true);
    expect(isCorrectNumber(1001, 1000)).toBe(false);
    expect(isCorrectNumber(1e-10, 0)).toBe(true);
    expect(isCorrectNumber(1e-8, 0)).toBe(false);
    expect(isCorrectNumber(undefined, 3)).toBe(false);
  });
});
