/**
 * Context Load's defect scans (issue 36; blind review 2026-12-04 round 5: "Pebbles glow.", three
 * sentences in a row opening with "Jun"). Padding a strict reviewer rejects as template filler,
 * not as the on-topic background the paper's CL adds (docs/ladder-suite.md#scans, decision
 * E67).
 */
import type { Scan } from '../../scan-types.js';
import {
  hideAbbreviationDots,
  showAbbreviationDots,
  splitSentences,
  whitespaceWords,
} from '../../text/tokens.js';
import type { LadderTest } from '../../types.js';
import { CL_EXPANSION_BANDS } from './bands.js';

/** The test's sentences ("Ms. Ortiz" kept whole), each marked whether it is one of the original's. */
function sentencesOf(t: LadderTest): { text: string; added: boolean }[] {
  const split = (s: string) => splitSentences(hideAbbreviationDots(s)).map(showAbbreviationDots);
  const own = new Set(split(t.original));
  return split(t.text).map((s) => ({ text: s, added: !own.has(s) }));
}

/** The most words the level's expansion band lets a test add to its original. */
function roomAt(t: LadderTest): number {
  const top = CL_EXPANSION_BANDS[(t.measuredLevel ?? t.requestedLevel) - 1]?.[1];
  const n = whitespaceWords(t.original).length;
  // The epsilon keeps 1.1 * 30 = 33.000000000000004 from counting as 34.
  return typeof top === 'number' ? Math.ceil(top * n - 1e-9) - 1 - n : Number.POSITIVE_INFINITY;
}

/** A sentence of this many words or fewer reads as a bare scene fragment ("Pebbles glow.", "A rooster crows."). */
const FRAGMENT_WORDS = 4;

/**
 * An added sentence of 4 words or fewer, unless it is the test's only addition and its band leaves
 * no room for 5 words (a 19-word problem at L1 may add 3: "Spelling grades arrived.").
 */
const clFragment: Scan = {
  id: 'cl-fragment',
  title: 'CL: padding in bare fragments of 4 words or fewer ("Pebbles glow.", "A rooster crows.")',
  check(t) {
    if (t.family !== 'CL') return undefined;
    const added = sentencesOf(t).filter((s) => s.added);
    const short = added.find((s) => whitespaceWords(s.text).length <= FRAGMENT_WORDS);
    if (!short) return undefined;
    return added.length === 1 && roomAt(t) <= FRAGMENT_WORDS ? undefined : `"${short.text}"`;
  },
};

/** Openers a run of sentences may share in ordinary prose. */
const ARTICLE = /^(?:the|a|an)$/i;

/** The word a sentence opens with, a possessive's "'s" dropped ("Jun's" opens like "Jun"). */
const opener = (s: string) => (whitespaceWords(s)[0] ?? '').replace(/['’]s$/, '');

/** 3 sentences or more in a row, one of them added, that open with the same word (not an article). */
const clSameOpener: Scan = {
  id: 'cl-same-opener',
  title: 'CL: 3 sentences in a row opening with the same word ("Jun likes ... Jun keeps ... Jun wants ...")',
  check(t) {
    if (t.family !== 'CL') return undefined;
    const ss = sentencesOf(t);
    for (let i = 0; i + 2 < ss.length; i++) {
      const run = ss.slice(i, i + 3);
      const word = opener(run[0]?.text ?? '');
      if (ARTICLE.test(word) || !run.some((s) => s.added)) continue;
      if (run.every((s) => opener(s.text) === word)) return `3 sentences open with "${word}"`;
    }
    return undefined;
  },
};

export const CL_SCANS: readonly Scan[] = [clFragment, clSameOpener];
