/**
 * A model call's shapes: the request that determines a response, the response, and the kinds of
 * error a call can end with. They sit below the providers (models/), the store and the engine,
 * which all hold them; models/types.ts and models/errors.ts give them under their old names too.
 */

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** Everything that determines a response. It is stored verbatim and hashed into the cache key. */
export interface GenerateRequest {
  messages: ChatMessage[];
  /** 0 by default: waver measures behaviour, not sampling noise, unless asked. */
  temperature?: number;
  maxTokens?: number;
  topP?: number;
  seed?: number;
  stop?: string[];
  /** Ask for per-token log-probs (when the provider can). */
  logprobs?: boolean;
  /** Ask for this many alternatives per token (when the provider can). */
  topLogprobs?: number;
  /**
   * Sent to a reasoning model (docs/decisions.md E12): `maxTokens` caps reasoning and answer
   * together (`max_completion_tokens`), and no sampling control is in the request, as none is sent.
   */
  reasoning?: true;
  /**
   * A plain-text prompt sent as is, with no chat template (OpenAI's legacy `/v1/completions`).
   * When set, `messages` is ignored (pass `[]`). Only providers that take raw text honour it (gguf);
   * other providers should reject it (ProviderError kind `unsupported`).
   */
  rawPrompt?: string;
  /**
   * Hold the answer to JSON: any JSON (`true`) or a value of this JSON schema (OpenAI's
   * `response_format`). Only gguf honours it, by grammar; `waver serve` is what asks for it.
   */
  json?: true | Record<string, unknown>;
}

export interface TokenLogprob {
  token: string;
  logprob: number;
  /** Entropy (nats) of the next-token distribution at this position; exact when `fullDistribution`. */
  entropy?: number;
  top?: { token: string; logprob: number }[];
}

/**
 * Why an answer ended. `refusal`: the model declined, and its text is what it said
 * (docs/decisions.md#e34-a-refusal-is-an-answer); `content_filter`: a filter cut or blanked it.
 */
export type FinishReason =
  | 'stop'
  | 'length'
  | 'refusal'
  | 'content_filter'
  | 'tool_calls'
  | 'error'
  | 'other';

export interface Usage {
  inputTokens: number;
  outputTokens: number;
}

export interface GenerateResult {
  text: string;
  tokens?: TokenLogprob[];
  finishReason: FinishReason;
  usage: Usage;
  /** The model name the server says answered (may differ from the requested alias). */
  responseModel?: string;
}

/** Why a model call failed (the ProviderError of models/errors.ts carries one). */
export type ProviderErrorKind =
  | 'rate_limit' // 429
  | 'server' // 5xx
  | 'timeout' // no answer within the per-request timeout
  | 'network' // connection refused / reset / DNS
  | 'bad_response' // malformed JSON or a body that does not fit the API
  | 'no_answer' // a 200 with no answer in it (no choices, null content and no refusal): not asked again
  | 'too_large' // a body past maxResponseBytes: it never fits, so it is not asked again
  | 'auth' // 401/403, missing key: stops the model (docs/decisions.md E35)
  | 'quota' // the account's quota or credit is spent (OpenAI's insufficient_quota, 402): stops the model
  | 'client' // other 4xx: the request itself is wrong
  | 'no_recording' // replay: no recorded answer for this request
  | 'unsupported'; // the provider lacks the capability
