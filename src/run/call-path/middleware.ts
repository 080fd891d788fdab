import type { CallOptions, EmbedRequest, GenerateRequest, ScoreRequest } from '../../models/types.js';

/**
 * The call path: every call a run makes to a model (a cell's generation, a role's answer, an
 * embedding, a teacher-forced score, a hidden state) goes through the same middleware around its
 * provider (`wrapProvider`), in the spirit of the Vercel AI SDK's `wrapLanguageModel`, in the
 * order a named preset gives (`presets/`, docs/decisions.md E45). It lives in `run/`: the store's
 * answers, resilience and pacing are the run's concern, and the providers in `models/` stay plain
 * clients that make one call when asked.
 */

export type CallKind = 'generate' | 'score' | 'embed';

/** One provider call as middleware sees it. */
export type ProviderCall =
  | { kind: 'generate'; request: GenerateRequest }
  | { kind: 'score'; request: ScoreRequest }
  | { kind: 'embed'; request: EmbedRequest };

/** How one try of a call ended (a timeout ends with its ProviderError). */
export type TryOutcome = { ok: true; result: unknown } | { ok: false; error: unknown };

/** Told what happens to one call: the engine records each try as an attempt. */
export interface CallObserver {
  /**
   * Asked just before each try goes on the wire (after any rate-limit or concurrency wait): a
   * throw stops the call untried with that error (a worker's lease that passed on while it waited
   * or backed off, docs/decisions.md E24).
   */
  beforeTry?(): void;
  /** A try goes on the wire (after any rate-limit wait). */
  onTryStart?(): void;
  onTryEnd?(outcome: TryOutcome): void;
  /** A retry is due in `delayMs` after `error`. */
  onRetry?(delayMs: number, error: unknown): void;
  /** The store held the answer (`storeCache`): no try was made. */
  onStored?(): void;
}

/** What a caller may pass to a wrapped provider's methods (a bare provider sees only the signal). */
export interface PathCallOptions extends CallOptions {
  observer?: CallObserver;
  /**
   * A generation's cache key (`run/cache-key.ts`), from the caller who knows its repeat: the store's
   * answer under it is the call's (`storeCache`). Without it a generation is not looked up.
   */
  cacheKey?: string;
}

export type Next<T> = (options: PathCallOptions) => Promise<T>;

/** One concern of the path (timeout, retry...): it makes the call by calling `next`, as often as it needs. */
export type ProviderMiddleware = <T>(
  call: ProviderCall,
  options: PathCallOptions,
  next: Next<T>,
) => Promise<T>;

/** Runs `last` through `middleware`, the first one outermost. */
export function runThrough<T>(
  middleware: readonly ProviderMiddleware[],
  call: ProviderCall,
  options: PathCallOptions,
  last: Next<T>,
): Promise<T> {
  const step = (i: number, o: PathCallOptions): Promise<T> => {
    const m = middleware[i];
    return m ? m(call, o, (next) => step(i + 1, next)) : last(o);
  };
  return step(0, options);
}

/**
 * Thrown instead of a try when no more calls may be made through the path (the command's budget is
 * spent, docs/decisions.md#e37-a-budget-stops-a-command-its-cells-left-pending): the caller leaves
 * its work pending, not failed, and starts no more; the calls already in flight finish. `message`
 * says what stopped it.
 */
export class CallsHalted extends Error {
  override readonly name: string = 'CallsHalted';
}
