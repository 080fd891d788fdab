/**
 * SV lines of the default suite against the full line-by-line read of 2026-12-04 (s7; decision
 * E91): the defect kinds that read found and a pattern can catch, scanned over every line so a
 * fresh blind draw cannot meet them. A paraphrase keeps what the problem says: no thesaurus swap that
 * widens or narrows a noun ("locomotive" for train, "coat" for jacket, "cattle" for cows), no scene
 * the problem lacks ("piggy bank", "garden hose", "latecomers"), no stilted inversion ("Growing in
 * one orchard are 18 pear trees") and no stiff question frame ("What sum in dollars").
 */
import { describe, expect, it } from 'vitest';
import { GRADE_SCHOOL_SEEDS } from '../data/grade-school.js';
import { writtenTests } from './test-support/lines.js';

const ORIGINAL = new Map(GRADE_SCHOOL_SEEDS.map((s) => [s.id, s.question.toLowerCase()]));
const SV = writtenTests('sv.jsonl');
const at = (l: { seed: string; level: number }) => `${l.seed} L${l.level}`;

/** Words (or phrases) the read rejected where the problem does not use them: each swaps or adds. */
const SWAPPED_OR_ADDED = [
  // a narrower or wider noun than the problem's
  'locomotive',
  'volumes',
  'titles',
  'tins?',
  'cartons?',
  'coaches',
  'household',
  'oval',
  'circuits',
  'pals',
  'sweets',
  'sacks?',
  'squad',
  'beverages?',
  'picture house',
  'cattle',
  'hens',
  'farmstead',
  'creatures?',
  'coat',
  'staff',
  'kneading',
  'two-wheelers',
  'three-wheelers',
  'playthings',
  'punctures',
  // a scene or fact the problem does not state
  'thermometer',
  'piggy bank',
  'storage tank',
  'garden hose',
  'cardboard',
  'latecomers',
  'event hall',
  'local',
  'just turned',
  'heart set on',
  'worn-out',
  'begins the week',
];

describe('SV (full read s7): a paraphrase says what the problem says, in natural English', () => {
  it('swaps no noun for a wider or narrower one and adds no scene the problem lacks', () => {
    const hits = SV.flatMap((l) => {
      const original = ORIGINAL.get(l.seed) ?? '';
      return SWAPPED_OR_ADDED.filter((w) => {
        const word = new RegExp(`\\b${w}\\b`, 'i');
        return word.test(l.text) && !word.test(original);
      }).map((w) => `${at(l)}: ${w}`);
    });
    expect(hits).toEqual([]);
  });

  it('opens no sentence with a stilted inversion ("Growing in one orchard are 18 pear trees")', () => {
    // A fronted participle or place phrase, then the verb, then the counted subject.
    const INVERSION =
      /(?:^|[.?!]\s+)(?:[A-Z][a-z]+(?:ing|ed)|Out of)\b[^,.?!;]*\b(?:are|is|were|was|come|comes|stand|stands|lies)\s+(?:\d|a |an |the )/;
    expect(SV.filter((l) => INVERSION.test(l.text)).map(at)).toEqual([]);
  });

  it('asks in no stiff frame ("What sum in dollars", "the fewest number", "What reading does evening bring?")', () => {
    const STIFF =
      /\bwhat (?:sum|span|reading|amount) (?:in|does|of)\b|\bfewest number\b|\bwhat mark results\b/i;
    expect(SV.filter((l) => STIFF.test(l.text)).map(at)).toEqual([]);
  });
});
