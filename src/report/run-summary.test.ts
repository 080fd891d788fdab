import { describe, expect, it } from 'vitest';
import { formatRunEnd } from './run-summary.js';

describe('formatRunEnd', () => {
  it('after a stop, says how to resume; under --no-cache, without it (the same command would call every cell again)', () => {
    expect(formatRunEnd([], true)).toEqual(['waver: stopped: re-run the same command to resume']);
    expect(formatRunEnd([], true, false)).toEqual([
      'waver: stopped: re-run the same command without --no-cache (with it, every cell is called again) to resume',
    ]);
  });
});
