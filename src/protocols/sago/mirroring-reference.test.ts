import { describe, expect, it } from 'vitest';
import { python3Missing, runPython } from '../../test-support/python3.js';
import { detectMirroring } from './mirroring.js';
import {
  countAbnormalCase,
  countExtraPunctuation,
  countExtraSpaces,
  isAbnormalCaseWord,
  pyIsLower,
  pyIsUpper,
  pyWords,
  referenceMirroring,
} from './mirroring-reference.js';
import type { Variation } from './variations/types.js';

describe("the SAGO authors' noise mirroring rules", () => {
  it('counts extra spaces, repeated marks and abnormally cased letters as published', () => {
    expect(countExtraSpaces('The   capital is  Paris.')).toBe(3);
    expect(countExtraSpaces('tab\t\tis not a space')).toBe(0);
    // "!!!" and "???" add 2 each, "...." adds 1 (an ellipsis is normal), ",," and ";;" 1 each.
    expect(countExtraPunctuation('Hello!!! Really??? Wow.... so,, yes;; ok...')).toBe(7);
    expect(isAbnormalCaseWord('HELLO')).toBe(true); // all capitals, more than four letters
    expect(isAbnormalCaseWord('NASA')).toBe(false); // a short acronym
    expect(isAbnormalCaseWord('Paris')).toBe(false);
    expect(isAbnormalCaseWord('hEllo')).toBe(true);
    expect(isAbnormalCaseWord('iPhone')).toBe(true);
    expect(isAbnormalCaseWord('A1')).toBe(false); // one letter
    expect(countAbnormalCase('HELLO world')).toEqual({ abnormal: 5, letters: 10 });
  });

  it('fires when both the count and the rate per 100 characters reach the strength band', () => {
    const original = 'The capital is Paris.';
    const spaced = 'The   capital   is   Paris.'; // 6 extra spaces over 27 characters: 22.2 per 100
    expect(referenceMirroring('spacing', original, spaced, 50).mirrored).toBe(true); // needs 5 and 8
    expect(referenceMirroring('spacing', original, spaced, 100).mirrored).toBe(false); // needs 10 and 12
    expect(referenceMirroring('spacing', spaced, spaced, 20).mirrored).toBe(false); // no increase
    // Casing: +5 points and 8% / 15% / 25% by band.
    const shouting = 'PARIS IS THE CAPITAL of france'; // PARIS, CAPITAL abnormal: 12 of 25 letters = 48%
    expect(referenceMirroring('casing', original, shouting, 50).mirrored).toBe(true);
    expect(referenceMirroring('casing', original, 'PARIS is the capital of france', 100).mirrored).toBe(
      false,
    ); // 20% < 25%
    expect(referenceMirroring('punctuation', original, 'Paris!!! Paris!!!', 3).mirrored).toBe(true); // 4 >= 2, 23.5 >= 3
    expect(referenceMirroring('punctuation', original, 'Paris!!! Paris!!!', 20).mirrored).toBe(false); // 4 < 6
  });

  it('is what detectMirroring uses by default; the density rules stay available', () => {
    const v = {
      family: 'noise',
      subtype: 'spacing',
      strength: 20,
      position: 'global',
      text: 'What   is  fog?',
      generator: 'rules',
    } as Variation;
    const base = 'Fog is a cloud at ground level.';
    const reply = 'Fog  is  a  cloud  at ground level.';
    expect(detectMirroring(reply, v, { baselineResponse: base }).mirrored).toBe(true);
    expect(detectMirroring(base, v, { baselineResponse: base }).mirrored).toBe(false);
    expect(detectMirroring(reply, v, { baselineResponse: base, rules: 'density' }).evidence).toMatch(
      /^spacing: response/,
    );
  });

  const withPython = python3Missing ? it.skip : it;
  withPython(
    `str.isupper, str.islower and re.findall(r'\\b\\w+\\b') agree with CPython ${python3Missing ?? ''}`,
    () => {
      const samples = [
        'HELLO',
        'Hello',
        'hello',
        'A1',
        '1A',
        'ǅungla',
        'ǅ',
        'ß',
        'ΣΑΣ',
        'Σας',
        'ⅷ',
        'Ⅷ',
        '²',
        'ａＢ',
        'ÉCOLE',
        'iPhone',
        "don't",
        'e.g.',
        'naïve',
        'ŉ',
        '123',
        '',
        '_x_',
        'Straße',
        'ǈa',
      ];
      const text = 'Über   ǅungla  e.g. co-op ½ x² naïve _snake_case ΣΑΣ 東京 ａＢ';
      const py = runPython<{ upper: boolean[]; lower: boolean[]; words: string[] }>(
        `import json, re, sys
d = json.load(sys.stdin)
json.dump({'upper': [s.isupper() for s in d['samples']], 'lower': [s.islower() for s in d['samples']],
           'words': re.findall(r'\\b\\w+\\b', d['text'])}, sys.stdout)`,
        { samples, text },
      );
      expect(samples.map(pyIsUpper)).toEqual(py.upper);
      expect(samples.map(pyIsLower)).toEqual(py.lower);
      expect(pyWords(text)).toEqual(py.words);
    },
  );
});
