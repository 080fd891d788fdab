/**
 * CI lines of the default suite against the blind read v8 (issue 36, decision E79): the
 * distractors are connected prose about the problem's own scene, so none repeats an indefinite place
 * ("a bakery in town" three times), none is a template possessive ("A best friend of Nora's"), none
 * places a thing "down the road" with no anchor, and none adds another place of the problem's kind
 * (a repair shop beside "the shop") or a count of the thing the question counts (6 scooters beside
 * "How many wheels"). Each kind is scanned over every line, so another draw cannot meet it.
 */
import { describe, expect, it } from 'vitest';
import { ORIGINAL_QUESTIONS, type WrittenTest, writtenTests } from './test-support/lines.js';

type Line = WrittenTest;

const CI = writtenTests('ci.jsonl');

const at = (l: Line) => `${l.seed} L${l.level}`;

/** The sentences a line adds to its original (the distractors). */
function added(l: Line): string[] {
  const original = ORIGINAL_QUESTIONS.get(l.seed) ?? '';
  return l.text.split(/(?<=[.?!])\s+/).filter((s) => !original.includes(s));
}

const UNITS = /^(?:dollar|kilogram|gram|meter|kilometer|mile|liter|minute|hour|day|week|year|cup)$/i;

const PLACE =
  'bakery|shop|store|warehouse|market|stall|farm|park|station|garage|mall|gym|museum|factory|building|tower|cinema|multiplex|library|cafe|restaurant';

describe('CI (blind read v8): distractors as prose about one scene', () => {
  it('introduces each kind of place with "a/an" at most once ("a bakery in town" ... "a bakery in town")', () => {
    const INDEFINITE = new RegExp(`\\b(?:a|an) (?:[\\w'-]+ ){0,2}?(${PLACE})\\b`, 'gi');
    const hits = CI.flatMap((l) => {
      const kinds = [...l.text.matchAll(INDEFINITE)].map((m) => (m[1] ?? '').toLowerCase());
      const twice = [...new Set(kinds.filter((k, i) => kinds.indexOf(k) !== i))];
      return twice.map((k) => `${at(l)}: ${k}`);
    });
    expect(hits).toEqual([]);
  });

  it('writes no "A best friend of Nora\'s" possessive frame', () => {
    const FRAME = /\b[Aa]n? (?:[\w-]+ ){0,2}of [A-Z][a-z]+'s\b/;
    expect(CI.filter((l) => FRAME.test(l.text)).map(at)).toEqual([]);
  });

  it('places nothing "down the road" or "across town" with no anchor', () => {
    expect(CI.filter((l) => /\b(?:down the road|across town)\b/i.test(l.text)).map(at)).toEqual([]);
  });

  it('counts no more of what "How many X" asks in a distractor ("displays 2,000 stamps", "gives out 90 cans")', () => {
    const hits = CI.flatMap((l) => {
      const asked = /\bhow many (\w+?)(?:es|s)?\b/i.exec(ORIGINAL_QUESTIONS.get(l.seed) ?? '')?.[1];
      // A unit ("How many kilograms") is not a thing counted: a distractor may weigh or cost something.
      if (asked === undefined || UNITS.test(asked)) return [];
      const counted = new RegExp(`\\d[\\d,.]* (?:[\\w-]+ )?${asked}(?:es|s)?\\b`, 'i');
      return added(l)
        .filter((s) => counted.test(s))
        .map((s) => `${at(l)}: ${s}`);
    });
    expect(hits).toEqual([]);
  });

  it('adds nothing with wheels beside "How many wheels are not flat?" (scooters, bikes a repair shop fixes)', () => {
    const WHEELED = /\b(?:scooters?|bikes?|bicycles?|tricycles?|cars?|skateboards?)\b/i;
    const hits = CI.filter((l) => l.seed === 'builtin-bike-shop-wheels').flatMap((l) =>
      added(l)
        .filter((s) => WHEELED.test(s.replace(/\bbike (?:helmet|lock)\b/gi, '')))
        .map((s) => `${at(l)}: ${s}`),
    );
    expect(hits).toEqual([]);
  });
});
