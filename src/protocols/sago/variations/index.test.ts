import { describe, expect, it } from 'vitest';
import { InputError } from '../../../errors.js';
import { allVariations, checkStrength } from './index.js';
import { variationKey } from './types.js';

const PROMPT = 'What is the capital of Australia?';

describe('allVariations', () => {
  it('gives the full set: 31 register + 45 noise + 7 structural, each coordinate once', () => {
    const vs = allVariations(PROMPT, { seed: 42 });
    expect(vs.filter((v) => v.family === 'register')).toHaveLength(31);
    expect(vs.filter((v) => v.family === 'noise')).toHaveLength(45);
    expect(vs.filter((v) => v.family === 'structural')).toHaveLength(7);
    expect(new Set(vs.map(variationKey)).size).toBe(vs.length);
    expect(vs.every((v) => v.generator === 'rules' && v.text.length > 0)).toBe(true);
  });

  it('uses the closed-model register subset when asked', () => {
    const vs = allVariations(PROMPT, { seed: 42, closedModelSubset: true });
    expect(vs.filter((v) => v.family === 'register')).toHaveLength(19);
  });

  it('filters families and positions', () => {
    const vs = allVariations(PROMPT, { seed: 42, families: ['noise'], positions: ['global'] });
    expect(vs).toHaveLength(15);
    expect(vs.every((v) => v.family === 'noise' && v.position === 'global')).toBe(true);
    const reg = allVariations(PROMPT, { seed: 42, families: ['register'], positions: ['prefix'] });
    expect(reg).toHaveLength(11);
  });

  it('is deterministic for a seed', () => {
    expect(allVariations(PROMPT, { seed: 5 })).toEqual(allVariations(PROMPT, { seed: 5 }));
  });
});

describe('checkStrength (bad input names the thing)', () => {
  it('accepts the grid and rejects anything else with an InputError', () => {
    expect(() => checkStrength('politeness', -6)).not.toThrow();
    expect(() => checkStrength('length', 0.25)).not.toThrow();
    expect(() => checkStrength('politeness', 11)).toThrow(InputError);
    expect(() => checkStrength('casing', 30, { field: 'sago.strengths' })).toThrow(
      "strength 30 is outside the noise family's casing range (allowed: 10, 25, 50, 75, 100)",
    );
    expect(() => checkStrength('whisper', 1)).toThrow(/unknown variation subtype "whisper"/);
  });
});
