/**
 * IQ and F lines of the default suite against the full line-by-line read s7 (issue 36, E89).
 * Each defect kind the read found is scanned over every line, so another blind draw cannot meet it:
 * an IQ slip on a unit, number word or counted noun ("pe rhour", "an dtwice", "Four friencls") or a
 * name slipped into another name ("Lila" -> "Lia"); an F L5 fence with a word alone on a line
 * ("Ms." cut from "Ortiz") or that breaks a sentence mid-line only once; an F L4 whose question
 * is nested under a premise instead of standing as its own item; one F layout on all 48 lines of L1
 * or of L2 (a template blind reads v5 and v10 named).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readsBack } from '../families/iq/rules.js';
import { GIVEN_NAMES } from '../text/given-names.js';
import { whitespaceWords } from '../text/tokens.js';
import type { Level } from '../types.js';
import { writtenTests as lines, ORIGINAL_QUESTIONS } from './test-support/lines.js';

const question = (seed: string) => ORIGINAL_QUESTIONS.get(seed) as string;
const iq = lines('iq.jsonl');

/** Given names the read met as slips that text/given-names.ts does not list. */
const OTHER_NAMES = new Set(['Lia', 'Mayya', 'Keijo']);

describe('IQ: every slip reads back, and the noise rises with the level (read s7)', () => {
  it('touches no number, number word, unit or counted noun, and each slip is one the level allows', () => {
    // readsBack is the rules' own check (docs/ladder-families.md#iq-readback): the same criteria.
    const bad = iq
      .map((l) => ({ l, why: readsBack(question(l.seed), l.text, l.level as Level) }))
      .filter(({ why }) => why !== undefined)
      .map(({ l, why }) => `${l.seed} L${l.level}: ${why}`);
    expect(bad).toEqual([]);
  });

  it('slips no capitalised word into a given name ("Lila" -> "Lia", "Keiko" -> "Keijo")', () => {
    const bad = iq.flatMap((l) => {
      const o = whitespaceWords(question(l.seed));
      const c = whitespaceWords(l.text);
      return o
        .map((w, i) => [w, c[i] ?? ''] as const)
        .filter(([a, b]) => a !== b && /^[A-Z]/.test(a))
        .map(([, b]) => b.replace(/[^A-Za-z]/g, ''))
        .filter((b) => GIVEN_NAMES.has(b) || OTHER_NAMES.has(b))
        .map((b) => `${l.seed} L${l.level}: ${b}`);
    });
    expect(bad).toEqual([]);
  });

  it('alters more words at each level of a seed than at the level below', () => {
    const altered = (l: (typeof iq)[number]) => {
      const o = whitespaceWords(question(l.seed));
      return whitespaceWords(l.text).filter((w, i) => w !== o[i]).length;
    };
    const flat = iq.filter((l) => {
      const below = iq.filter((b) => b.seed === l.seed && b.level < l.level);
      return below.some((b) => altered(b) >= altered(l));
    });
    expect(flat.map((l) => `${l.seed} L${l.level}`)).toEqual([]);
  });

  it('says the word count a left-out cell is reasoned from as the scale counts it', () => {
    const omitted = readOmitted('iq.jsonl');
    const wrong = omitted.filter((o) => {
      const said = /\ba (\d+)-word problem\b/.exec(o.omitted)?.[1];
      return said !== undefined && Number(said) !== whitespaceWords(question(o.seed)).length;
    });
    expect(wrong.map((o) => `${o.seed} L${o.level}`)).toEqual([]);
  });
});

describe('F: a heavy L5 fence and an L4 of whole items (read s7)', () => {
  const f = lines('f.jsonl');
  const fenced = (text: string) => text.match(/^```\n([\s\S]*?)\n```$/m)?.[1]?.split('\n') ?? [];

  it('leaves no word alone on a line of a fence ("Ms." cut from "Ortiz", "left?")', () => {
    const alone = f.filter((l) =>
      fenced(l.text).some((x) => x.trim() !== '' && x.trim().split(/\s+/).length === 1),
    );
    expect(alone.map((l) => `${l.seed} L${l.level}`)).toEqual([]);
  });

  it('breaks sentences mid-line at least twice in every L5 fence (one break is a weak L5, blind read v5)', () => {
    const midBreaks = (text: string) => {
      const body = fenced(text);
      return body.filter((x, i) => x !== '' && (body[i + 1] ?? '') !== '' && !/[.?!]$/.test(x)).length;
    };
    const weak = f.filter((l) => l.level === 5 && midBreaks(l.text) < 2);
    expect(weak.map((l) => l.seed)).toEqual([]);
  });

  it('varies L1 and L2 among their layouts, no one layout on every line (blind reads v5, v10)', () => {
    const L1 = { apart: /\n\n/ };
    const L2 = { bold: /\*\*/, rule: /^---$/m, quote: /^> /m, bullets: /^- /m };
    const most = (level: number, kinds: Record<string, RegExp>) => {
      const at = f.filter((l) => l.level === level);
      const counts = Object.values(kinds).map((re) => at.filter((l) => re.test(l.text)).length);
      // L1's other layout is a line per sentence: what the blank-line one is not.
      return Math.max(...counts, ...(level === 1 ? [at.length - (counts[0] ?? 0)] : []));
    };
    expect(most(1, L1)).toBeLessThanOrEqual(24);
    expect(most(2, L2)).toBeLessThanOrEqual(12);
  });

  it('gives the question its own quoted item at L4, not a sub-point of a premise', () => {
    const nested = f.filter(
      (l) => l.level === 4 && !/^> - [^\n]*\?(?:\*\*)?$/.test(l.text.split('\n').at(-1) ?? ''),
    );
    expect(nested.map((l) => l.seed)).toEqual([]);
  });
});

/** The cells of a family file left out, with their reason. */
function readOmitted(file: string): { seed: string; level: number; omitted: string }[] {
  return readFileSync(new URL(`./${file}`, import.meta.url), 'utf8')
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as { seed: string; level: number; omitted?: string })
    .filter((l): l is { seed: string; level: number; omitted: string } => l.omitted !== undefined);
}
