/**
 * KB L5 after the blind pre-read 12 (issue 36, E94): an impossible premise follows from the
 * givens only when the reader works them out (17 bicycles and 9 tricycles cannot have 70 flat
 * wheels), never one noun phrase that announces it ("40 of her 32 cups", "26 hours of a single
 * day"), which reads as a template or a typo and is easy to flag (the paper's point is the subtle one).
 */
import { describe, expect, it } from 'vitest';
import { writtenTests } from './test-support/lines.js';

const l5 = writtenTests('kb.jsonl', 5);
const n = (s: string) => Number(s.replace(/,/g, ''));
const WORD: Record<string, number> = { two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7 };
const count = (s: string) => WORD[s.toLowerCase()] ?? n(s);

/** "40 of her 32 cups", "Five of the four friends", "Of the 14 gigabytes ... 20 go over". */
function partOverWhole(text: string): boolean {
  const NUM = '(\\$?[\\d,]+|two|three|four|five|six|seven)';
  const ofThe = new RegExp(`\\b${NUM} of (?:its|their|her|his|those|the|that) ${NUM}\\b`, 'gi');
  for (const m of text.matchAll(ofThe))
    if (count((m[1] ?? '').replace('$', '')) > count((m[2] ?? '').replace('$', ''))) return true;
  const leading = /\bOf the ([\d,]+) [\w-]+[^.]*?, ([\d,]+) /g;
  for (const m of text.matchAll(leading)) if (n(m[2] ?? '') > n(m[1] ?? '')) return true;
  const outOf = /\b([\d,]+) [\w-]+ out of the ([\d,]+)\b/g;
  for (const m of text.matchAll(outOf)) if (n(m[1] ?? '') > n(m[2] ?? '')) return true;
  return /\b(\d+) students in her class of (\d+)\b/.test(text);
}

/** "26 hours of a single day", "9 days of every week", "a single day's 28 hour shift". */
function periodOverfull(text: string): boolean {
  for (const m of text.matchAll(/\b(\d+)[ -]hours?\b[^.]{0,30}?\b(?:day|dawn and noon)\b/g))
    if (n(m[1] ?? '') > 24) return true;
  for (const m of text.matchAll(/\bday's (\d+)[ -]hour\b/g)) if (n(m[1] ?? '') > 24) return true;
  for (const m of text.matchAll(/\b(\d+) days (?:of |in )?(?:a|every|each|one|a single) week\b/g))
    if (n(m[1] ?? '') > 7) return true;
  return false;
}

describe('KB L5: an impossibility the reader works out, not one phrase (pre-read 12)', () => {
  it('writes no "N of the M" with N over M (was 12 of 48)', () => {
    expect(l5.filter((l) => partOverWhole(l.text)).map((l) => l.seed)).toEqual([]);
  });

  it('makes no day over 24 hours or week over 7 days in one phrase (was 7 of 48)', () => {
    expect(l5.filter((l) => periodOverfull(l.text)).map((l) => l.seed)).toEqual([]);
  });

  it('states no share over 100% in one phrase ("130% of those muffins", "125% off"; was 7 of 48)', () => {
    const OVER_WHOLE = /\b(?:1\d\d|[2-9]\d\d)%/;
    expect(l5.filter((l) => OVER_WHOLE.test(l.text)).map((l) => l.seed)).toEqual([]);
  });

  it('gives no age that is only implausible ("Nora is 150 years old")', () => {
    const IMPLAUSIBLE_AGE = /\b(?:1[2-9]\d|[2-9]\d\d) years old\b/;
    expect(l5.filter((l) => IMPLAUSIBLE_AGE.test(l.text)).map((l) => l.seed)).toEqual([]);
  });
});

describe('KB L2: grammatical citations (pre-read 12)', () => {
  it('cites no source that "promises how many" (fruit-basket was ungrammatical)', () => {
    const l2 = writtenTests('kb.jsonl', 2);
    expect(l2.filter((l) => /\bpromises how many\b/.test(l.text)).map((l) => l.seed)).toEqual([]);
  });
});
