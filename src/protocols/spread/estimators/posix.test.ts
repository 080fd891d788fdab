import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../../test-support/shared.js';
import { posixIndex, posixSummary } from './posix.js';

/** POSIX against src/test-support/spread/python/posix_port.py (fixture posix.json), to 1e-9. */
const fixture = JSON.parse(readFileSync(resolve(repoRoot, 'src/test-support/spread/posix.json'), 'utf8')) as {
  maxNewTokens: number;
  items: Array<{ logprob: number[][]; responseTokens: number[]; paper: number; reference: number }>;
  posix: number;
  tInterval95: [number, number];
};

describe('POSIX vs the port of the paper and of the authors’ code', () => {
  it('gives the paper’s index per item (Definition 3) to 1e-9', () => {
    for (const item of fixture.items) expect(Math.abs(posixIndex(item) - item.paper)).toBeLessThan(1e-9);
  });

  it('gives the authors’ code’s index in the reference variant to 1e-9', () => {
    for (const item of fixture.items) {
      const v = posixIndex(item, { variant: 'reference', maxNewTokens: fixture.maxNewTokens });
      expect(Math.abs(v - item.reference)).toBeLessThan(1e-9);
    }
  });

  it('averages the items (Definition 4) with a t interval equal to scipy’s', () => {
    const s = posixSummary(fixture.items.map((i) => i.paper));
    expect(Math.abs(s.value - fixture.posix)).toBeLessThan(1e-12);
    expect(Math.abs((s.lo as number) - fixture.tInterval95[0])).toBeLessThan(1e-9);
    expect(Math.abs((s.hi as number) - fixture.tInterval95[1])).toBeLessThan(1e-9);
    expect(posixSummary([0.3])).toEqual({ value: 0.3, lo: undefined, hi: undefined, n: 1 });
  });

  it('is 0 when no response moves with its prompt, and refuses a malformed matrix', () => {
    expect(
      posixIndex({
        logprob: [
          [-1, -1],
          [-1, -1],
        ],
        responseTokens: [1, 3],
      }),
    ).toBe(0);
    expect(() => posixIndex({ logprob: [[-1]], responseTokens: [1] })).toThrow(/at least 2 prompts/);
    expect(() => posixIndex({ logprob: [[-1, -2], [-1]], responseTokens: [1, 1] })).toThrow(/2 x 2/);
    expect(() =>
      posixIndex({
        logprob: [
          [-1, -2],
          [-1, -2],
        ],
        responseTokens: [0, 1],
      }),
    ).toThrow(/responseTokens/);
    expect(() =>
      posixIndex({
        logprob: [
          [-1, Number.NEGATIVE_INFINITY],
          [-1, -2],
        ],
        responseTokens: [1, 1],
      }),
    ).toThrow(/finite/);
  });
});
