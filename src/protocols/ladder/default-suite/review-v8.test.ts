/**
 * SV, CIS and KB lines of the default suite against the blind read v8 (issue 36, E80). Each
 * defect kind the reviewer named is scanned over every line of its level, so another draw cannot
 * meet it: KB L2 cites fabricated evidence about the problem's own entities (a new proper name is
 * L4's fabricated entity), no frame fills more than ~10% of a level.
 */
import { describe, expect, it } from 'vitest';
import { writtenTests as lines } from './test-support/lines.js';

/** Capitalised words not opening a sentence: the names a text uses. */
function names(text: string): string[] {
  return [...text.matchAll(/(?<![.?!:]\s|^)\b[A-Z][a-z]+/g)].map((m) => m[0]);
}

const TEN_PERCENT = 5;

describe('KB L2: fabricated evidence about the problem, no invented named entity (review v8)', () => {
  const l2 = lines('kb.jsonl', 2);
  // F L1 keeps the original's words exactly, so its names are the problem's own.
  const original = new Map(lines('f.jsonl', 1).map((l) => [l.seed, l.text]));

  it('names no one the original problem does not name', () => {
    const invented = l2.flatMap((l) =>
      names(l.text)
        .filter((n) => !(original.get(l.seed) ?? '').includes(n))
        .map((n) => `${l.seed}: ${n}`),
    );
    expect(invented).toEqual([]);
  });

  it('uses the "as many X as <source> says" frame in at most 10% of lines', () => {
    const frame = l2.filter((l) => /\bas many\b[^.?]*\bas (?:the|a|an|his|her|its)\b/.test(l.text));
    expect(frame.map((l) => l.seed).length).toBeLessThanOrEqual(TEN_PERCENT);
  });

  it('leaves no "it" that could mean the source or the subject ("as a newspaper said it picked")', () => {
    expect(l2.filter((l) => /\bsaid it\b/.test(l.text)).map((l) => l.seed)).toEqual([]);
  });
});

describe('CIS directives: no template slot-fill (review v8)', () => {
  const directive = (text: string) => text.slice(text.lastIndexOf('?') + 1);
  const all = [1, 2, 3, 4, 5].flatMap((level) => lines('cis.jsonl', level));

  it('quotes no span of the problem like "the 2 more hours" in a directive', () => {
    const quoted = all.filter((l) => /\bthe 2 more hours\b/.test(directive(l.text)));
    expect(quoted.map((l) => `${l.seed} L${l.level}`)).toEqual([]);
  });

  it('opens at most ~10% of L2 with "<Op> instead of <op>ing for the ..."', () => {
    const frame = /^\s*(?:Add|Subtract|Multiply|Divide|Use \w+) instead of \w+ for the\b/;
    const hits = lines('cis.jsonl', 2).filter((l) => frame.test(directive(l.text)));
    expect(hits.map((l) => l.seed).length).toBeLessThanOrEqual(TEN_PERCENT);
  });
});

describe('SV L4-L5: idiomatic words, no thesaurus swap (review v8)', () => {
  // "It manages 45 each 15 minutes", "playthings", "biscuits" for cookies, "picture house" for cinema.
  const SWAP = /\bplaythings\b|\bbiscuits\b|\bpicture house\b|\beach \d+ minutes\b/i;
  it('uses none of the swaps the read found', () => {
    const bad = [4, 5].flatMap((level) => lines('sv.jsonl', level)).filter((l) => SWAP.test(l.text));
    expect(bad.map((l) => `${l.seed} L${l.level}`)).toEqual([]);
  });
});
