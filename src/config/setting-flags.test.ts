import { describe, expect, it } from 'vitest';
import { InputError } from '../errors.js';
import { fieldMap } from './setting-flags.js';

describe('--fields', () => {
  it('reads NAME=FIELD pairs, dotted paths kept', () => {
    expect(fieldMap('question=problem, answer=solution.text', '--fields')).toEqual({
      question: 'problem',
      answer: 'solution.text',
    });
  });

  it.each([['question'], ['=problem'], ['question='], ['a=x,a=y'], [',']])(
    "'%s' is an input error naming the flag",
    (value) => {
      expect(() => fieldMap(value, '--fields')).toThrow(InputError);
      expect(() => fieldMap(value, '--fields')).toThrow(/^--fields: /);
    },
  );
});
