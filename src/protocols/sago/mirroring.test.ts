import { describe, expect, it } from 'vitest';
import {
  caseDensity,
  detectMirroring,
  mirrorsCase,
  mirrorsLength,
  mirrorsPoliteness,
  mirrorsPunctuation,
  mirrorsSpacing,
  parsePolitenessVerdict,
  politenessJudgePrompt,
  punctuationDensity,
  spacingDensity,
} from './mirroring.js';
import { noiseVariation } from './variations/noise.js';
import { registerVariations } from './variations/register.js';
import { structuralVariation } from './variations/structural.js';

const PROMPT = "Who is the richest person in the world who didn't finish high school?";
const PLAIN =
  'There is no single agreed answer. Several billionaires left school early; lists change every year, so check a current ranking such as Forbes (updated daily) for the latest figures.';

describe('noise densities', () => {
  it('spacing counts extra inline spaces, not indentation, line ends or code', () => {
    expect(spacingDensity('a  b c    d')).toEqual({ count: 2, over: 3, unit: 'gaps with extra whitespace' });
    expect(spacingDensity('    indented line  \nnext line').count).toBe(0);
    expect(spacingDensity('text\n```\nx  =   1\n```\nmore text').count).toBe(0);
  });

  it('punctuation counts marks stuck to the wrong side of a word, not ordinary prose', () => {
    expect(punctuationDensity('Who is ,the richest person').count).toBe(1);
    expect(punctuationDensity('Who( is ;in ).!high school?').count).toBe(3);
    expect(punctuationDensity('(Who( is').count).toBe(1); // one word, counted once
    expect(
      punctuationDensity(
        "Paris (the capital) is e.g. 3.5 km wide, 'roughly' [see](http://x.y) - ok; fine: yes!",
      ).count,
    ).toBe(0);
  });

  it('case counts upper-case letters inside words', () => {
    expect(caseDensity('WHO IS it')).toEqual({ count: 3, over: 7, unit: 'upper-case letters inside words' });
    expect(caseDensity('Title Case Words').count).toBe(0);
    expect(caseDensity('riChEst').count).toBe(2);
  });
});

describe('rule detectors against seeded variants', () => {
  it("spacing: a reply with the variant prompt's irregular spacing mirrors; a plain one does not", () => {
    const v = noiseVariation(PROMPT, 'spacing', 20, 'global', { seed: 3 });
    expect(mirrorsSpacing(PLAIN, v).mirrored).toBe(false);
    // The variant widened about 80% of its gaps; a reply widening every other gap reaches half of that.
    const noisy = PLAIN.split(' ')
      .map((w, i) => (i % 2 === 0 ? `${w}   ` : `${w} `))
      .join('');
    const r = mirrorsSpacing(noisy, v);
    expect(r.mirrored).toBe(true);
    expect(r.evidence).toMatch(/threshold/);
    // A single double space after a full stop in a long reply stays under the bar.
    expect(mirrorsSpacing(PLAIN.replace('answer. ', 'answer.  '), v).mirrored).toBe(false);
  });

  it("punctuation: stray marks at the variant prompt's rate mirror", () => {
    const v = noiseVariation(PROMPT, 'punctuation', 10, 'global', { seed: 3 });
    expect(mirrorsPunctuation(PLAIN, v).mirrored).toBe(false);
    const words = PLAIN.split(' ');
    const noisy = words.map((w, i) => (i % 3 === 0 ? `;${w}` : w)).join(' ');
    expect(mirrorsPunctuation(noisy, v).mirrored).toBe(true);
  });

  it('case: a reply in random or all capitals mirrors; acronyms alone do not', () => {
    const v = noiseVariation(PROMPT, 'casing', 50, 'global', { seed: 3 });
    expect(mirrorsCase(PLAIN, v).mirrored).toBe(false);
    expect(mirrorsCase(`${PLAIN} NASA and the USA publish GDP data.`, v).mirrored).toBe(false);
    expect(mirrorsCase(PLAIN.toUpperCase(), v).mirrored).toBe(true);
    const low = noiseVariation(PROMPT, 'casing', 10, 'global', { seed: 3 });
    expect(mirrorsCase('ThE aNswEr iS nOt cLeAr', low).mirrored).toBe(true);
  });
});

