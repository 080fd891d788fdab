import type { ModelProvider } from '../models/types.js';
import { retry } from '../run/call-path/retry.js';
import { timeout } from '../run/call-path/timeout.js';
import { isWrapped, wrapProvider } from '../run/call-path/wrap-provider.js';
import { DEFAULT_RETRY_POLICY } from '../run/retry.js';

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
 * The provider as the server calls it: its generations, scores and embeddings through the call
 * path's retry and timeout (`run/call-path/`); its streams and tokenizer from the provider itself,
 * since a stream cannot be retried once it has sent text (docs/decisions.md E11) and tokenizing is
 * no call. Not the path's dedupe: a shared call runs under the first asker's signal, and one client
 * hanging up must not fail another's request. A provider already wrapped (a ProviderPool's)
 * brings its own path.
 */
export function servedModel(provider: ModelProvider, limits: ServeCallLimits = {}): ModelProvider {
  if (isWrapped(provider)) return provider;
  const path = [
    retry({ ...DEFAULT_RETRY_POLICY, maxRetries: limits.maxRetries ?? 0 }),
    timeout(limits.timeoutMs ?? SERVE_TIMEOUT_MS),
  ];
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
