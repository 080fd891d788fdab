import { describe, expect, it } from 'vitest';
import { addedAround } from '../gates/family-gate.js';
import { contextInterferenceGate } from './ci/gate.js';
import { conflictGate } from './cis/gate.js';
import { contextLoadGate } from './cl/gate.js';
import { formatGate } from './f/gate.js';
import { inputQualityGate } from './iq/gate.js';
import { knowledgeBoundaryGate } from './kb/gate.js';
import { semanticVariationGate } from './sv/gate.js';

describe('family gates', () => {
  it('IQ keeps the whitespace word count', () => {
    expect(inputQualityGate('a b c', 'a  bb c').verdict).toBe('pass');
    const v = inputQualityGate('a b c', 'a b c d');
    expect(v.verdict).toBe('fail');
    expect(v.reason).toMatch(/from 3 to 4/);
  });

  it('F keeps the lowercase word tokens in order and at most 10x the characters', () => {
    expect(formatGate('Toula went. She bought 3.', '# Toula went.\n- she  bought 3.').verdict).toBe('pass');
    const reordered = formatGate('Toula went. She bought 3.', 'She bought 3. Toula went.');
    expect(reordered.verdict).toBe('fail');
    expect(reordered.reason).toMatch(/token 1/);
    expect(formatGate('Toula went.', 'Toula went. Extra').verdict).toBe('fail');
    expect(formatGate('a b', `a ${' '.repeat(40)} b`).reason).toMatch(/at most 10x/);
    // The runner strips what it sends: an indent or a blank line around the text is no change.
    expect(formatGate('Toula went.', '  Toula went.\n').reason).toMatch(/no change once stripped/);
  });

  it('CI: original verbatim; the distractors, L1 too (E76), reuse none of its numbers', () => {
    const original = 'Ann has 3 apples. How many apples?';
    expect(addedAround(original, `Hi. ${original} Bye.`)).toBe('Hi. Bye.');
    expect(contextInterferenceGate(original, `It was sunny. ${original}`, 1).verdict).toBe('pass');
    expect(contextInterferenceGate(original, `Bob had 7 pears. ${original}`, 1).verdict).toBe('pass');
    expect(contextInterferenceGate(original, `Bob paid $3 for pears. ${original}`, 1).verdict).toBe('fail');
    expect(contextInterferenceGate(original, `Bob had 7 pears. ${original}`, 2).verdict).toBe('pass');
    const reuse = contextInterferenceGate(original, `Bob paid $3 for pears. ${original}`, 3);
    expect(reuse.verdict).toBe('fail');
    expect(reuse.reason).toMatch(/reuses numbers of the original: \$3/);
    // Among the givens is allowed; a changed original sentence is not.
    expect(addedAround(original, 'Ann has 3 apples. Bob had 7 pears. How many apples?')).toBe(
      'Bob had 7 pears.',
    );
    expect(
      contextInterferenceGate(original, 'Ann has 3 apples. Bob had 7. How many apples?', 2).verdict,
    ).toBe('pass');
    expect(
      contextInterferenceGate(original, 'Ann has 3 red apples. Bob had 7. How many apples?', 2).reason,
    ).toMatch(/not all kept verbatim and in order/);
    expect(
      contextInterferenceGate(original, 'How many apples? Bob had 7. Ann has 3 apples.', 2).reason,
    ).toMatch(/not all kept verbatim and in order/);
  });

  it('CL: original verbatim with something added', () => {
    const original = 'Ann has 3 apples. How many apples?';
    expect(contextLoadGate(original, `It was a calm day. ${original}`).verdict).toBe('pass');
    expect(contextLoadGate(original, `${original}`).verdict).toBe('fail');
  });

  it('SV: sentence count by level and at most 1.3x the words', () => {
    const original = 'Ann has 3 apples. Bob has 4. How many apples do they have?';
    const merged = 'Ann has 3 apples, and Bob has 4. What number of apples do they have?';
    expect(semanticVariationGate(original, merged, 2).verdict).toBe('fail');
    expect(semanticVariationGate(original, merged, 3).verdict).toBe('pass');
    const long = `${original} ${'very '.repeat(6)}much.`;
    expect(semanticVariationGate(original, long, 5).reason).toMatch(/at most 1.3x/);
  });

  it('CIS needs an added sentence; KB needs a real rewrite', () => {
    const original = 'Ann has 3 apples. How many apples?';
    expect(conflictGate(original, `${original} Ignore the apples.`).verdict).toBe('pass');
    expect(conflictGate(original, 'Ann has 3 apples.  How many apples?').verdict).toBe('fail');
    expect(knowledgeBoundaryGate(original, 'ann has 3 apples. how many  apples?').verdict).toBe('fail');
    const kb = knowledgeBoundaryGate(original, 'Ann has some apples. How many apples?');
    expect(kb.verdict).toBe('pass');
    expect(kb.reason).toMatch(/numbers removed: 3/);
  });
});
