import type { EmbedResult, GenerateResult } from '../../models/types.js';
import { implausibleUsage } from '../../models/usage.js';
import { monotonicMs } from '../../util/monotonic.js';
import type { ProviderCall, ProviderMiddleware } from './middleware.js';
import { sleep as realSleep, type SleepFn } from './retry.js';

export interface TokenBucketOptions {
  /** Units allowed per minute (requests or tokens). */
  perMinute: number;
  /** Most units that may be spent at once after an idle spell. */
  burst: number;
  now?: () => number;
  sleep?: SleepFn;
}

/**
 * A token bucket that refills continuously at perMinute / 60,000 per ms. Waiters are served in
 * arrival order, so a large request is not starved by a stream of small ones. A take larger
 * than the burst waits for a full bucket and then drives it negative (the debt is repaid by
 * the refill), so an oversized request is slowed, never refused.
 */
export class TokenBucket {
  readonly perMinute: number;
  readonly burst: number;
  private level: number;
  private last: number;
  private readonly now: () => number;
  private readonly sleep: SleepFn;
  private tail: Promise<void> = Promise.resolve();

  constructor(opts: TokenBucketOptions) {
    if (!(opts.perMinute > 0)) throw new RangeError(`perMinute must be > 0, got ${opts.perMinute}`);
    this.perMinute = opts.perMinute;
    this.burst = Math.max(1, opts.burst);
    this.now = opts.now ?? monotonicMs;
    this.sleep = opts.sleep ?? realSleep;
    this.level = this.burst;
    this.last = this.now();
  }

  /** Units available now (may be negative after an oversized take or a correction). */
  available(): number {
    this.refill();
    return this.level;
  }

  /** Waits until `n` units can be spent, then spends them. */
  take(n: number, signal?: AbortSignal): Promise<void> {
    const turn = this.tail.then(() => this.waitAndSpend(n, signal));
    // The next waiter queues behind this one whether it succeeded or was aborted.
    this.tail = turn.catch(() => {});
    return turn;
  }

  /** Corrects an estimate after the fact: positive spends more, negative gives units back. */
  adjust(delta: number): void {
    this.refill();
    this.level = Math.min(this.burst, this.level - delta);
  }

  private async waitAndSpend(n: number, signal?: AbortSignal): Promise<void> {
    const need = Math.min(n, this.burst);
    for (;;) {
      signal?.throwIfAborted();
      this.refill();
      if (this.level >= need) {
        this.level -= n;
        return;
      }
      const waitMs = Math.ceil(((need - this.level) * 60_000) / this.perMinute);
      await this.sleep(Math.max(1, waitMs), signal);
    }
  }

  private refill(): void {
    const t = this.now();
    const elapsed = t - this.last;
    if (elapsed > 0) {
      this.level = Math.min(this.burst, this.level + (elapsed * this.perMinute) / 60_000);
      this.last = t;
    }
  }
}

/**
 * Requests-per-minute: a burst of 10 seconds' worth (at least 1). A full minute's burst would
 * let a cold start fire the whole minute at once, which servers that also enforce shorter
 * windows answer with 429s.
 */
export function requestsPerMinute(
  rpm: number,
  opts: Pick<TokenBucketOptions, 'now' | 'sleep'> = {},
): TokenBucket {
  return new TokenBucket({ perMinute: rpm, burst: Math.max(1, Math.floor(rpm / 6)), ...opts });
}

/** Tokens-per-minute: a burst of a full minute's worth, since token limits are set per minute. */
export function tokensPerMinute(
  tpm: number,
  opts: Pick<TokenBucketOptions, 'now' | 'sleep'> = {},
): TokenBucket {
  return new TokenBucket({ perMinute: tpm, burst: tpm, ...opts });
}

/** Tokens a request will cost before we know: ~4 characters a token for the prompt, plus the output cap. */
export function estimateTokens(request: { messages: { content: string }[]; maxTokens?: number }): number {
  let chars = 0;
  for (const m of request.messages) chars += m.content.length;
  return Math.ceil(chars / 4) + (request.maxTokens ?? 0);
}

export interface RateLimits {
  /** Requests per minute. */
  rpm?: number;
  /** Tokens per minute: estimated before a try, corrected with the usage it reports after. */
  tpm?: number;
}

/**
 * Paces every try through token buckets (`TokenBucket` above). The buckets belong to this middleware,
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
