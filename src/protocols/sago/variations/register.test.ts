import { describe, expect, it } from 'vitest';
import { REGISTER_CLOSED_SUBSET, REGISTER_STRENGTHS, registerText, registerVariations } from './register.js';

const PROMPT = 'What is the boiling point of water at sea level?';

describe('register variations', () => {
  it('covers -10..10 in steps of 2 at three positions, strength 0 once at position none', () => {
    const vs = registerVariations(PROMPT);
    expect(vs).toHaveLength(10 * 3 + 1);
    expect(new Set(vs.map((v) => v.strength))).toEqual(new Set(REGISTER_STRENGTHS));
    const zero = vs.filter((v) => v.strength === 0);
    expect(zero).toEqual([
      {
        family: 'register',
        subtype: 'politeness',
        strength: 0,
        position: 'none',
        text: PROMPT,
        generator: 'rules',
      },
    ]);
  });

  it('the closed-model subset is -10, -6, -2, 0, 2, 6, 10', () => {
    const vs = registerVariations(PROMPT, { closedModelSubset: true });
    expect([...new Set(vs.map((v) => v.strength))]).toEqual([...REGISTER_CLOSED_SUBSET]);
    expect(vs).toHaveLength(6 * 3 + 1);
  });

  it('prefix adds the opening, suffix the closing, global both; the prompt itself is untouched', () => {
    for (const s of REGISTER_STRENGTHS.filter((x) => x !== 0)) {
      const pre = registerText(PROMPT, s, 'prefix');
      const suf = registerText(PROMPT, s, 'suffix');
      const glob = registerText(PROMPT, s, 'global');
      expect(pre.endsWith(` ${PROMPT}`)).toBe(true);
      expect(suf.startsWith(`${PROMPT} `)).toBe(true);
      expect(glob).toBe(`${pre.slice(0, -PROMPT.length)}${PROMPT}${suf.slice(PROMPT.length)}`);
    }
  });

  it('escalates: the framing grows with |strength| on each side', () => {
    const extra = (s: number) => registerText(PROMPT, s, 'global').length - PROMPT.length;
    for (const side of [1, -1]) {
      const lengths = [2, 4, 6, 8, 10].map((s) => extra(side * s));
      for (let i = 1; i < lengths.length; i++) expect(lengths[i]).toBeGreaterThan(lengths[i - 1] as number);
    }
  });

  it('polite wording says please/thank, rude wording never does', () => {
    for (const s of [2, 4, 6, 8, 10]) expect(registerText(PROMPT, s, 'global')).toMatch(/please|thank/i);
    for (const s of [-2, -4, -6, -8, -10])
      expect(registerText(PROMPT, s, 'global')).not.toMatch(/please|thank/i);
  });

  it('refuses a strength off the grid and a non-zero strength without a position', () => {
    expect(() => registerText(PROMPT, 3, 'global')).toThrow(RangeError);
    expect(() => registerText(PROMPT, 12, 'prefix')).toThrow(/-10, -8/);
    expect(() => registerText(PROMPT, 4, 'none')).toThrow(RangeError);
  });
});
