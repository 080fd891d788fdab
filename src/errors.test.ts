import { describe, expect, it } from 'vitest';
import { InputError } from './errors.js';

describe('InputError', () => {
  it('names the field in its message, so a caller that logs only the message still learns it', () => {
    const e = new InputError('must be a positive integer', {
      file: 'waver.yaml',
      line: 3,
      field: 'maxTokens',
    });
    expect(e.message).toBe('maxTokens: must be a positive integer');
    expect(e.reason).toBe('must be a positive integer');
    expect(e.format()).toBe('waver.yaml:3: maxTokens: must be a positive integer');
  });

  it('leaves out what is unknown', () => {
    expect(new InputError('empty CSV', { file: 'a.csv' }).message).toBe('empty CSV');
    expect(new InputError('empty CSV', { file: 'a.csv' }).format()).toBe('a.csv: empty CSV');
    expect(new InputError('bad', { line: 2 }).format()).toBe('2: bad');
  });
});
