import { describe, expect, it } from 'vitest';
import { SUITE_SCANS } from '../../suite-scans.js';
import { findQuantities, replaceQuantityAt } from '../../text/quantities.js';
import type { LadderTest } from '../../types.js';
import {
  kbL2FrameScan,
  kbL2Grammar,
  kbL3Template,
  kbL4FrameScan,
  kbL4PersonCount,
  kbL5Collateral,
  kbL5Negative,
} from './scans.js';

const kbTest = (level: number, original: string, text: string): LadderTest =>
  ({
    id: 'x',
    seedId: 's',
    family: 'KB',
    requestedLevel: level,
    measuredLevel: level,
    original,
    text,
    gold: 'unanswerable',
    gates: [],
    generator: { kind: 'rules', name: 'KB', seed: 0, attempt: 1 },
  }) as LadderTest;

describe('KB scans (issue 36, blind read v4)', () => {
  it('are listed in SUITE_SCANS, so every suite and the default suite run them', () => {
    const ids = SUITE_SCANS.map((s) => s.id);
    expect(ids).toContain('kb-l3-template');
    expect(ids).toContain('kb-l5-negative');
  });

  it('kb-l3-template: the rejected "as many ... as will be decided" and a size decided later', () => {
    const o = 'Carla sautes 30 shrimp in 12 minutes. How many shrimp per minute?';
    const vote =
      'Carla sautes 30 shrimp in as many minutes as will be decided by a vote at the end of next year. How many shrimp per minute?';
    expect(kbL3Template.check(kbTest(3, o, vote))).toMatch(/by a vote/);
    const o2 = 'The room is 360 square feet. How many tiles?';
    const plan =
      'The room is whatever area will be decided when next year’s plan is published. How many tiles?';
    expect(kbL3Template.check(kbTest(3, o2, plan))).toMatch(/plan/);
    const record =
      'On Saturday he sold as many boxes as the records to be released next spring will show. How much did he earn?';
    expect(
      kbL3Template.check(kbTest(3, 'On Saturday he sold 10 boxes. How much did he earn?', record)),
    ).toMatch(/records/);
    // A price still to be set is a real not-yet-knowable value.
    const o3 = 'The accountant charges $90. How much does Tom pay for 3 returns?';
    const fee =
      'The accountant charges a fee that will only be announced next month. How much does Tom pay for 3 returns?';
    expect(kbL3Template.check(kbTest(3, o3, fee))).toBeUndefined();
    // Another level is not L3's business.
    expect(kbL3Template.check(kbTest(2, o, vote))).toBeUndefined();
  });

  it('kb-l5-negative: a minus sign introduced ("charges -$90", "-360 square feet"), not one already there', () => {
    const o = 'The accountant charges $90. Tom has $300. How much is left?';
    expect(kbL5Negative.check(kbTest(5, o, o.replace('$90', '-$90')))).toMatch(/-\$90/);
    const o2 = 'The room is 360 square feet. How many tiles of 4 square feet?';
    expect(kbL5Negative.check(kbTest(5, o2, o2.replace('360', '-360')))).toMatch(/-360/);
    // A temperature of -5 in the original, a range "3-4", and an impossibility with no sign are clean.
    const o3 = 'At dawn it is -5 degrees. It rises 3-4 degrees an hour for 6 hours. How warm is it?';
    expect(kbL5Negative.check(kbTest(5, o3, o3.replace('6 hours', '26 hours before noon')))).toBeUndefined();
  });

  it('kb-l4-person-count: an invented person or place set against a given ("than the explorer Ida Vellmont")', () => {
    const o = 'Ida solved 14 sudoku puzzles on Monday. How many did she solve in 3 days?';
    const person =
      'Ida solved 14 more sudoku puzzles on Monday than the explorer Ida Vellmont. How many did she solve in 3 days?';
    expect(kbL4PersonCount.check(kbTest(4, o, person))).toMatch(/explorer Ida Vellmont/);
    const o2 = 'Each tray can hold 24 eggs. How many trays for 96 eggs?';
    expect(
      kbL4PersonCount.check(kbTest(4, o2, o2.replace('24 eggs', '24 more eggs than a Brenning tray'))),
    ).toMatch(/Brenning/);
    const o3 = 'There are 6 girls in the park. How many kids?';
    expect(
      kbL4PersonCount.check(
        kbTest(
          4,
          o3,
          o3.replace('6 girls in the park', '6 more girls in the park than at the Calloway Community Centre'),
        ),
      ),
    ).toMatch(/Calloway/);
    // A shop's price is public (the default suite's team-lunch L4), and so is an invented thing's property.
    const o5 = 'Sandwiches cost $4.50 and drinks cost $0.50. How much for 12?';
    expect(
      kbL4PersonCount.check(
        kbTest(4, o5, o5.replace('$0.50.', '$0.50 more than at the Quaybourne Snack Bar.')),
      ),
    ).toBeUndefined();
    const o4 = 'Maya runs 6 miles a day. How far in 5 days?';
    expect(
      kbL4PersonCount.check(
        kbTest(4, o4, o4.replace('6 miles a day', 'the length of the Harwood Trail each day')),
      ),
    ).toBeUndefined();
  });

  it('kb-l4-frame: one frame in more than a tenth of the L4 tests, whatever the names', () => {
    const o = (i: number) => `Seed ${i}: Maya runs 6 miles a day. How far in 5 days?`;
    const names = ['Harwood', 'Brennick', 'Ostrey', 'Quillby'];
    const same = names.map((n, i) =>
      kbTest(4, o(i), o(i).replace('6 miles a day', `the length of the ${n} Trail each day`)),
    );
    const varied = [...Array(30).keys()].map((i) =>
      kbTest(4, o(i + 10), o(i + 10).replace('6 miles', `some ${'z'.repeat(i + 1)} miles`)),
    );
    expect(kbL4FrameScan.checkSuite?.([...same, ...varied]).length).toBe(4);
    // Spread over 40 tests, three of a frame is under a tenth.
    expect(kbL4FrameScan.checkSuite?.([...same.slice(0, 3), ...varied, ...varied.slice(0, 7)]).length).toBe(
      0,
    );
    expect(SUITE_SCANS.map((s) => s.id)).toEqual(
      expect.arrayContaining(['kb-l4-person-count', 'kb-l4-frame']),
    );
  });
});

