import { describe, expect, it } from 'vitest';
import { implausibleUsage, MAX_TOKENS_PER_CALL, tokenCount } from './usage.js';

describe('implausibleUsage', () => {
  it('passes whole counts from 0 to the bound', () => {
    expect(implausibleUsage({ inputTokens: 0, outputTokens: 0 })).toBeUndefined();
    expect(implausibleUsage({ inputTokens: 123, outputTokens: MAX_TOKENS_PER_CALL })).toBeUndefined();
    expect(implausibleUsage(undefined)).toBeUndefined();
  });

  it('names each count no call can have: negative, fractional, past the bound, not a number', () => {
    expect(implausibleUsage({ inputTokens: -5, outputTokens: 3 })).toBe(
      'inputTokens -5 is not a token count (a whole number from 0 to 100000000)',
    );
    expect(implausibleUsage({ inputTokens: 2.5, outputTokens: 1e15 })).toBe(
      'inputTokens 2.5, outputTokens 1000000000000000 are not token counts (a whole number from 0 to 100000000)',
    );
    expect(implausibleUsage({ inputTokens: MAX_TOKENS_PER_CALL + 1, outputTokens: 0 })).toMatch(
      /^inputTokens/,
    );
    expect(implausibleUsage({ inputTokens: tokenCount('12'), outputTokens: 0 })).toMatch(/^inputTokens NaN/);
  });

  it('reads a count that was not reported as 0, and one that is not a number as NaN', () => {
    expect(tokenCount(undefined)).toBe(0);
    expect(tokenCount(null)).toBe(0);
    expect(tokenCount(7)).toBe(7);
    expect(tokenCount('7')).toBeNaN();
  });
});
