import type { ModelProvider } from '../../models/types.js';
import { type PathCallOptions, type ProviderMiddleware, runThrough } from './middleware.js';

export interface WrapOptions {
  /**
   * Leave out `close`: the instance belongs to someone else (a ProviderPool), who closes it once
   * every user is done.
   */
  keepOpen?: boolean;
}

const wrapped = new WeakSet<ModelProvider>();

/**
 * The provider with every `generate`, `score` and `embed` call sent through `middleware` (the
 * first one outermost). Same interface, identity and capabilities; a method the provider lacks
 * stays absent, so `if (provider.score)` still reads the capability.
 */
export function wrapProvider(
  provider: ModelProvider,
  middleware: readonly ProviderMiddleware[],
  opts: WrapOptions = {},
): ModelProvider {
  const { score, embed, countTokens, batch, close } = provider;
  // A provider wrapped already (a pool's, under a run's store cache) gets the caller's observer and
  // cache key for its own path; a bare one, only the signal.
  const pass = wrapped.has(provider)
    ? (options: PathCallOptions) => options
    : ({ signal }: PathCallOptions): PathCallOptions => ({ signal });
  const out: ModelProvider = {
    provider: provider.provider,
    modelId: provider.modelId,
    identity: provider.identity,
    capabilities: provider.capabilities,
    generate: (request, options = {}) =>
      runThrough(middleware, { kind: 'generate', request }, options, async (o) => {
        const result = await provider.generate(request, pass(o));
        // A provider bug, not a transient error: it is stored as 'internal' and not retried.
        if (!result || typeof result.text !== 'string')
          throw new TypeError(`provider ${provider.identity} returned no text`);
        return result;
      }),
    ...(score
      ? {
          score: (request, options = {}) =>
            runThrough(middleware, { kind: 'score', request }, options, async (o) =>
              score.call(provider, request, pass(o)),
            ),
        }
      : {}),
    ...(embed
      ? {
          embed: (request, options = {}) =>
            runThrough(middleware, { kind: 'embed', request }, options, async (o) =>
              embed.call(provider, request, pass(o)),
            ),
        }
      : {}),
    ...(countTokens ? { countTokens: (text) => countTokens.call(provider, text) } : {}),
    // A batch is not a call: the batch runner paces and retries its requests (docs/batch.md).
    ...(batch ? { batch } : {}),
    ...(close && !opts.keepOpen ? { close: () => close.call(provider) } : {}),
  };
  wrapped.add(out);
  return out;
}

/** Whether a provider came out of `wrapProvider` (it then brings its own call path). */
export function isWrapped(provider: ModelProvider): boolean {
  return wrapped.has(provider);
}