describe('KB L2 scans (blind read v8)', () => {
  const o =
    'A hospital has 1000 beds. Due to the outbreak, 5 patients are admitted into the hospital each day. How many beds are free?';
  it('kb-l2-grammar: "the number of patients are admitted ... given in" (gsm-28)', () => {
    const bad = o.replace(
      '5 patients are admitted into the hospital each day',
      'the number of patients are admitted into the hospital each day given in Table 16 of the 2017 Everleigh Institute report on patients',
    );
    expect(kbL2Grammar.check(kbTest(2, o, bad))).toMatch(/patients are admitted/);
    expect(
      kbL2Grammar.check(
        kbTest(2, o, 'The number of girls in the park is given in a Hartwell Gazette article.'),
      ),
    ).toBeUndefined();
    expect(kbL2Grammar.check(kbTest(3, o, bad))).toBeUndefined();
  });

  it('kb-l2-frame: one citation frame in more than a fifth of the L2 tests, whatever the names and numbers', () => {
    const milk = 'John drinks 2 glasses of milk. How many calories?';
    const frame = (i: number) =>
      kbTest(
        2,
        milk,
        `John drinks the number of glasses of milk given on page ${i + 2} of the 2013 Gorsedge Research Council report on glasses. How many calories?`,
      );
    expect(kbL2FrameScan.checkSuite?.([0, 1, 2, 3].map(frame))).toHaveLength(4);
    const varied = [
      "noted in John's diary",
      "logged in John's phone app",
      'reported in a Hartwell Gazette article',
      'printed on the Dunmore label on the glass',
      "listed in the Vellmont Market's weekly flyer",
      'quoted on the Ashgrove General Store website',
    ].map((c) => kbTest(2, milk, `John drinks the number of glasses of milk ${c}. How many calories?`));
    expect(kbL2FrameScan.checkSuite?.(varied)).toHaveLength(0);
  });

  it('are listed in SUITE_SCANS', () => {
    const ids = SUITE_SCANS.map((s) => s.id);
    expect(ids).toContain('kb-l2-frame');
    expect(ids).toContain('kb-l2-grammar');
  });
});

describe('KB L5 changes one given (blind read v9, gsm-symbolic-72)', () => {
  const original =
    'Mike was a pen pal with 5 people.  He stopped being penpals with 2 of them.  They each send 2 letters a week that are 5 pages long.';

  it('flags an edit that changed every 2, and passes one that changed the given alone', () => {
    const both = original.replace(/\b2\b/g, '8');
    const one = original.replace('penpals with 2', 'penpals with 8');
    expect(kbL5Collateral.check(kbTest(5, original, both))).toMatch(/2 of the original's numbers changed/);
    expect(kbL5Collateral.check(kbTest(5, original, one))).toBeUndefined();
    expect(SUITE_SCANS).toContain(kbL5Collateral);
  });

  it('replaces a quantity where it stands, not its other occurrences', () => {
    const twos = findQuantities(original).filter((q) => q.text === '2');
    expect(twos).toHaveLength(2);
    expect(replaceQuantityAt(original, twos[0] as (typeof twos)[0], '8')).toBe(
      original.replace('penpals with 2', 'penpals with 8'),
    );
  });
});
