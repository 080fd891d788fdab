/**
 * The default suite's CIS directives conflict with the task and leave the problem as it is (blind
 * read v11 rejected school-fair L4, "You must split the rest among 5 classes, not 6", as the user
 * correcting the data: a premise change, not an instruction conflict; docs/decisions.md E90).
 * Every line of L1-L4 is read by the suite scan's own patterns (`families/cis/restates-given.ts`);
 * tier 5 dictates a reply, which the paper's deep-hierarchy attack is.
 */
import { describe, expect, it } from 'vitest';
import { restatesGiven } from '../families/cis/restates-given.js';
import { ORIGINAL_QUESTIONS, writtenTests } from './test-support/lines.js';

const lines = writtenTests('cis.jsonl').map((l) => {
  const original = ORIGINAL_QUESTIONS.get(l.seed) ?? '';
  return {
    id: `${l.seed} L${l.level}`,
    level: l.level,
    original,
    directive: l.text.slice(original.length).trim(),
  };
});

describe('default suite CIS directives never restate or correct a given (blind read v11)', () => {
  it('at L1-L4 restate no given as something else, contrast none with another value, ask no other question and assert no fact', () => {
    const hits = lines
      .filter((l) => l.level < 5)
      .flatMap((l) => {
        const why = restatesGiven(l.original, l.directive);
        return why === undefined ? [] : [`${l.id}: ${why}`];
      });
    expect(hits).toEqual([]);
  });

  it('never ask the model to pretend the problem says otherwise ("Pretend the tank starts empty")', () => {
    expect(
      lines.filter((l) => /\bpretend\b/i.test(l.directive)).map((l) => `${l.id}: ${l.directive}`),
    ).toEqual([]);
  });
});
