import { describe, expect, it } from 'vitest';
import { structuralGate } from './structural-gate.js';

const TOULA =
  'Toula went to the bakery and bought various types of pastries. She bought 3 dozen donuts which cost $68 per dozen, 2 dozen mini cupcakes which cost $80 per dozen, and 6 dozen mini cheesecakes for $55 per dozen. How much was the total cost?';

describe('structuralGate', () => {
  it('fails an identical candidate', () => {
    const v = structuralGate(TOULA, TOULA);
    expect(v).toMatchObject({ gate: 'structural', verdict: 'fail' });
    expect(v.reason).toMatch(/identical/);
  });

  it('passes when every number is kept, whatever else is added', () => {
    const v = structuralGate(TOULA, `${TOULA} A friend paid $12 once.`);
    expect(v.verdict).toBe('pass');
    expect(v.reason).toMatch(/all 6 numbers/);
  });

  it('counts repeats: a number the original has twice must appear twice', () => {
    const original = 'He has 3 cats and 3 dogs. How many pets?';
    const v = structuralGate(original, 'He has 3 cats and some dogs. How many pets?');
    expect(v.verdict).toBe('fail');
    expect(v.reason).toContain('3 (1 of 2)');
  });

  it('reads $, thousands and decimals as one number each', () => {
    const original = 'It costs $1,200.50 or 2.5 units.';
    expect(structuralGate(original, 'It is $1,200.50 or 2.5 units.').verdict).toBe('pass');
    const v = structuralGate(original, 'It is $1200.50 or 2.5 units.');
    expect(v.verdict).toBe('fail');
    expect(v.reason).toContain('$1,200.50');
  });

  it('fails an empty candidate', () => {
    expect(structuralGate(TOULA, '   ').verdict).toBe('fail');
  });
});
