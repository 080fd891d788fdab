/**
 * CI lines of the default suite against the full line-by-line read s7 (issue 36, decision
 * E84-ci9b), the kinds a pattern can catch: a distractor before the problem that already names
 * the thing the original then introduces with "a" ("A weekly spelling test ... has 20 words. Four
 * friends take a spelling test.": blind read v11, the article clash of a pasted sentence); a shop
 * or store named with "the" that nothing introduced ("at the kitchen shop", "at the corner shop");
 * and a distractor reworded up the ladder ("The raffle draw is at 7 o'clock" at L1, "at 6 o'clock"
 * above it). Each is scanned over every line, so another draw cannot meet it.
 */
import { describe, expect, it } from 'vitest';
import { GRADE_SCHOOL_SEEDS } from '../data/grade-school.js';
import { type WrittenTest, writtenTests } from './test-support/lines.js';

const ORIGINAL = new Map(GRADE_SCHOOL_SEEDS.map((s) => [s.id, s.question]));

// The lines this read covered: the last 24 seeds in file order (builtin-apple-pies on). The first 24
// are read on another branch at the same time (E84-ci9b); the scans widen to every line when both land.
const READ = new Set(GRADE_SCHOOL_SEEDS.slice(24).map((s) => s.id));

const CI = writtenTests('ci.jsonl').filter((l) => READ.has(l.seed));

const at = (l: WrittenTest) => `${l.seed} L${l.level}`;

const sentences = (text: string) => text.split(/(?<=[a-z0-9][.!?])\s+/);

/** The sentences a line adds to its original (the distractors). */
function added(l: WrittenTest): string[] {
  const original = ORIGINAL.get(l.seed) ?? '';
  return sentences(l.text).filter((s) => !original.includes(s));
}

/** What a line adds before the original's first sentence. */
function before(l: WrittenTest): string {
  const first = sentences(ORIGINAL.get(l.seed) ?? '')[0] ?? '';
  return l.text.slice(0, Math.max(0, l.text.indexOf(first)));
}

describe('CI (full read s7): distractors that read as written with the problem, not pasted in', () => {
  it('names before the problem no compound the original introduces with "a" ("Each spelling test" ... "take a spelling test")', () => {
    const hits = CI.flatMap((l) => {
      const original = ORIGINAL.get(l.seed) ?? '';
      // Two lowercase words after the original's "a/an": a compound noun ("spelling test", "food drive").
      const compounds = [...original.matchAll(/\b(?:a|an) ([a-z]+ [a-z]+)\b/gi)].map((m) => m[1] ?? '');
      const lead = before(l).toLowerCase();
      return compounds.filter((c) => lead.includes(c.toLowerCase())).map((c) => `${at(l)}: ${c}`);
    });
    expect(hits).toEqual([]);
  });

  it('says "the <kind> shop/store" only after a/an has introduced that shop or store', () => {
    const THE_SHOP = /\bthe ((?:[a-z]+ )?(shop|store))\b/g;
    const hits = CI.flatMap((l) =>
      [...l.text.matchAll(THE_SHOP)]
        .filter((m) => !/^same\b/.test(m[1] ?? ''))
        .filter((m) => {
          const earlier = l.text.slice(0, m.index);
          const kind = (m[1] ?? '').split(' ');
          const head = kind.at(-1) ?? '';
          const modifier = kind.length > 1 ? `${kind[0]} ` : '(?:[a-z]+ )?';
          // Introduced with a/an, or named by its own proper name ("the Main Street shop").
          const introduced = new RegExp(`\\b[Aa]n? ${modifier}${head}\\b|\\bthe (?:[A-Z][a-z]+ )+${head}\\b`);
          return !introduced.test(earlier);
        })
        .map((m) => `${at(l)}: the ${m[1]}`),
    );
    expect(hits).toEqual([]);
  });

  it('keeps a distractor in its lower-level wording up the ladder (no "at 7 o\'clock" at L1 and "at 6" above it)', () => {
    // The first four words name the fact ("The raffle draw is"); the rest may not change with the level.
    const opening = (s: string) => s.split(/\s+/).slice(0, 4).join(' ').toLowerCase();
    const hits = CI.flatMap((l) => {
      const lower = CI.filter((o) => o.seed === l.seed && o.level < l.level).flatMap(added);
      return added(l)
        .filter((s) => lower.some((o) => opening(o) === opening(s) && o !== s))
        .map((s) => `${at(l)}: ${s}`);
    });
    expect([...new Set(hits)]).toEqual([]);
  });
});
