import { describe, expect, it } from 'vitest';
import { ProviderError } from '../models/errors.js';
import { backoffMs, DEFAULT_RETRY_POLICY, retryDelayMs, sleep, toCellError } from './retry.js';

const policy = { ...DEFAULT_RETRY_POLICY, maxRetries: 10, baseMs: 500, capMs: 30_000 };

describe('backoff with full jitter', () => {
  it('stays within [0, min(cap, base * 2^n)) and reaches the bound at random -> 1', () => {
    for (let n = 0; n < 12; n++) {
      const bound = Math.min(30_000, 500 * 2 ** n);
      expect(backoffMs(n, policy, () => 0)).toBe(0);
      const top = backoffMs(n, policy, () => 0.999999);
      expect(top).toBeLessThan(bound);
      expect(top).toBeGreaterThanOrEqual(Math.floor(bound * 0.999));
    }
    expect(backoffMs(200, policy, () => 0.5)).toBe(15_000); // capped, no overflow
  });

  it('uses the configured base and cap', () => {
    expect(backoffMs(3, { baseMs: 10, capMs: 1000 }, () => 0.5)).toBe(40);
    expect(backoffMs(10, { baseMs: 10, capMs: 1000 }, () => 0.5)).toBe(500);
  });
});

describe('retryDelayMs', () => {
  const half = () => 0.5;

  it('retries rate limits, 5xx, timeouts, resets and bad responses', () => {
    for (const kind of ['rate_limit', 'server', 'timeout', 'network', 'bad_response'] as const) {
      expect(retryDelayMs(new ProviderError(kind, 'x'), 0, policy, half)).toBe(250);
    }
  });

  it('does not retry auth, client, unsupported, no_recording or non-provider errors', () => {
    for (const kind of ['auth', 'client', 'unsupported', 'no_recording'] as const) {
      expect(retryDelayMs(new ProviderError(kind, 'x', { status: 400 }), 0, policy, half)).toBeUndefined();
    }
    expect(retryDelayMs(new TypeError('boom'), 0, policy, half)).toBeUndefined();
  });

  it('stops after maxRetries', () => {
    const e = new ProviderError('server', 'x', { status: 500 });
    const p = { ...policy, maxRetries: 2 };
    expect(retryDelayMs(e, 0, p, half)).toBeDefined();
    expect(retryDelayMs(e, 1, p, half)).toBeDefined();
    expect(retryDelayMs(e, 2, p, half)).toBeUndefined();
  });

  it('waits at least Retry-After, even when the backoff would be shorter', () => {
    const e = new ProviderError('rate_limit', '429', { status: 429, retryAfterMs: 7000 });
    for (const r of [0, 0.3, 0.999]) {
      const d = retryDelayMs(e, 0, policy, () => r) as number;
      expect(d).toBeGreaterThanOrEqual(7000);
      expect(d).toBeLessThan(7000 + policy.baseMs);
    }
    const zero = new ProviderError('rate_limit', '429', { status: 429, retryAfterMs: 0 });
    expect(retryDelayMs(zero, 0, policy, () => 0)).toBe(0);
  });

  it('caps an absurd Retry-After', () => {
    const e = new ProviderError('rate_limit', '429', { retryAfterMs: 86_400_000 });
    expect(retryDelayMs(e, 0, policy, () => 0)).toBe(policy.maxRetryAfterMs);
  });
});

describe('toCellError', () => {
  it('keeps kind, message and status of a ProviderError', () => {
    expect(toCellError(new ProviderError('server', 'bad gateway', { status: 502 }))).toEqual({
      kind: 'server',
      message: 'bad gateway',
      status: 502,
    });
  });
  it("turns anything else into 'internal' with its name", () => {
    expect(toCellError(new TypeError('x is undefined'))).toEqual({
      kind: 'internal',
      message: 'TypeError: x is undefined',
    });
    expect(toCellError('a string')).toEqual({ kind: 'internal', message: 'non-error thrown: a string' });
  });
});

describe('sleep', () => {
  it('rejects with the reason when aborted', async () => {
    const ac = new AbortController();
    const p = sleep(10_000, ac.signal);
    ac.abort(new Error('stop'));
    await expect(p).rejects.toThrow('stop');
  });
});
