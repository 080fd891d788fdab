import type { Usage } from './types.js';

/**
 * The most tokens one call can count, in or out: far above any context window (a few million
 * tokens at most), far below a count that would swamp a run's totals
 * (docs/decisions.md#e36-implausible-usage-is-not-counted).
 */
export const MAX_TOKENS_PER_CALL = 100_000_000;

/**
 * A token count as an API reports it: none reported is 0 (many compatible servers send no usage);
 * anything but a number is NaN, so `implausibleUsage` names it rather than reading it as 0.
 */
export function tokenCount(x: unknown): number {
  if (x === undefined || x === null) return 0;
  return typeof x === 'number' ? x : Number.NaN;
}

/**
 * Why a call's usage cannot be what it spent (a negative, fractional or absurd count), or
 * undefined when it can: such a usage is left out of every total and recorded on the call.
 */
export function implausibleUsage(usage: Usage | undefined): string | undefined {
  if (!usage) return undefined;
  const wrong = (['inputTokens', 'outputTokens'] as const).filter((field) => {
    const n = usage[field];
    return !Number.isInteger(n) || n < 0 || n > MAX_TOKENS_PER_CALL;
  });
  if (wrong.length === 0) return undefined;
  return `${wrong.map((field) => `${field} ${usage[field]}`).join(', ')} ${wrong.length > 1 ? 'are not token counts' : 'is not a token count'} (a whole number from 0 to ${MAX_TOKENS_PER_CALL})`;
}
