import type { DownloadProgress } from './download.js';
import type { ModelSpec, SpecShape } from './spec-shape.js';
import type { FetchFn, ModelProvider } from './types.js';

export interface CreateProviderOptions {
  /** Where API keys, base URLs and HF settings are read from (default process.env). */
  env?: NodeJS.ProcessEnv;
  fetch?: FetchFn;
  /** The most bytes an interactive answer's body may have (API providers). */
  maxResponseBytes?: number;
  /** Model download cache (default: see download.ts). */
  cacheDir?: string;
  onDownloadProgress?: (p: DownloadProgress) => void;
  /** An API model without a key opens (its calls would fail): for estimates, which call nothing. */
  keyOptional?: boolean;
}

/**
 * Builds the provider of a spec whose prefix it was registered under. It is handed the spec as
 * parsed (`model` is everything after the prefix) and the run's env and fetch. What it returns is
 * sent through waver's call path (timeout, retries, rate limits, cache) like a built-in provider:
 * its `identity` keys the stored answers, so it must say everything that changes an answer and
 * hold no secret.
 */
export type ProviderFactory<S extends ModelSpec = ModelSpec> = (
  spec: S,
  opts: CreateProviderOptions,
) => Promise<ModelProvider>;

/** USD per million tokens. */
export interface TokenPrice {
  input: number;
  output: number;
}

/**
 * Everything waver knows about one provider, in one place (docs/providers.md#descriptors): the
 * run, the dry run and the protocols ask the descriptor, never the provider's name.
 */
export interface ProviderDescriptor<S extends ModelSpec = ModelSpec> {
  /** The spec prefix: `openai` in `openai:gpt-4o-mini` (lowercase letters, digits, `-`). */
  readonly name: string;
  /**
   * Its spec's own fields and string form (docs/providers.md#spec-shapes); the shared ones (model,
   * label, limits, price) are every spec's. Absent: an HTTP endpoint's, `PREFIX:MODEL[@URL]` with
   * `baseURL` and `apiKeyEnv`.
   */
  readonly spec?: SpecShape;
  /** Builds the bare provider from a spec its `spec` parsed; the pool wraps it in the call path. */
  create(spec: S, opts: CreateProviderOptions): Promise<ModelProvider>;
  /**
   * Where its HTTP endpoint is when the spec names none: a run checks it answers before writing
   * anything. Absent: nothing to reach (in-process or recorded models), unless the spec has a `baseURL`.
   */
  readonly endpoint?: { readonly defaultBaseURL: string; readonly baseURLEnv: string };
  /** Costs nothing to call (a local file or a recording): a dry run prices it at 0, "local". */
  readonly local?: boolean;
  /**
   * Runs in this process: its embeddings are the model's own hidden states, and a call per word
   * costs no request (sago's activation axis and word-prefix BERTScore read this).
   */
  readonly inProcess?: boolean;
  /**
   * The file on this machine a spec names (a model file, a recording), which must exist before a
   * run writes anything; undefined when it names none (a download, an endpoint).
   */
  localFile?(spec: S): string | undefined;
  /** Its models go through a batch API when `batch` is on (docs/batch.md). */
  readonly batch?: boolean;
  /** The list price of a model, at the provider's own endpoint; undefined when not listed. */
  readonly listPrice?: (model: string, baseURL?: string) => TokenPrice | undefined;
}