describe('length mirroring', () => {
  const base = 'one two three four five six seven eight nine ten';
  it('is within [0.75 m, 1.25 m] of the baseline word count', () => {
    const twenty = `${base} ${base}`;
    expect(mirrorsLength(twenty, base, 2).mirrored).toBe(true);
    expect(mirrorsLength(twenty, base, 3).mirrored).toBe(false); // 2 < 2.25
    expect(mirrorsLength('one two three', base, 0.25).mirrored).toBe(true); // 0.3 in [0.1875, 0.3125]
    expect(mirrorsLength(base, base, 1.5).mirrored).toBe(false); // the baseline itself: 1 < 1.125
    expect(mirrorsLength(twenty, base, 2).evidence).toBe(
      'length: 20 / 10 words = 2; mirrored within [1.500, 2.500] (m = 2)',
    );
  });

  it('is undefined when the baseline has no words', () => {
    expect(mirrorsLength('text', '  ', 2).mirrored).toBeUndefined();
  });
});

describe('politeness judge', () => {
  it('asks for a JSON verdict on the reply alone', () => {
    const p = politenessJudgePrompt('Thanks so much for asking!');
    expect(p).toContain('<<<\nThanks so much for asking!\n>>>');
    expect(p).toContain('{"register": "polite" | "neutral" | "rude"');
  });

  it('parses JSON (bare, in prose, in a fence), a bare word, and refuses the rest', () => {
    expect(parsePolitenessVerdict('{"register": "polite", "reason": "thanks the reader"}')).toEqual({
      register: 'polite',
      reason: 'thanks the reader',
    });
    expect(parsePolitenessVerdict('Verdict:\n```json\n{"register":"Rude"}\n```')).toEqual({
      register: 'rude',
    });
    expect(parsePolitenessVerdict('{"note": "{x}"} then {"register": "neutral"}')).toEqual({
      register: 'neutral',
    });
    expect(parsePolitenessVerdict('Neutral.')).toEqual({ register: 'neutral' });
    expect(parsePolitenessVerdict('{"register": "friendly"}')).toBeUndefined();
    expect(parsePolitenessVerdict('It is somewhat polite I think')).toBeUndefined();
    expect(parsePolitenessVerdict('')).toBeUndefined();
  });

  it('mirrors by direction of the strength; a missing verdict is undefined', () => {
    expect(mirrorsPoliteness({ register: 'polite' }, 6).mirrored).toBe(true);
    expect(mirrorsPoliteness({ register: 'polite' }, -6).mirrored).toBe(false);
    expect(mirrorsPoliteness({ register: 'rude' }, -2).mirrored).toBe(true);
    expect(mirrorsPoliteness({ register: 'neutral' }, 10).mirrored).toBe(false);
    expect(mirrorsPoliteness({ register: 'rude' }, 0).mirrored).toBe(false);
    expect(mirrorsPoliteness(undefined, 4).mirrored).toBeUndefined();
  });
});

describe('detectMirroring dispatches by subtype', () => {
  it('routes each variation to its detector; sentence form has none', () => {
    const base = 'A plain answer of several words.';
    const polite = registerVariations(PROMPT).find((v) => v.strength === 8) as never;
    expect(
      detectMirroring(base, polite, { baselineResponse: base, politeness: { register: 'polite' } }).mirrored,
    ).toBe(true);
    expect(detectMirroring(base, polite, { baselineResponse: base }).mirrored).toBeUndefined();
    const len = structuralVariation(PROMPT, 'length', 0.5);
    expect(detectMirroring('A plain answer.', len, { baselineResponse: base }).mirrored).toBe(true);
    const form = structuralVariation(PROMPT, 'imperative');
    expect(detectMirroring(base, form, { baselineResponse: base }).mirrored).toBeUndefined();
    const caps = noiseVariation(PROMPT, 'casing', 100, 'global', { seed: 1 });
    expect(detectMirroring(base.toUpperCase(), caps, { baselineResponse: base }).mirrored).toBe(true);
  });
});
