import { describe, expect, it } from 'vitest';
import { closest, editDistance } from './closest.js';

describe('closest', () => {
  it('finds the field a typo meant, and nothing for a word unlike any', () => {
    const fields = ['concurrency', 'repeats', 'seed', 'seeds', 'store'];
    expect(closest('concurency', fields)).toBe('concurrency');
    expect(closest('sedes', fields)).toBe('seeds');
    expect(closest('Repeats', fields)).toBe('repeats');
    expect(closest('banana', fields)).toBeUndefined();
    expect(closest('x', ['y'])).toBeUndefined();
  });

  it('counts a swap of neighbours as one edit', () => {
    expect(editDistance('sedes', 'seeds')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
  });
});
