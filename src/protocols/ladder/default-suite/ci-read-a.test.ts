/**
 * CI lines of the default suite against the full read s7 (issue 36, decision E84-ci9a): the kinds of
 * defect the blind reads v5-v11 named that a pattern can find. A place is introduced with its anchor
 * ("A grocery store in town" or "A grocery store nearby" is a slot fill with no tie to the problem),
 * no two distractors in a row share one frame ("A food truck at the park sells ... A poster stall at
 * the park sells ..."), and a distractor kept up a seed's ladder keeps its wording ("Rosa's card
 * binder has 50 pages" at L1, "Rosa's card album has 40 pages" at L2). Scoped to the first 24 seeds
 * (ci.jsonl lines 1-120), the half this read covered; the other half was read on its own branch.
 */
import { describe, expect, it } from 'vitest';
import { GRADE_SCHOOL_SEEDS } from '../data/grade-school.js';
import { type WrittenTest, writtenTests } from './test-support/lines.js';

const ORIGINAL = new Map(GRADE_SCHOOL_SEEDS.map((s) => [s.id, s.question]));
const READ = new Set(GRADE_SCHOOL_SEEDS.slice(0, 24).map((s) => s.id));
const CI = writtenTests('ci.jsonl').filter((l) => READ.has(l.seed));

const at = (l: WrittenTest) => `${l.seed} L${l.level}`;

/** The sentences a line adds to its original (the distractors), in the order they stand. */
function added(l: WrittenTest): string[] {
  const original = ORIGINAL.get(l.seed) ?? '';
  return l.text.split(/(?<=[a-z0-9][.!?])\s+/).filter((s) => !original.includes(s));
}

const words = (s: string) => new Set(s.toLowerCase().match(/[\w$']+/g) ?? []);

/** Jaccard overlap of two sentences' words: 1 is the same words, 0 none shared. */
function overlap(a: string, b: string): number {
  const x = words(a);
  const y = words(b);
  const shared = [...x].filter((w) => y.has(w)).length;
  return shared / (x.size + y.size - shared);
}

describe('CI (full read s7): distractors as one scene, not slot fills', () => {
  it('anchors every place it introduces ("A grocery store in town", "A grocery store nearby")', () => {
    const SLOT = /\b(?:a|an)\s+(?:[\w-]+\s+){0,3}?(?:in town|nearby)\b/i;
    const hits = CI.flatMap((l) =>
      added(l)
        .filter((s) => SLOT.test(s))
        .map((s) => `${at(l)}: ${s}`),
    );
    expect(hits).toEqual([]);
  });

  it('puts no two distractors in a row in one frame ("A food truck at the park sells", "A poster stall at the park sells")', () => {
    const PLACE = /\b(?:at|in|near|on) the \w+\b/;
    const hits = CI.flatMap((l) => {
      const a = added(l);
      return a.slice(1).flatMap((s, i) => {
        const prev = a[i] ?? '';
        const same = PLACE.exec(s)?.[0];
        const frame =
          same !== undefined && same === PLACE.exec(prev)?.[0] && s.split(' ')[0] === prev.split(' ')[0];
        return frame ? [`${at(l)}: ${prev} / ${s}`] : [];
      });
    });
    expect(hits).toEqual([]);
  });

  it("keeps a distractor's wording up its seed's ladder (no 'card binder has 50 pages' beside 'card album has 40 pages')", () => {
    const bySeed = new Map<string, Set<string>>();
    for (const l of CI)
      for (const s of added(l)) bySeed.set(l.seed, (bySeed.get(l.seed) ?? new Set()).add(s));
    const hits = [...bySeed].flatMap(([seed, set]) => {
      const all = [...set];
      return all.flatMap((a, i) =>
        all
          .slice(i + 1)
          .filter((b) => overlap(a, b) >= 0.5)
          .map((b) => `${seed}: ${a} | ${b}`),
      );
    });
    expect(hits).toEqual([]);
  });
});
