import { describe, expect, it } from 'vitest';
import { COLLAPSE_SLACK, collapsePointOf, collapseShiftPower, collapses } from './collapse.js';

describe('the Collapse Point', () => {
  it('is the first level below ratio x acc(L0); a tie within floating noise is none (docs/ladder.md#collapse-point)', () => {
    // 0.8 * 0.9 is 0.7200000000000001: compared as computed, 0.72 would collapse.
    expect(0.72 < 0.8 * 0.9).toBe(true);
    expect(collapses(0.72, 0.9, 0.8)).toBe(false);
    expect(collapses(0.72 - 2 * COLLAPSE_SLACK, 0.9, 0.8)).toBe(true);
    // The reference code's side: the floats as computed.
    expect(collapses(0.72, 0.9, 0.8, 0)).toBe(true);
    expect(collapsePointOf([0.9, 0.72, 0.5])).toBe(2);
  });

  it('a Collapse Point shift is seen more often with more seeds', () => {
    expect(collapsePointOf([0.9, 0.85, 0.7, 0.5])).toBe(2);
    expect(collapsePointOf([0.9, 0.85, 0.8])).toBe(3);
    const a = [0.9, 0.8, 0.65, 0.5];
    const b = [0.9, 0.85, 0.78, 0.6];
    const few = collapseShiftPower(a, b, [10, 10, 10, 10], 0.8);
    const many = collapseShiftPower(a, b, [600, 600, 600, 600], 0.8);
    expect(many).toBeGreaterThan(few);
    expect(many).toBeGreaterThan(0.9);
  });
});
