/**
 * CL lines of the default suite against the blind read v7 (issue 36, E73): filler is natural
 * background about this problem's own people, place, objects and purpose. Each kind the reviewer
 * named is scanned over every CL line, so another draw cannot meet it.
 */
import { describe, expect, it } from 'vitest';
import { ORIGINAL_QUESTIONS, type WrittenTest, writtenTests } from './test-support/lines.js';

const cl = writtenTests('cl.jsonl');

/** The sentences a line adds, in order (those not in the original). */
function added(l: WrittenTest): string[] {
  const original = ORIGINAL_QUESTIONS.get(l.seed) ?? '';
  return l.text.split(/(?<=[a-z0-9][.!?])\s+/).filter((s) => !original.includes(s));
}

function hits(test: (s: string, l: WrittenTest) => boolean): string[] {
  return cl.flatMap((l) =>
    added(l)
      .filter((s) => test(s, l))
      .map((s) => `${l.seed} L${l.level}: ${s}`),
  );
}

describe('CL filler (blind read v7)', () => {
  it('adds no generic "X love(s) Y" sentence ("Students love museum field trips.")', () => {
    expect(hits((s) => /\blov(?:e|es|ed|ing)\b/i.test(s))).toEqual([]);
  });

  it('brings in no family the problem lacks, unless it names what the problem has ("A family loves ...")', () => {
    // "a family farm", "The group is a family" tie it to the problem; a family that acts does not.
    const ACTING =
      /\b(?:a|the) family (?:is|are|wants|plans|loves|orders|sits)\b|\b(?:by|to) (?:a|the) family\b/i;
    const dangling = hits(
      (s, l) => ACTING.test(s) && !/\bfamily\b/i.test(ORIGINAL_QUESTIONS.get(l.seed) ?? ''),
    );
    expect(dangling).toEqual([]);
  });

  it('brings in no museum the field trip never mentions', () => {
    expect(
      hits((s, l) => /\bmuseum\b/i.test(s) && !/\bmuseum\b/i.test(ORIGINAL_QUESTIONS.get(l.seed) ?? '')),
    ).toEqual([]);
  });

  it('has none of the sentences that do not fit the scene or its time', () => {
    // "Spelling grades arrived." before the test is taken; "Neighbors trust Jun with dogs."
    const OUT_OF_SCENE = /\b(?:grades arrived|orders arrived|sits uphill|trust \w+ with|hire \w+\.)/i;
    expect(hits((s) => OUT_OF_SCENE.test(s))).toEqual([]);
  });

  it('never names one person in two added sentences in a row ("Maya streams ... Maya watched ...")', () => {
    // Fillers take no pronoun (E67), so two in a row about one person read as a repeated name.
    const NOT_A_NAME =
      /^(?:A|An|The|How|What|Each|Then|On|If|Of|One|Only|For|At|This|Four|Together|Her|His|She|He|It|They|Ms)$/;
    const names = (s: string) =>
      new Set((s.match(/\b[A-Z][a-z]+/g) ?? []).filter((w) => !NOT_A_NAME.test(w)));
    const repeated = cl.filter((l) => {
      const mine = new Set(added(l));
      const all = l.text.split(/(?<=[a-z0-9][.!?])\s+/);
      return all.some((s, k) => {
        const prev = all[k - 1];
        if (k === 0 || prev === undefined || !mine.has(s) || !mine.has(prev)) return false;
        const before = names(prev);
        return [...names(s)].some((n) => before.has(n));
      });
    });
    expect(repeated.map((l) => `${l.seed} L${l.level}`)).toEqual([]);
  });
});
