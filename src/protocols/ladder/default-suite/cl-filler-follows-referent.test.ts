/**
 * The v13 blind read's CL minors (issue 36, docs/decisions.md E100): a filler sentence must follow
 * what it is about. garden-fence's rabbit/carrot sentences came before the garden was introduced,
 * and road-trip-gas L2's "The drive" named a trip the text only mentions in its question.
 */
import { describe, expect, it } from 'vitest';
import { writtenTests } from './test-support/lines.js';

const cl = writtenTests('cl.jsonl');
const line = (seed: string, level: number) =>
  cl.find((l) => l.seed === seed && l.level === level)?.text ?? '';

describe('default suite CL filler follows what it refers to (blind read v13)', () => {
  it.each([1, 3, 5])('garden-fence L%i opens with the garden, the added sentence after it', (level) => {
    expect(line('builtin-garden-fence', level)).toMatch(
      /^A rectangular garden is 12 meters long and 7 meters wide\. [^.]*garden/,
    );
  });

  it('road-trip-gas L2 names no "drive" before the trip is introduced', () => {
    expect(line('builtin-road-trip-gas', 2)).not.toMatch(/\bThe drive\b/);
  });
});
