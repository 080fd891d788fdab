import { describe, expect, it } from 'vitest';
import { DEMO_QUESTIONS } from './questions.js';

describe('demo questions', () => {
  it('have the keys their numbers give', () => {
    // Recomputed from the numbers as they appear in the plain wording, independently of the source's constants.
    const recompute: Record<string, (a: number, b: number, c: number) => number> = {
      jars: (a, b, c) => a * b - c,
      bus: (a, b, c) => a - b + c,
      garden: (a, b, c) => a * b - c,
      savings: (a, b, c) => a * b - c,
    };
    for (const q of DEMO_QUESTIONS) {
      const [a = Number.NaN, b = Number.NaN, c = Number.NaN] = (q.phrasings[0].match(/\d+/g) ?? []).map(
        Number,
      );
      expect(recompute[q.id]?.(a, b, c), q.id).toBe(q.gold);
    }
  });

  it('state the same numbers in every phrasing', () => {
    for (const q of DEMO_QUESTIONS) {
      const numbers = q.phrasings.map((p) => (p.match(/\d+/g) ?? []).map(Number).sort((a, b) => a - b));
      expect(numbers[1], q.id).toEqual(numbers[0]);
      expect(numbers[2], q.id).toEqual(numbers[0]);
    }
  });
});
