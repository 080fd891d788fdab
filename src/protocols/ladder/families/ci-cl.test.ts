import { describe, expect, it } from 'vitest';
import { PyRandom } from '../../../util/random.js';
import { expansionRatio, measureSeverity } from '../severity/levels.js';
import { extractEntities } from '../text/entities.js';
import { LEVELS, type Seed } from '../types.js';
import { FAMILY_MODULES } from './index.js';
import { fitsTopic, topicOf } from './rules-common.js';

// Issue 11's bad examples: a problem counting students with no store and no money, and one with
// neither a store nor counted things.
const SEATS: Seed = {
  id: 'seats',
  question:
    'Apple High School is holding graduation in their Fine Arts Center this year which has space for 6000 people. After accounting for 950 seats for graduates and 300 seats for faculty attending, how many tickets would each graduate receive to give to their friends and family if the tickets are split equally?',
  gold: 2,
  source: 'issue-11',
};
const STUDENTS: Seed = {
  id: 'students',
  question:
    'A class has 32 students. Half of the students like to play video games and a quarter like to read. How many students like neither?',
  gold: 8,
  source: 'issue-11',
};
const FOG: Seed = {
  id: 'fog',
  question:
    'A fog bank rolls in from the ocean to cover a city. It takes 10 minutes to cover every 3 miles of the city. If the city is 42 miles across from the oceanfront to the opposite inland edge, how many minutes will it take for the fog bank to cover the whole city?',
  gold: 140,
  source: 'issue-11',
};

function added(seed: Seed, text: string): string {
  expect(text).toContain(seed.question);
  return text.replace(seed.question, ' ');
}

describe('Context Interference distractors fit the problem', () => {
  it('never counts people as things nor puts a store, a shop or a recipe where there is none', () => {
    expect(extractEntities(STUDENTS.question).objects).not.toContain('students');
    for (const seed of [SEATS, STUDENTS, FOG])
      for (const level of LEVELS)
        for (let attempt = 1; attempt <= 3; attempt++) {
          const c = FAMILY_MODULES.CI.rules(seed, level, attempt, new PyRandom(attempt * 10 + level));
          if (!c) continue;
          const extra = added(seed, c.text);
          expect(extra).not.toMatch(/\bstore\b|\bshop\b|\bchef\b|\brecipe\b|\bsold\b|\bitems\b|\bstudents\b/);
          // "A family friend is 1316 years old": everyday counts stay small.
          for (const m of extra.matchAll(/(\d+) (?:years old|houses|blocks|meters|pages|flowers|photos)/g))
            expect(Number(m[1])).toBeLessThan(100);
        }
  });

  it('keeps shop talk for problems about money', () => {
    const shop = topicOf('Toula went to the bakery and bought 3 dozen donuts at $68 per dozen.', {
      ...extractEntities('Toula went to the bakery and bought 3 dozen donuts at $68 per dozen.'),
    });
    expect(fitsTopic('Last year, the {place} sold {n} {objects} in a single week.', shop)).toBe(true);
    const fog = topicOf(FOG.question, extractEntities(FOG.question));
    expect(fitsTopic('Last year, the {place} sold {n} {objects} in a single week.', fog)).toBe(false);
    expect(fitsTopic('{person} smiled.', fog)).toBe(false);
  });
});

describe('Context Interference distractors do not repeat', () => {
  it('use each template at most once per candidate, so no two added facts contradict each other', () => {
    const DANA: Seed = {
      id: 'dana',
      question:
        'Dana can run at a rate of speed four times faster than she can walk, but she can skip at a rate of speed that is half as fast as she can run. If she can skip at 3 miles per hour, how many miles can she travel in six hours if she spends one-third of the time running and two-thirds of the time walking?',
      gold: 18,
      source: 'seeded draw',
    };
    let checked = 0;
    for (const level of [4, 5] as const)
      for (let r = 0; r < 6; r++) {
        const c = FAMILY_MODULES.CI.rules(DANA, level, 1, new PyRandom(r));
        if (!c) continue;
        checked++;
        const added = c.text
          .replace(DANA.question, ' ')
          .split(/(?<=[.?!])\s+/)
          .filter((x) => x.trim());
        // The same sentence with another number is the same template used twice.
        const shapes = added.map((x) => x.trim().replace(/\$?\d+(?:\.\d+)?/g, '#'));
        expect(new Set(shapes).size, c.text).toBe(shapes.length);
      }
    expect(checked).toBeGreaterThan(6);
  });
});

describe('Context Load padding', () => {
  it("lies in the paper's expansion band of its level, before the question, with no placeholder nouns", () => {
    for (const seed of [SEATS, STUDENTS, FOG])
      for (const level of LEVELS) {
        const c = FAMILY_MODULES.CL.rules(seed, level, 1, new PyRandom(level));
        expect(c, `${seed.id} L${level}`).toBeDefined();
        const text = c?.text as string;
        expect(text.endsWith(seed.question)).toBe(true);
        const ratio = expansionRatio(seed.question, text);
        expect(ratio).toBeGreaterThanOrEqual(1 + level / 10);
        expect(ratio).toBeLessThan(1.1 + level / 10);
        expect(measureSeverity('CL', seed.question, text).level).toBe(level);
        // "Students come in many shapes and colors", "Someone smiled" (issue 11).
        expect(added(seed, text)).not.toMatch(/\bsomeone\b|\bitems\b|shapes and colors|\bstore\b/i);
      }
  });
});
