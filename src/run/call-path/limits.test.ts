import { describe, expect, it } from 'vitest';
import { type CallLimits, mergeLimits, retryPolicy } from './limits.js';
import { DEFAULT_RETRY_POLICY } from './retry.js';

const command = { timeoutMs: 60_000, maxRetries: 4, concurrency: 8, backoff: { baseMs: 10 } };

describe('mergeLimits: a model setting of its own over the command', () => {
  it("takes the command's timeout, retries, slots and backoff for a model that sets none", () => {
    expect(mergeLimits({}, command)).toEqual({
      timeoutMs: 60_000,
      maxRetries: 4,
      concurrency: 8,
      backoff: { baseMs: 10 },
    });
  });

  it("keeps the model's own, 0 retries included", () => {
    const model = { timeoutMs: 500, maxRetries: 0, concurrency: 1, rpm: 60, tpm: 10_000 };
    expect(mergeLimits(model, command)).toEqual({
      timeoutMs: 500,
      maxRetries: 0,
      concurrency: 1,
      backoff: { baseMs: 10 },
      rpm: 60,
      tpm: 10_000,
    });
  });

  it('sets no slot limit and no rate limit that neither names', () => {
    const limits = mergeLimits({}, { timeoutMs: 600_000, maxRetries: 0 });
    expect(limits).toEqual({ timeoutMs: 600_000, maxRetries: 0 });
  });
});

describe('retryPolicy', () => {
  it("is the default backoff under the command's tuning, with the model's retries", () => {
    const limits: CallLimits = { timeoutMs: 1, maxRetries: 2, backoff: { capMs: 99 } };
    expect(retryPolicy(limits)).toEqual({ ...DEFAULT_RETRY_POLICY, capMs: 99, maxRetries: 2 });
  });
});
