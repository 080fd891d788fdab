import { describe, expect, it } from 'vitest';
import { wilsonInterval } from './wilson.js';

describe('wilsonInterval', () => {
  it('matches published values', () => {
    // Reference: Newcombe (1998), Table I — 81/263 gives 0.2553 to 0.3662.
    const a = wilsonInterval(81, 263);
    expect(a?.low).toBeCloseTo(0.2553, 4);
    expect(a?.high).toBeCloseTo(0.3662, 4);
    // 0/12: lower bound 0, upper 0.2425.
    const b = wilsonInterval(0, 12);
    expect(b?.low).toBe(0);
    expect(b?.high).toBeCloseTo(0.2425, 4);
  });

  it('is undefined for n = 0', () => {
    expect(wilsonInterval(0, 0)).toBeUndefined();
  });
});
