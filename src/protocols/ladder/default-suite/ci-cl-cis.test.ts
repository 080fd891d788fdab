/**
 * The reviewed default suite's CI, CL and CIS files (ci.jsonl, cl.jsonl, cis.jsonl) read as they
 * are shipped, without the suite's loader: what the review criteria (docs/ladder-suite.md
 * #default-suite-review) ask of every test that a reader can check mechanically.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GRADE_SCHOOL_SEEDS } from '../data/grade-school.js';
import { ladderFamily } from '../families/registry.js';
import { addedAround } from '../gates/family-gate.js';
import { structuralGate } from '../gates/structural-gate.js';
import { conflictExplicitness, splitSentences } from '../severity/ces.js';
import { measureSeverity } from '../severity/measure.js';
import { isNumberWord, numbersIn, numberValue, whitespaceWords } from '../text/tokens.js';
import type { Level } from '../types.js';

type Code = 'CI' | 'CL' | 'CIS';
interface Line {
  seed: string;
  family: string;
  level: number;
  text?: string;
  omitted?: string;
  review?: { verdict: string; by: string; criteria: string; note: string };
}

const LEVELS = [1, 2, 3, 4, 5] as const;
const SEED = new Map(GRADE_SCHOOL_SEEDS.map((s) => [s.id, s]));

function linesOf(code: Code): Line[] {
  const url = new URL(`./${code.toLowerCase()}.jsonl`, import.meta.url);
  return readFileSync(url, 'utf8')
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as Line);
}

/** The seed's question: its last sentence, kept word for word by every test. */
function questionOf(original: string): string {
  const sentences = original.match(/[^.!?]+(?:[.!?]+|$)/g) ?? [original];
  return (sentences.at(-1) ?? original).trim();
}

const written = (code: Code) =>
  linesOf(code).flatMap((l) => {
    const seed = SEED.get(l.seed);
    return l.text !== undefined && seed
      ? [{ ...l, text: l.text, seed, added: addedAround(seed.question, l.text) }]
      : [];
  });

/** Third-person pronouns a sibling could capture or copy ("she", "they", not the dummy "it"). */
const PERSON_PRONOUN = /\b(he|she|they|him|her|his|hers|them|their)\b/i;
/** A sentence that opens with a pronoun points back at something a distractor could replace. */
const OPENS_WITH_PRONOUN = /^(he|she|it|they|his|her|its|their|him|them)\b/i;

describe.each(['CI', 'CL', 'CIS'] as const)('default suite %s', (code) => {
  it('has one line per seed and level, in grade-school order then level, for its family', () => {
    const keys = linesOf(code).map((l) => `${l.family}|${l.seed}|${l.level}`);
    const expected = GRADE_SCHOOL_SEEDS.flatMap((s) => LEVELS.map((n) => `${code}|${s.id}|${n}`));
    expect(keys).toEqual(expected);
  });

  it('gives every line either a test with its review record or the reason it is left out', () => {
    for (const l of linesOf(code)) {
      if (l.omitted !== undefined) {
        expect(l.omitted.trim().length, `${l.seed} L${l.level}`).toBeGreaterThan(0);
        expect(l.text).toBeUndefined();
        continue;
      }
      expect(l.review?.verdict, `${l.seed} L${l.level}`).toBe('accepted');
      expect(l.review?.criteria).toBe('ladder-default-review/2');
      expect(l.review?.by).toMatch(/AI-assisted/);
      expect(l.review?.note).toMatch(new RegExp(`^L${l.level}: \\S`));
      expect(l.review?.note).not.toMatch(/\n/);
    }
  });

  it('keeps every sentence of the original verbatim and in order, the question last (a CIS directive after it), and no text twice', () => {
    const tests = written(code);
    for (const t of tests) {
      expect(t.added, `${t.seed.id} L${t.level}: original sentences`).not.toBeUndefined();
      expect(t.added?.length, `${t.seed.id} L${t.level}: something added`).toBeGreaterThan(0);
      const question = questionOf(t.seed.question);
      // CIS appends its directive after the whole problem, as the paper does (docs/decisions.md E65).
      if (code === 'CIS')
        expect(t.text.startsWith(`${t.seed.question} `), `${t.seed.id} L${t.level}: appended`).toBe(true);
      else expect(t.text.endsWith(question), `${t.seed.id} L${t.level}: question last`).toBe(true);
    }
    expect(new Set(tests.map((t) => t.text)).size).toBe(tests.length);
  });

  it("keeps the gold: every number of the original kept, and no added number is the seed's answer", () => {
    for (const t of written(code)) {
      expect(structuralGate(t.seed.question, t.text).verdict, `${t.seed.id} L${t.level}`).toBe('pass');
      const own = new Set(numbersIn(t.seed.question).map(numberValue));
      const fresh = numbersIn(t.added ?? '').filter((n) => !own.has(numberValue(n)));
      expect(fresh.map(Number.parseFloat), `${t.seed.id} L${t.level}`).not.toContain(t.seed.gold);
    }
  });

  it("measures at the level it was written for, by waver's severity measure, and passes the family gate", () => {
    const family = ladderFamily(code);
    for (const t of written(code)) {
      expect(measureSeverity(family, t.seed.question, t.text).level, `${t.seed.id} L${t.level}`).toBe(
        t.level,
      );
      expect(
        family.familyGate(t.seed.question, t.text, t.level as Level).verdict,
        `${t.seed.id} L${t.level}`,
      ).toBe('pass');
    }
  });
});

