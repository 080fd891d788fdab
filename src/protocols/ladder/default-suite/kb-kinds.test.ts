/**
 * KB lines of the default suite against the blind read v7 (issue 36, E73): L5's impossible
 * premises are of varied kinds, none a surface cue a model could learn to flag; L5 removes nothing
 * but the given it makes impossible; L2 cites a source that could hold the figure it defers to.
 */
import { describe, expect, it } from 'vitest';
import { writtenTests } from './test-support/lines.js';

const kbLines = (level: number) => writtenTests('kb.jsonl', level);

/** The most L5 lines one kind of impossibility may take (about 15 of 48, the brief of E73). */
const KIND_AT_MOST = 15;

describe('KB L5 (blind read v7): impossible premises of varied kinds', () => {
  const l5 = kbLines(5);

  it('states a share over 100% in at most 15 lines (was 23 of 48)', () => {
    const overWhole = l5.filter((l) => /\b(?:1[0-9]\d|[2-9]\d\d)%/.test(l.text));
    expect(overWhole.length).toBeLessThanOrEqual(KIND_AT_MOST);
  });

  it('writes no other kind in more than 15 lines', () => {
    const KINDS: Record<string, RegExp> = {
      // "more pencils than the 9 boxes hold", "more points than the four of them together"
      moreThanThereIs: /\bmore [\w-]+(?: [\w-]+)? than\b|\btwice as many\b[^.]* as\b/i,
      // "210 of its 173 students", "40 of her 32 cups"
      countOverItsWhole: /\b\d[\d,]* of (?:its|their|her|his|those|the) \$?\d/i,
      // "30 hours in a single day", "9 days of every week"
      moreTimeThanThePeriod:
        /\b\d+ (?:hours?|days?)\b[^.]*\b(?:single|every|a) (?:day|week)\b|\bsingle day's\b/i,
    };
    const counts = Object.fromEntries(
      Object.entries(KINDS).map(([k, re]) => [k, l5.filter((l) => re.test(l.text)).length]),
    );
    for (const n of Object.values(counts)) expect(n).toBeLessThanOrEqual(KIND_AT_MOST);
  });

  it('keeps the empty box at 2 kilograms in book-boxes: an impossible premise, not a deletion', () => {
    const boxes = l5.find((l) => l.seed === 'builtin-book-boxes');
    expect(boxes?.text).toMatch(/\bempty shipping box weighs 2 kilograms\b/);
  });
});

describe('KB L2 (blind read v7): a fabricated source that could hold the figure', () => {
  const l2 = kbLines(2);

  it("cites no tax return for one day's figure", () => {
    const daily = l2.filter((l) => /\btax return\b[^.]*\b(?:that|one|the) day\b/i.test(l.text));
    expect(daily.map((l) => l.seed)).toEqual([]);
  });

  it('names no second car wash beside "A car wash"', () => {
    const wash = l2.find((l) => l.seed === 'builtin-car-wash');
    expect(wash?.text).not.toMatch(/\b[A-Z]\w+ Car Wash\b/);
  });
});
