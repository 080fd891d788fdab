import type { ModelProvider } from '../models/types.js';
import { callPath } from '../run/call-path/call-path.js';
import { mergeLimits } from '../run/call-path/limits.js';
import { isWrapped, wrapProvider } from '../run/call-path/wrap-provider.js';

/** How `waver serve` calls its model (docs/serve.md#calls). */
export interface ServeCallLimits {
  /** A generation, score or embedding past it fails (500, code `timeout`) and frees the model. Default 600 s. */
  timeoutMs?: number;
  /** Retries after a transient error. Default 0: the client retries, and would multiply the tries. */
  maxRetries?: number;
}

/** The OpenAI SDKs' own default timeout: the server gives up on a call no sooner than its clients. */
export const SERVE_TIMEOUT_MS = 600_000;

/**
 * The provider as the server calls it: its generations, scores and embeddings through the "serve"
 * call path (`run/call-path/presets/serve.ts`: retry and timeout); its streams and tokenizer from
 * the provider itself, since a stream cannot be retried once it has sent text (docs/decisions.md
 * E11) and tokenizing is no call. A provider already wrapped (a ProviderPool's) brings its own path.
 */
export function servedModel(provider: ModelProvider, limits: ServeCallLimits = {}): ModelProvider {
  if (isWrapped(provider)) return provider;
  const path = callPath(mergeLimits(limits, { timeoutMs: SERVE_TIMEOUT_MS, maxRetries: 0 }), {}, 'serve');
  const { stream, tokenize, detokenize, tokenizerInfo } = provider;
  return {
    // The server closes nothing: its caller owns the provider.
    ...wrapProvider(provider, path, { keepOpen: true }),
    ...(stream && { stream: (request, options) => stream.call(provider, request, options) }),
    ...(tokenize && { tokenize: (text) => tokenize.call(provider, text) }),
    ...(detokenize && { detokenize: (tokens) => detokenize.call(provider, tokens) }),
    ...(tokenizerInfo && { tokenizerInfo: () => tokenizerInfo.call(provider) }),
  };
}
