/**
 * CL lines of the default suite after the full read s7 on branch cl10 (issue 36, E95). The
 * blind pre-read 12 rejected school-fair L5 ("The fair has a bouncy castle."): across the seed's five
 * levels CL "just recombines the same 'The fair has {games/food stalls/bouncy castle}' pieces", and
 * elsewhere "the padding sits in one of two fixed spots" with stock items reused across levels
 * (apple-pies "Granny Smith" at L1 and L4). Each kind a pattern can catch is scanned over every line.
 */
import { describe, expect, it } from 'vitest';
import { ORIGINAL_QUESTIONS, type WrittenTest, writtenTests } from './test-support/lines.js';

const cl = writtenTests('cl.jsonl');

/** Sentences, "Ms. Ortiz" kept whole. */
const sentencesOf = (text: string) => text.split(/(?<!\bM[rs]s?\.)(?<=[a-z0-9][.!?])\s+/);

const addedOf = (l: WrittenTest) => {
  const original = ORIGINAL_QUESTIONS.get(l.seed) ?? '';
  return sentencesOf(l.text).filter((s) => !original.includes(s));
};

/** Words that carry no item of their own ("the", "is", "with", "often"): a stock piece is what is left. */
const FUNCTION_WORD = new Set(
  'a an the is are was were be been being has have had of in on at to for from by with and or as into near up out down over its that there this so but who which where while than then also all often just still already will would can could may some many most very'.split(
    ' ',
  ),
);

/**
 * The added text's pairs of content words in a row once function words are dropped, that the
 * original does not have as a pair: "bouncy castle", "basket gift" ("The basket is a gift"),
 * "hall hosting" ("The hall is hosting a play").
 */
function stockPieces(l: WrittenTest): Set<string> {
  const own = new Set((ORIGINAL_QUESTIONS.get(l.seed) ?? '').toLowerCase().match(/[a-z'-]+/g) ?? []);
  return new Set(
    addedOf(l).flatMap((s) => {
      const words = (s.toLowerCase().match(/[a-z'-]+/g) ?? []).filter((w) => !FUNCTION_WORD.has(w));
      return words.slice(1).flatMap((w, k) => {
        const prev = words[k] ?? '';
        return own.has(prev) && own.has(w) ? [] : [`${prev} ${w}`];
      });
    }),
  );
}

describe('CL filler (full read s7, cl10): each level written for its text, not slot-filled', () => {
  it('reuses no stock piece of one level at another level of the same seed ("food stalls" at L1, L3 and L4)', () => {
    const firstSeen = new Map<string, number>();
    const reused = cl.flatMap((l) =>
      [...stockPieces(l)].flatMap((piece) => {
        const key = `${l.seed}|${piece}`;
        const level = firstSeen.get(key);
        if (level === undefined) firstSeen.set(key, l.level);
        return level !== undefined && level !== l.level
          ? [`${l.seed} L${level}+L${l.level}: "${piece}"`]
          : [];
      }),
    );
    expect(reused).toEqual([]);
  });

  it('adds no clipped "The <noun> has a <noun>." item of 5 words or fewer ("The fair has a bouncy castle.", "The room is a kitchen.")', () => {
    const CLIPPED = /^The [\w'-]+ (?:has|have|is|are) (?:an? )?[\w' -]+\.$/;
    const clipped = cl.flatMap((l) =>
      addedOf(l)
        .filter((s) => CLIPPED.test(s) && s.split(/\s+/).length <= 5)
        .map((s) => `${l.seed} L${l.level}: ${s}`),
    );
    expect(clipped).toEqual([]);
  });
});

describe('CL filler (full read s7, cl10): not always in the same two spots', () => {
  /** Where a line's additions sit: before the problem, among its givens, or right before the question. */
  function spots(l: WrittenTest): Set<'before' | 'among' | 'question'> {
    const original = ORIGINAL_QUESTIONS.get(l.seed) ?? '';
    const ss = sentencesOf(l.text);
    const kept = ss.map((s) => original.includes(s));
    const firstKept = kept.indexOf(true);
    const lastKept = kept.lastIndexOf(true);
    const at = new Set<'before' | 'among' | 'question'>();
    ss.forEach((_, k) => {
      if (kept[k]) return;
      if (k < firstKept) at.add('before');
      else if (kept.slice(k + 1, lastKept).some(Boolean)) at.add('among');
      else at.add('question');
    });
    return at;
  }

  it('puts the added material among the givens in at least 1 line of 6, so no two spots hold the level', () => {
    // The paper's CL cites mid-context loss (Liu et al., 2024): material between the givens is part of the load.
    for (const level of [1, 2, 3, 4, 5]) {
      const lines = cl.filter((l) => l.level === level);
      const among = lines.filter((l) => spots(l).has('among')).length;
      expect(among, `L${level}`).toBeGreaterThanOrEqual(lines.length / 6);
    }
  });
});
