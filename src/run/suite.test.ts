import { describe, expect, it } from 'vitest';
import { inputErrorOf } from '../test-support/scratch.js';
import { checkRepeats, suiteOf } from './suite.js';

describe('checkRepeats', () => {
  const suite = suiteOf('ladder/tests', [
    { id: 'base', prompt: 'x', repeats: 1001 },
    { id: 'other', prompt: 'y' },
  ]);

  it("refuses a test's own repeats above maxRepeats, naming the test and suite", () => {
    const err = inputErrorOf(() => checkRepeats(suite, { repeats: 1, maxRepeats: 1000 }));
    expect([err.field, err.reason]).toEqual([
      'repeats',
      "test 'base' of ladder/tests: 1001 is above the limit of 1000 (maxRepeats in waver.yaml raises it)",
    ]);
    expect(() => checkRepeats(suite, { repeats: 1, maxRepeats: 1001 })).not.toThrow();
  });

  it("refuses the run's repeats above it", () => {
    const plain = suiteOf('s.jsonl', [{ id: 'a', prompt: 'x' }]);
    const err = inputErrorOf(() => checkRepeats(plain, { repeats: 5000, maxRepeats: 1000 }));
    expect([err.field, err.reason]).toEqual([
      'repeats',
      '5000 is above the limit of 1000 (maxRepeats in waver.yaml raises it)',
    ]);
  });
});
