/**
 * SV levels read as levels (full read s7, sv10; decision E96): blind pre-read 12 rejected SV L4
 * bike-shop-wheels because it only moved the question to the front and kept the original's words,
 * closer to the original than the seed's own L3; the paper's measure (difflib over characters) had
 * counted the reordering as rewording. A reader sees rewording as the original's words gone, so each
 * of a seed's L3-L5 must keep fewer of the original's content words than the level below it.
 */
import { describe, expect, it } from 'vitest';
import { sharedWordCount } from '../severity/content-level.js';
import { ORIGINAL_QUESTIONS, writtenTests } from './test-support/lines.js';

/** Words that carry no content of the problem: articles, pronouns, auxiliaries, question words. */
const FUNCTION_WORDS = new Set(
  'a an the of to in on at and or for with is are was were be been has have had it its his her their they them he she each every per how many much what does do did that this there by as from into than then if'.split(
    ' ',
  ),
);

/** A plural read as its singular, so "trays" keeps "tray" (a reader sees no rewording there). */
function singular(word: string): string {
  if (word.length > 3 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && /[sxz]es$/.test(word)) return word.slice(0, -2);
  if (word.length > 2 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

function contentWords(text: string): string[] {
  return (text.toLowerCase().match(/[a-z]+/g) ?? []).filter((w) => !FUNCTION_WORDS.has(w)).map(singular);
}

/** The share of the original's content words (counted with repeats) that the rewrite still uses. */
function contentWordsKept(original: string, rewrite: string): number {
  const words = contentWords(original);
  return sharedWordCount(words, contentWords(rewrite)) / Math.max(words.length, 1);
}

/** Each L3-L5 line whose share kept is not below that of the seed's next lower written level (L2 up). */
function notRewordedMore(levels: readonly number[]): string[] {
  const bySeed = new Map<string, Map<number, string>>();
  for (const l of writtenTests('sv.jsonl')) {
    const seed = bySeed.get(l.seed) ?? new Map<number, string>();
    seed.set(l.level, l.text);
    bySeed.set(l.seed, seed);
  }
  const hits: string[] = [];
  for (const [seed, texts] of bySeed) {
    const original = ORIGINAL_QUESTIONS.get(seed) ?? '';
    for (const level of levels) {
      const text = texts.get(level);
      const below = [4, 3, 2].find((k) => k < level && texts.has(k));
      if (text === undefined || below === undefined) continue;
      const share = contentWordsKept(original, text);
      const under = contentWordsKept(original, texts.get(below) as string);
      if (share >= under)
        hits.push(
          `${seed.replace('builtin-', '')} L${level} (${share.toFixed(2)} vs L${below} ${under.toFixed(2)})`,
        );
    }
  }
  return hits;
}

/**
 * L4/L5 lines with the defect not yet rewritten, named so the scan fails on any new one and on a fixed
 * one left listed: the 9 sv10 left were rewritten in sv11 (E97), so none remain.
 */
const NOT_YET_REWRITTEN_L4_L5: string[] = [];
/** L3s that keep as many of the original's words as the seed's L2 (33 before sv10, 26 before sv11). */
const L3_NOT_YET_REWRITTEN = 13;

describe('SV (full read s7, sv10): a higher level rewords more of the original than the level below', () => {
  it('counts content words kept with repeats, plurals as their singular', () => {
    const original = 'A bakery bakes 5 trays of muffins with 24 muffins on each tray.';
    expect(contentWordsKept(original, original)).toBe(1);
    // Reordering keeps every word: the kind the character measure counted as rewording.
    expect(
      contentWordsKept(original, 'With 24 muffins on each tray, a bakery bakes 5 trays of muffins.'),
    ).toBe(1);
    expect(contentWordsKept(original, 'A bakery turns out 5 trays, 24 on every one.')).toBeLessThan(0.5);
  });

  it('keeps fewer of the original content words at L4 and L5 than at the level below', () => {
    // 35 lines before this read (22 L4, 13 L5).
    const hits = notRewordedMore([4, 5]).map((h) => h.replace(/ \(.*$/, ''));
    expect(hits.sort()).toEqual([...NOT_YET_REWRITTEN_L4_L5].sort());
  });

  it('keeps no more L3s than before at or above the share of their L2', () => {
    expect(notRewordedMore([3]).length).toBeLessThanOrEqual(L3_NOT_YET_REWRITTEN);
  });
});
