/**
 * The one interface every model provider implements, whatever role it plays
 * (sut, generator, judge, embedder). Shaped like the Vercel AI SDK's provider spec:
 * a factory per provider, declared capabilities, settings from options or environment,
 * an injectable `fetch` for HTTP providers.
 */

import type { ChatMessage, GenerateRequest, GenerateResult, TokenLogprob } from '../domain/calls.js';
import type { ProviderError } from './errors.js';

// The call's shapes live below the models and the store, which both hold them (docs/architecture.md).
export type {
  ChatMessage,
  FinishReason,
  GenerateRequest,
  GenerateResult,
  TokenLogprob,
  Usage,
} from '../domain/calls.js';

export type Role = 'sut' | 'generator' | 'judge' | 'embedder';

/** The prefix of the provider's descriptor: a built-in one (`openai`, `gguf`, ...) or a registered one (registry.ts). */
export type ProviderName = string;

/** What a provider can do. A protocol reads these before asking; a missing one is "unavailable", never 0. */
export interface Capabilities {
  /** Chat generation. */
  chat: boolean;
  /** Log-probability of each generated token. */
  tokenLogprobs: boolean;
  /** Top-k alternatives per generated token (k = the number, 0 when none). */
  topLogprobs: number;
  /** The full next-token distribution (so entropy is exact, not a top-k approximation). */
  fullDistribution: boolean;
  /** Teacher-forced log-prob of a given continuation. */
  scoreContinuation: boolean;
  /** Pooled text embeddings. */
  embeddings: boolean;
  /** Every layer's hidden state at a text's last token (`EmbedRequest.layers`; gguf with the patched addon). */
  hiddenLayers?: boolean;
}

/**
 * What `stream` yields: deltas as the answer is produced, then the finished result. The deltas'
 * texts concatenate to `result.text`, and their tokens to `result.tokens`.
 */
export type GenerateEvent =
  | { type: 'delta'; text: string; tokens: TokenLogprob[] }
  | { type: 'done'; result: GenerateResult };

export interface ScoreRequest {
  messages: ChatMessage[];
  /** The continuation (assistant reply) to score under teacher forcing. */
  continuation: string;
  /** A plain-text prompt with no chat template, as in GenerateRequest (`messages` then ignored). */
  rawPrompt?: string;
  /** Alternatives per scored token, as in GenerateRequest (0 by default). */
  topLogprobs?: number;
}

export interface ScoreResult {
  /** Sum of the continuation tokens' log-probs (nats). */
  logprob: number;
  tokens: TokenLogprob[];
}

export interface EmbedRequest {
  input: string[];
  /** `all`: also each input's hidden state after every layer (only where `capabilities.hiddenLayers`). */
  layers?: 'all';
}

export interface EmbedResult {
  embeddings: number[][];
  /** With `layers: 'all'`: per input, the L + 1 hidden states of its last token, embedding layer first. */
  layerStates?: number[][][];
  usage?: { inputTokens: number };
}

export interface CallOptions {
  signal?: AbortSignal;
}

/** A special token: its id and the text that spells it. */
export interface SpecialToken {
  id: number;
  text: string;
}

export interface TokenizerInfo {
  /** The token put before every raw prompt (absent where the model puts none). */
  bos?: SpecialToken;
  eos?: SpecialToken;
  /** Tokens the context holds. */
  contextSize: number;
}

export interface ModelProvider {
  readonly provider: ProviderName;
  /** The model as the provider names it (file path for gguf, model id for APIs). */
  readonly modelId: string;
  /**
   * Stable identity used in cache keys and reports: provider, model and endpoint (base URL),
   * plus anything else that changes answers (chat template). Never contains a secret.
   */
  readonly identity: string;
  readonly capabilities: Capabilities;
  generate(request: GenerateRequest, options?: CallOptions): Promise<GenerateResult>;
  /**
   * `generate`, yielding the answer as it is produced (same request, same result). Present only on
   * providers that produce tokens one by one in process (gguf); the method itself is the capability.
   * A wrapped provider leaves it out: retries and caching cannot apply to a half-sent answer.
   * Ending the iteration early stops the generation.
   */
  stream?(request: GenerateRequest, options?: CallOptions): AsyncIterable<GenerateEvent>;
  score?(request: ScoreRequest, options?: CallOptions): Promise<ScoreResult>;
  embed?(request: EmbedRequest, options?: CallOptions): Promise<EmbedResult>;
  /** Tokens in a text, when the provider can count them locally (used for estimates). */
  countTokens?(text: string): Promise<number>;
  /** A text's token ids, without BOS, as the provider reads a raw prompt (gguf; `waver serve`'s /tokenize). */
  tokenize?(text: string): Promise<number[]>;
  /** The text of token ids (gguf; `waver serve`'s /detokenize). */
  detokenize?(tokens: number[]): Promise<string>;
  /** The special tokens a raw prompt starts (BOS) and ends with, and the context size (gguf; `waver serve`'s /tokenizer_info). */
  tokenizerInfo?(): TokenizerInfo;
  /** The provider's batch API, when it has one (docs/batch.md). */
  readonly batch?: BatchApi;
  close?(): Promise<void>;
}

/**
 * A provider's batch API (docs/batch.md): many generations submitted at once, answered within a
 * day at half the price. Present on a provider only when it has one (`openai:`, `anthropic:`);
 * the property itself is the capability. Every method's failure is a ProviderError.
 */
export interface BatchApi {
  /** The provider's own limits on one batch. */
  readonly limits: BatchLimits;
  /** Bytes the item adds to a submission (its JSONL line, or its part of the request body). */
  size(item: BatchItem): number;
  /**
   * Submits the items as one batch; resolves to the provider's batch id. A provider that submits in
   * two steps (OpenAI: the input file, then the batch over it) tells `onInput` the input's id
   * between them, so that a submission whose answer was lost is found again (`resubmit`), not
   * made twice (docs/batch.md#resume).
   */
  submit(items: readonly BatchItem[], options?: SubmitOptions): Promise<string>;
  /** The batch over an input `submit` told of: the one made already, else one made now. */
  resubmit?(inputRef: string, options?: CallOptions): Promise<string>;
  status(id: string, options?: CallOptions): Promise<BatchStatus>;
  /** The answers of an ended batch, in no set order; an item with no line was not answered. */
  results(id: string, options?: CallOptions): AsyncIterable<BatchOutcome>;
}

export interface SubmitOptions extends CallOptions {
  onInput?: (inputRef: string) => void;
}

export interface BatchLimits {
  maxRequests: number;
  maxBytes: number;
}

export interface BatchItem {
  /** Unique within its batch. */
  customId: string;
  request: GenerateRequest;
}

export interface BatchStatus {
  /** running: not ended yet; ended: its results can be read; failed: refused as a whole. */
  state: 'running' | 'ended' | 'failed';
  /** Requests answered or errored so far, of `total`. */
  finished: number;
  total: number;
  /** Why a batch failed, expired or was cancelled. */
  message?: string;
}

export type BatchOutcome =
  | { customId: string; ok: true; result: GenerateResult }
  | { customId: string; ok: false; error: ProviderError }
  /** Expired or cancelled before it was answered: to be asked again. */
  | { customId: string; ok: false; missing: string };

export type FetchFn = typeof globalThis.fetch;