describe('default suite CI and CL additions', () => {
  it('open no sentence with a pronoun (a sibling never copies the original\'s "she" or "it")', () => {
    for (const code of ['CI', 'CL'] as const) {
      for (const t of written(code)) {
        for (const s of splitSentences(t.added ?? ''))
          expect(s, `${code} ${t.seed.id} L${t.level}`).not.toMatch(OPENS_WITH_PRONOUN);
      }
    }
  });

  it('put no CI distractor between a question that says "she" or "they" and the givens it points back to', () => {
    for (const t of written('CI')) {
      const question = questionOf(t.seed.question);
      if (!PERSON_PRONOUN.test(question)) continue;
      const body = t.seed.question.slice(0, t.seed.question.lastIndexOf(question)).trim();
      expect(t.text.endsWith(`${body} ${question}`), `${t.seed.id} L${t.level}`).toBe(true);
    }
  });

  it('pad CL with no digit and no number word', () => {
    for (const t of written('CL')) {
      const words = whitespaceWords(t.added ?? '');
      expect(t.added, `${t.seed.id} L${t.level}`).not.toMatch(/\d/);
      expect(words.filter(isNumberWord), `${t.seed.id} L${t.level}`).toEqual([]);
    }
  });
});

describe('default suite CIS directives', () => {
  const tests = written('CIS');
  const directive = (t: (typeof tests)[number]) =>
    conflictExplicitness(t.seed.question, t.text).added.join(' ');

  it("name one of the problem's own quantities", () => {
    for (const t of tests) {
      const own = new Set(numbersIn(t.seed.question).map(numberValue));
      expect(
        numbersIn(directive(t)).some((n) => own.has(numberValue(n))),
        `${t.seed.id} L${t.level}`,
      ).toBe(true);
    }
  });

  it('speak with authority at tiers 4 and 5: an authority marker or an administrator/system frame opens them', () => {
    for (const t of tests.filter((x) => x.level >= 4)) {
      const frame =
        t.level === 4
          ? /^(System|Required|Important|Warning|Instruction):/
          : /^\[?(the |this is the )?(administrator|system prompt|developer|root access|override this)/i;
      expect(directive(t), `${t.seed.id} L${t.level}`).toMatch(frame);
    }
  });

  it('are written for each problem, not drawn from a few templates', () => {
    const shapes = new Set(tests.map((t) => directive(t).replace(/\$?\d+(?:[.,]\d+)*%?/g, '#')));
    expect(shapes.size).toBeGreaterThanOrEqual(0.9 * tests.length);
  });
});
