/**
 * KB lines of the default suite against the blind read v5 (issue 36): L2 cites its fabricated
 * evidence in more than one frame, L5 states its impossible premise in place, L1 blurs in words a
 * person would write. Each is scanned over every line of the level, so another draw cannot meet it.
 */
import { describe, expect, it } from 'vitest';
import { writtenTests } from './test-support/lines.js';

const kbLines = (level: number) => writtenTests('kb.jsonl', level);

const AT_MOST = 5;

describe("KB L2: fabricated evidence cited as the problem's world would cite it", () => {
  const l2 = kbLines(2);

  it('uses the "<Name> 2018 <log/report>" frame at most 5 times', () => {
    // "the Greywell Orchard 2018 harvest log": a capitalised name, then a year, then the document.
    const named = l2.filter((l) => /\b[A-Z][\w']*(?:'s)? (?:19|20)\d\d [a-z]/.test(l.text));
    expect(named.map((l) => l.seed).length).toBeLessThanOrEqual(AT_MOST);
  });

  it('cites no one kind of document in more than 5 lines', () => {
    const KINDS = [
      'report',
      'study',
      'survey',
      'catalogue',
      'letter',
      'advert',
      'record',
      'filing',
      'register',
      'log',
      'website',
      'newspaper',
      'official',
    ];
    const over = KINDS.map((k) => ({
      k,
      n: l2.filter((l) => new RegExp(`\\b${k}s?\\b`, 'i').test(l.text)).length,
    })).filter(({ n }) => n > AT_MOST);
    expect(over).toEqual([]);
  });

  it('names the orchard it cites, not "an orchard ... its pie batch"', () => {
    const pies = l2.find((l) => l.seed === 'builtin-apple-pies');
    expect(pies?.text).not.toMatch(/\ban orchard\b.*\bits\b/);
  });
});

describe('KB L5: an impossible premise in place, never a contradiction spliced on', () => {
  const l5 = kbLines(5);

  it('splices no contradicting clause onto a premise (", though ...", "but ... no ... at all")', () => {
    const SPLICE =
      /, (?:though|although|yet)\b|\bbut\b[^.]*\bno\b[^.]*\bat all\b|, which is more than\b|\bafter spending all\b|\bthat fits in one day\b|\bno money left\b|\bcut down\b/i;
    expect(l5.filter((l) => SPLICE.test(l.text)).map((l) => l.seed)).toEqual([]);
  });

  it('never makes a count of people, items or capacity 0 ("her 0 students", "boxes of 0")', () => {
    const ZERO = /\b(?:her|of|carry|make|with|has|who has|covers) \$?0\b(?!\.\d)/;
    expect(l5.filter((l) => ZERO.test(l.text)).map((l) => l.seed)).toEqual([]);
  });

  it('is not one template: a share over 100% in at most half the lines, the rest other kinds', () => {
    const overWhole = l5.filter((l) => /\b(?:1[0-9]\d|[2-9]\d\d)%/.test(l.text));
    expect(overWhole.length).toBeLessThanOrEqual(l5.length / 2);
  });
});

describe('KB L1: a vague phrase a person would write', () => {
  it('writes no "weighs something"-style placeholder', () => {
    const CLUMSY = /\b(?:weighs|costs|holds|measures|is) something\b/;
    expect(
      kbLines(1)
        .filter((l) => CLUMSY.test(l.text))
        .map((l) => l.seed),
    ).toEqual([]);
  });
});
