import { describe, expect, it } from 'vitest';
import { NUMBER_REPLIES } from '../test-support/answers/number-replies.js';
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
  it('reads JSON first, then the last answer marker, then the last number', () => {
    expect(readNumericAnswer('{"answer": "18 (9 + 9)"} #### 20')).toEqual({ value: 18, via: 'json' });
    expect(readNumericAnswer('So 9 + 9 = 18.\n#### - 5')).toEqual({ value: -5, via: 'hashes' });
    expect(readNumericAnswer('10 - 5 is 5')).toEqual({ value: 5, via: 'last-number' });
    expect(readNumericAnswer('no idea')).toEqual({ value: undefined, via: 'unparsed' });
  });

  it(`reads ${NUMBER_REPLIES.length} reply formats as a careful reader does, and says where it read each`, () => {
    expect(NUMBER_REPLIES.length).toBeGreaterThanOrEqual(60);
    const wrong = NUMBER_REPLIES.flatMap((r) => {
      const read = readNumericAnswer(r.reply);
      const via = r.form ? `${r.where}+${r.form}` : r.where;
      const value = read.value ?? null;
      const right =
        value === null ? r.reading === null : r.reading !== null && Math.abs(value - r.reading) < 1e-12;
      return right && read.via === via
        ? []
        : [{ reply: r.reply, expected: [r.reading, via], read: [value, read.via] }];
    });
    expect(wrong).toEqual([]);
  });

  it('reads the ambiguous replies as none, never a guess', () => {
    const ambiguous = NUMBER_REPLIES.filter((r) => r.ambiguous !== undefined);
    expect(ambiguous.length).toBeGreaterThanOrEqual(5);
    for (const r of ambiguous)
      expect(readNumericAnswer(r.reply)).toEqual({ value: undefined, via: 'ambiguous' });
  });
});
