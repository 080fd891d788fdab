import { describe, expect, it } from 'vitest';
import { python3Missing, runPython } from '../test-support/python3.js';
import { pyCollapseWhitespace, pyLower, pyRound, pySplit, pyStrip } from './python.js';

describe('pyRound (Python round(x, n): the exact binary value, ties to even)', () => {
  it('rounds exact ties to even, which Math.round does not', () => {
    expect(pyRound(0.03125, 4)).toBe(0.0312); // 312.5 exactly (1/32)
    expect(pyRound(0.09375, 4)).toBe(0.0938); // 937.5 exactly (3/32)
    expect(pyRound(-0.03125, 4)).toBe(-0.0312);
    expect(pyRound(0.5)).toBe(0);
    expect(pyRound(1.5)).toBe(2);
    expect(pyRound(2.5)).toBe(2);
  });

  it('rounds what the double really is, not its shortest decimal spelling', () => {
    expect(pyRound(2.675, 2)).toBe(2.67); // 2.67499999999999982236431605997495353221893310546875
    expect(pyRound(1.0005, 3)).toBe(1.0); // 1.000499999999999944932938...
    expect(pyRound(0.1216, 4)).toBe(0.1216);
    expect(pyRound(1 - 0.8784, 4)).toBe(0.1216);
  });

  it('leaves integers, zero, infinities and NaN alone', () => {
    expect(pyRound(12, 4)).toBe(12);
    expect(Object.is(pyRound(-0, 4), -0)).toBe(true);
    expect(pyRound(Number.POSITIVE_INFINITY, 4)).toBe(Number.POSITIVE_INFINITY);
    expect(pyRound(Number.NaN, 4)).toBeNaN();
  });

  it.skipIf(python3Missing)(
    python3Missing ?? 'equals CPython on every ratio 2M/T for T <= 300 and on random doubles',
    () => {
      const xs: number[] = [];
      for (let t = 1; t <= 300; t++)
        for (let m = 0; m <= t; m++) xs.push((2 * m) / (2 * t), m / t, 1 - m / t);
      let s = 12345;
      for (let i = 0; i < 5000; i++) {
        s = (s * 1103515245 + 12345) % 2147483648;
        xs.push(s / 2147483648, (s % 100000) / 1e5 + 5e-5);
      }
      const py = runPython<number[]>(
        'import sys, json\nprint(json.dumps([round(x, 4) for x in json.load(sys.stdin)]))',
        xs,
      );
      const wrong = xs.filter((x, i) => !Object.is(pyRound(x, 4), py[i]));
      expect(wrong).toEqual([]);
    },
  );
});

describe('pyLower (Python 3.11 str.lower)', () => {
  it('applies full mappings as Python does', () => {
    expect(pyLower('İstanbul')).toBe('i\u0307stanbul'); // two code points, in both languages
    expect(pyLower('ΟΔΥΣΣΕΥΣ')).toBe('οδυσσευς'); // final sigma by context
    expect(pyLower('ΑΣ.')).toBe('ας.');
    expect(pyLower('THE Quick')).toBe('the quick');
  });

  it('leaves letters that gained a lowercase after Unicode 14 (CPython 3.11) unchanged', () => {
    expect(pyLower('\ua7cb\u1c89X')).toBe('\ua7cb\u1c89x');
    expect(pyLower('A\u{10d50}B')).toBe('a\u{10d50}b');
    // text on both sides is still lowercased, sigma included
    expect(pyLower('ΑΣ\ua7cbΑΣ')).toBe('ας\ua7cbας');
  });

  it.skipIf(python3Missing)(
    python3Missing ?? 'equals the local CPython on every code point and on sigma contexts',
    () => {
      const singles: string[] = [];
      for (let cp = 0; cp < 0x110000; cp += 1) {
        if (cp >= 0xd800 && cp <= 0xdfff) continue;
        singles.push(String.fromCodePoint(cp));
      }
      const texts = [
        singles.join(''),
        'ΑΣ',
        'Σ',
        'ΑΣΑ',
        "Α'Σ",
        "ΑΣ'",
        'Α\u0301Σ',
        'ΑΣ b',
        '1Σ',
        'ΑΣ\u1c89',
        '\u1c89Σ',
      ];
      const [version, py] = runPython<[number[], string[]]>(
        'import sys, json\nprint(json.dumps([list(sys.version_info[:2]), [t.lower() for t in json.load(sys.stdin)]]))',
        texts,
      );
      // The exception table is for CPython 3.11 (Unicode 14); a newer Python knows newer letters.
      if (version[0] === 3 && version[1] === 11) expect(texts.map(pyLower)).toEqual(py);
      else expect(texts.slice(1, 9).map(pyLower)).toEqual(py.slice(1, 9));
    },
  );
});

describe('Python whitespace (str.split, re \\s, str.strip)', () => {
  it("is not JavaScript's \\s: U+001C..U+001F and U+0085 are whitespace, U+FEFF is not", () => {
    expect(pySplit(' a\u001cb\u0085c\ufeffd  ')).toEqual(['a', 'b', 'c\ufeffd']);
    expect(pyCollapseWhitespace('a \t\n b\u3000c')).toBe('a b c');
    expect(pyStrip('\u0085 x \u001f')).toBe('x');
    expect(pyStrip('..Hello world!: ', '.!?: ')).toBe('Hello world');
    expect(pySplit('')).toEqual([]);
  });
});
