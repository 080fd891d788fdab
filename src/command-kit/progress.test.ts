import { describe, expect, it } from 'vitest';
import { formatProgress, type ProgressSnapshot } from './progress.js';

/** A run `elapsedS` seconds in with `finished` of `total` cells called: its ETA as the line shows it. */
function etaOf(total: number, finished: number, elapsedS: number): string {
  const p: ProgressSnapshot = {
    total,
    done: finished,
    failed: 0,
    cached: 0,
    pending: total - finished,
    tokensIn: 0,
    tokensOut: 0,
    elapsedMs: elapsedS * 1000,
    errorsByKind: {},
  };
  return /ETA (\S+)/.exec(formatProgress(p))?.[1] ?? '';
}

describe('the ETA of a progress line', () => {
  it('carries rounded seconds into minutes and minutes into hours', () => {
    // One cell a second: the ETA is the cells left, in seconds.
    expect(etaOf(1000, 900, 900)).toBe('1m40s');
    expect(etaOf(119.6, 0.4, 0.4)).toBe('1m59s');
    // 119.7 s left: 1m60s before, 2m00s now.
    expect(etaOf(1000, 880.3, 880.3)).toBe('2m00s');
    // 59.6 s left: 60s before, a minute now.
    expect(etaOf(1000, 940.4, 940.4)).toBe('1m00s');
    expect(etaOf(1000, 941, 941)).toBe('59s');
    // 3,599.6 s left: 59m60s before.
    expect(etaOf(10_000, 6400.4, 6400.4)).toBe('1h00m');
    // 7,199 s left: 1h60m before.
    expect(etaOf(10_000, 2801, 2801)).toBe('2h00m');
    expect(etaOf(10_000, 3000, 3000)).toBe('1h57m');
  });

  it('has none before a cell was called', () => {
    expect(etaOf(10, 0, 0)).toBe('-');
  });
});
