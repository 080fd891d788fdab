import type { EmbedResult, GenerateResult } from '../../models/types.js';
import { implausibleUsage } from '../../models/usage.js';
import { estimateTokens, requestsPerMinute, tokensPerMinute } from '../rate-limit.js';
import type { SleepFn } from '../retry.js';
import type { ProviderCall, ProviderMiddleware } from './middleware.js';

export interface RateLimits {
  /** Requests per minute. */
  rpm?: number;
  /** Tokens per minute: estimated before a try, corrected with the usage it reports after. */
  tpm?: number;
}

/**
 * Paces every try through token buckets (`rate-limit.ts`). The buckets belong to this middleware,
 * so every call of the provider it wraps (cells, scores, embeddings) draws from the same ones.
 */
export function rateLimit(
  limits: RateLimits,
  clock: { now?: () => number; sleep?: SleepFn } = {},
): ProviderMiddleware {
  const rpm = limits.rpm ? requestsPerMinute(limits.rpm, clock) : undefined;
  const tpm = limits.tpm ? tokensPerMinute(limits.tpm, clock) : undefined;
  return async (call, options, next) => {
    const estimate = tpm ? estimatedTokens(call) : 0;
    await rpm?.take(1, options.signal);
    await tpm?.take(estimate, options.signal);
    options.signal?.throwIfAborted();
    let result: Awaited<ReturnType<typeof next>>;
    try {
      result = await next(options);
    } catch (error) {
      tpm?.adjust(-estimate); // a failed try spent (about) nothing
      throw error;
    }
    tpm?.adjust(usedTokens(call, result, estimate) - estimate);
    return result;
  };
}

/** Tokens a call will cost before we know (about 4 characters a token, plus a generation's output cap). */
function estimatedTokens(call: ProviderCall): number {
  const { input, output } = tokenEstimate(call);
  return input + output;
}

/**
 * A call's tokens before it is made, apart as they are priced: its prompt at about 4 characters a
 * token, and a generation's output cap (what it may spend at most).
 */
export function tokenEstimate(call: ProviderCall): { input: number; output: number } {
  switch (call.kind) {
    case 'generate':
      return {
        input: estimateTokens({ messages: call.request.messages }),
        output: call.request.maxTokens ?? 0,
      };
    case 'score':
      return {
        input: estimateTokens({
          messages: [...call.request.messages, { content: call.request.continuation }],
        }),
        output: 0,
      };
    case 'embed':
      return {
        input: estimateTokens({ messages: call.request.input.map((content) => ({ content })) }),
        output: 0,
      };
  }
}

/**
 * Tokens a call spent, from the usage it reports (a score reports none, and a usage no call can
 * have is not believed, docs/decisions.md E36: its estimate stands).
 */
function usedTokens(call: ProviderCall, result: unknown, estimate: number): number {
  if (call.kind === 'generate') {
    const usage = (result as GenerateResult).usage;
    if (implausibleUsage(usage)) return estimate;
    return (usage?.inputTokens ?? 0) + (usage?.outputTokens ?? 0);
  }
  if (call.kind === 'embed') return (result as EmbedResult).usage?.inputTokens ?? estimate;
  return estimate;
}
