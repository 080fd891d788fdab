import { describe, expect, it } from 'vitest';
import {
  evaluateArithmetic,
  evaluateRule,
  normaliseText,
  optionNumber,
  optionsMatching,
} from './mc-rules.js';

const opts = (...texts: string[]) => texts.map((text, i) => ({ letter: 'ABCD'[i] as string, text }));

describe('key rules', () => {
  it('evaluates arithmetic with precedence, parentheses, unary minus and right-associative powers', () => {
    expect(evaluateArithmetic('63 / (1 - 30 / 100)')).toBeCloseTo(90, 12);
    expect(evaluateArithmetic('2 + 3 * 4')).toBe(14);
    expect(evaluateArithmetic('-(2 - 5) * .5')).toBe(1.5);
    expect(evaluateArithmetic('2 ^ 3 ^ 2')).toBe(512);
    expect(evaluateArithmetic('30 / 0.5 + 10')).toBe(70);
  });

  it('refuses anything that is not arithmetic, and results that are not finite', () => {
    expect(() => evaluateArithmetic('process.exit(1)')).toThrow(/unexpected 'p'/);
    expect(() => evaluateArithmetic('(1 + 2')).toThrow(/missing '\)'/);
    expect(() => evaluateArithmetic('1 +')).toThrow(/unexpected end/);
    expect(() => evaluateArithmetic('1 / 0')).toThrow(/not a finite number/);
    expect(() => evaluateArithmetic('1 2')).toThrow(/unexpected '2'/);
  });

  it('computes weekdays and day differences in UTC, refusing impossible dates', () => {
    expect(evaluateRule({ kind: 'weekday', date: '2023-06-01' })).toBe('Thursday');
    expect(evaluateRule({ kind: 'weekday', date: '2000-02-29' })).toBe('Tuesday');
    expect(evaluateRule({ kind: 'days-between', from: '2023-03-01', to: '2023-06-01' })).toBe(92);
    expect(() => evaluateRule({ kind: 'weekday', date: '2023-02-30' })).toThrow('not a date: 2023-02-30');
  });

  it('matches a number to the option that states it, and text after normalising', () => {
    expect(optionNumber('$1,250.50')).toBe(1250.5);
    expect(optionNumber('Day 8')).toBe(8);
    expect(optionNumber('13:15')).toBeUndefined();
    expect(optionNumber('none')).toBeUndefined();
    expect(
      optionsMatching(opts('$81.90', '$90', '$93', '$96'), 90.00000000000001).map((o) => o.letter),
    ).toEqual(['B']);
    expect(optionsMatching(opts('$81.90', '$90'), 91)).toEqual([]);
    expect(
      optionsMatching(opts('It is the same', 'It is 5% lower'), 'it is the same.').map((o) => o.letter),
    ).toEqual(['A']);
    expect(normaliseText('  "The  Same." ')).toBe('the same');
  });
});
