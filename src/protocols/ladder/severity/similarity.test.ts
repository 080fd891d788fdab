import { describe, expect, it } from 'vitest';
import { python3Missing, runPython } from '../../../test-support/python3.js';
import { magnitude, magnitudeOf, sim } from './similarity.js';

describe('sim and magnitude', () => {
  it('compare lowercased texts and round to 4 decimals', () => {
    expect(sim('ABCD', 'bcde')).toBe(0.75);
    expect(sim('Hello', 'hello')).toBe(1);
    expect(magnitude('Hello', 'hello')).toBe(0);
    expect(sim('', '')).toBe(1);
    expect(magnitudeOf(0.8784)).toBe(0.1216); // not 0.12160000000000004
  });

  it('round ties to even like Python: a ratio of exactly 1/32 is 0.0312', () => {
    // 'a' vs 63 other letters: 2 * 1 / 64 = 0.03125 exactly
    const other = 'bcdefghijklmnopqrstuvwxyz'.repeat(3).slice(0, 62);
    expect(sim('a', `a${other}`)).toBe(0.0312);
  });

  it.skipIf(python3Missing)(
    python3Missing ?? 'equals CPython on texts where lowercasing is not ASCII',
    () => {
      const pairs = [
        ['İSTANBUL ΟΔΥΣΣΕΥΣ', 'istanbul οδυσσευς'],
        ['Straße GROẞ', 'strasse groß'],
        ['ǅemal ǈubljana', 'džemal ljubljana'],
        ['Ꭰ𐐀𞤀 ꟋX', 'ꭰ𐐨𞤢 ɤx'],
        ['ΑΣ ΣΑ Σ', 'ας σα σ'],
      ];
      const py = runPython<number[]>(
        'import sys, json, difflib\nprint(json.dumps([round(difflib.SequenceMatcher(None, a.lower(), b.lower()).ratio(), 4) for a, b in json.load(sys.stdin)]))',
        pairs,
      );
      expect(pairs.map(([a, b]) => sim(a as string, b as string))).toEqual(py);
    },
  );
});
