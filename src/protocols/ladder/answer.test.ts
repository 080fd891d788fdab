import { describe, expect, it } from 'vitest';
import { isCorrectNumber, parseNumericAnswer, parseReference } from './answer.js';

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
    ['#### The answer is 18', 18, 'hashes'],
  ])('%s', (text, value, via) => {
    expect(parseNumericAnswer(text)).toEqual({ value, via });
  });

  it('treats a bare comma and words as unparsed', () => {
    expect(parseNumericAnswer('I do not know, sorry , ,')).toEqual({ value: undefined, via: 'unparsed' });
  });

  it('falls through JSON without an answer field', () => {
    expect(parseNumericAnswer('{"note": "x"} so 42')).toEqual({ value: 42, via: 'last-number' });
  });

  // Where the paper is silent, the reference code's reading (docs/fidelity.md#ladder).
  it.each([
    // The whole reply first: a nested object does not hide the answer.
    ['{"ground_truth": 18, "work": {"step": 2}}', 18, 'json'],
    // The first number of a `####` line and of a JSON string value.
    ['#### 18 (because 9 x 2)', 18, 'hashes'],
    ['{"ground_truth": "18 (9 + 9)"}', 18, 'json'],
    // The first object that answers, not the last.
    ['{"ground_truth": 5} then {"ground_truth": 7}', 5, 'json'],
  ])('reads %s as the reference does', (text, value, via) => {
    expect(parseNumericAnswer(text)).toEqual({ value, via });
    expect(parseReference(text)).toEqual({ value, via });
  });
});

describe("parseNumericAnswer(text, 'reference'): the reference code's parse_math and _to_number", () => {
  // Each expectation is what the reference's Python gives for the same text.
  it.each([
    ['{"reasoning": "2+2", "ground_truth": 4}', 4, 'json'],
    ['Sure. {"answer": "1,250"}', 1250, 'json'],
    ['#### 1\n#### $2,500.50', 2500.5, 'hashes'],
    ['It costs $1,200 in total, not 1,000.', 1000, 'last-number'],
    ['The answer is -7.', -7, 'last-number'],
    ['{"answer": 3, "ground_truth": 5}', 5, 'json'],
    ['{"ground_truth": "-$1,234.5 dollars"}', -1234.5, 'json'],
    // `####` anywhere, not only at a line start.
    ['The answer #### 12 inline', 12, 'hashes'],
    // Only flat objects are candidates after the whole reply: the inner one has no answer key.
    ['Here {"ground_truth": 18, "w": {"s": 2}}', 2, 'last-number'],
    ['{"ground_truth": [7, 8]}', 7, 'json'],
    // A decimal without a leading digit loses its point.
    ['value .5', 5, 'last-number'],
  ])('%s', (text, value, via) => {
    expect(parseNumericAnswer(text, 'reference')).toEqual({ value, via });
  });

  it('departs from the default where the reference code reads no number', () => {
    // An answer key without a number ends the reading: no fallback to the text around it.
    expect(parseNumericAnswer('{"ground_truth": null} so 42', 'reference')).toEqual({
      value: undefined,
      via: 'unparsed',
    });
    expect(parseNumericAnswer('{"ground_truth": null} so 42')).toEqual({ value: 42, via: 'last-number' });
    expect(parseNumericAnswer('{"ground_truth": true}', 'reference').via).toBe('unparsed');
    // A trailing bare comma is the reference's last "number", and reads as none.
    expect(parseNumericAnswer('So 12, and then, , done', 'reference').via).toBe('unparsed');
    expect(parseNumericAnswer('So 12, and then, , done')).toEqual({ value: 12, via: 'last-number' });
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
