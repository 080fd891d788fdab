import Anthropic, {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
} from '@anthropic-ai/sdk';
import { anthropicBatchApi } from './anthropic-batch.js';
import { type HttpProviderSettings, resolveEndpoint, sdkClientOptions } from './api-settings.js';
import { badResponse, describeBody, isObject, rejectRawPrompt, sdkErrorMapper } from './http-errors.js';
import { MAX_RESPONSE_BYTES } from './lean-fetch.js';
import type {
  CallOptions,
  Capabilities,
  FinishReason,
  GenerateRequest,
  GenerateResult,
  ModelProvider,
} from './types.js';
import { tokenCount } from './usage.js';

export interface AnthropicSettings extends HttpProviderSettings {
  /**
   * The `anthropic-version` header. Unset: the SDK's own (2026-10-21), which rejects temperature
   * and top_p with a 400, so none are sent and the model samples as the API decides.
   * '2023-06-01' (the previous version) still accepts them: temperature (default 0) and top_p are sent.
   */
  apiVersion?: string;
}

/** The last API version that accepts sampling parameters. */
export const ANTHROPIC_SAMPLING_API_VERSION = '2023-06-01';

export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';

/** The Messages API requires max_tokens; this is used when the request leaves it out. */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 1024;

export const ANTHROPIC_CAPABILITIES: Capabilities = {
  chat: true,
  tokenLogprobs: false,
  topLogprobs: 0,
  fullDistribution: false,
  scoreContinuation: false,
  embeddings: false,
};

const SDK_ERRORS = { APIError, APIConnectionError, APIConnectionTimeoutError, APIUserAbortError };

/** `anthropic:` — the Messages API through the official SDK. Chat only: no log-probs, no embeddings. */
export function createAnthropicProvider(settings: AnthropicSettings): ModelProvider {
  const endpoint = resolveEndpoint(settings, {
    provider: 'anthropic',
    defaultBaseURL: ANTHROPIC_DEFAULT_BASE_URL,
    baseURLEnv: 'ANTHROPIC_BASE_URL',
    apiKeyEnv: 'ANTHROPIC_API_KEY',
  });
  const clientWith = (maxResponseBytes?: number) =>
    new Anthropic({
      ...sdkClientOptions(endpoint, settings.fetch, maxResponseBytes),
      ...(settings.apiVersion && { defaultHeaders: { 'anthropic-version': settings.apiVersion } }),
    });
  // Interactive answers are bound; a batch's results file may be far larger than any one answer.
  const client = clientWith(settings.maxResponseBytes ?? MAX_RESPONSE_BYTES);
  // The API version changes what a request means (sampling), so a non-default one is part of the identity.
  const identity = `${endpoint.identity}${settings.apiVersion ? `;version=${settings.apiVersion}` : ''}`;
  const fail = sdkErrorMapper(SDK_ERRORS, identity, [endpoint.apiKey]);
  const sampling = settings.apiVersion === ANTHROPIC_SAMPLING_API_VERSION;
  /** The body a request is sent as, interactive or in a batch. */
  const body = (request: GenerateRequest) => {
    rejectRawPrompt(identity, request);
    return toMessagesBody(settings.model, request, { sampling });
  };

  return {
    provider: 'anthropic',
    modelId: settings.model,
    identity,
    capabilities: ANTHROPIC_CAPABILITIES,

    async generate(request: GenerateRequest, options: CallOptions = {}): Promise<GenerateResult> {
      const sent = body(request);
      try {
        const answer = await client.messages.create(sent, { signal: options.signal });
        return fromMessagesBody(answer as unknown);
      } catch (err) {
        throw fail(err, options.signal);
      }
    },

    batch: anthropicBatchApi({ client: clientWith(), identity, body, read: fromMessagesBody, fail }),
  };
}

/**
 * System messages go to the `system` parameter (joined by blank lines). `seed` and log-probs have
 * no Messages API equivalent and are not sent; temperature and top_p only with `sampling`
 * (API version 2023-06-01, see AnthropicSettings.apiVersion).
 */
export function toMessagesBody(
  model: string,
  request: GenerateRequest,
  opts: { sampling?: boolean } = {},
): Anthropic.Messages.MessageCreateParamsNonStreaming {
  const system = request.messages
    .filter((m) => m.role === 'system')
    .map((m) => m.content)
    .join('\n\n');
  const messages = request.messages
    .filter((m) => m.role !== 'system')
    .map((m) => ({ role: m.role as 'user' | 'assistant', content: m.content }));
  const body: Anthropic.Messages.MessageCreateParamsNonStreaming = {
    model,
    max_tokens: request.maxTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS,
    messages,
    ...(system && { system }),
    ...(request.stop?.length && { stop_sequences: request.stop }),
  };
  if (!opts.sampling) return body;
  // Not in the SDK's types any more (they follow the newest API version), hence the widening.
  return {
    ...body,
    temperature: request.temperature ?? 0,
    ...(request.topP !== undefined && { top_p: request.topP }),
  } as Anthropic.Messages.MessageCreateParamsNonStreaming;
}

const FINISH: Record<string, FinishReason> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  tool_use: 'tool_calls',
  // The model declined: what it wrote is its answer (docs/decisions.md#e34-a-refusal-is-an-answer).
  refusal: 'refusal',
};

export function fromMessagesBody(body: unknown): GenerateResult {
  if (!isObject(body)) throw badResponse(`expected a JSON object, got ${describeBody(body)}`);
  if (!Array.isArray(body.content)) throw badResponse('the body has no content array');
  // Text blocks only; thinking and tool-use blocks are not the answer text.
  const text = body.content
    .filter((block): block is Record<string, unknown> => isObject(block) && block.type === 'text')
    .map((block) => {
      if (typeof block.text !== 'string') throw badResponse('a text block has no text');
      return block.text;
    })
    .join('');
  const usage = isObject(body.usage) ? body.usage : {};
  const result: GenerateResult = {
    text,
    finishReason: typeof body.stop_reason === 'string' ? (FINISH[body.stop_reason] ?? 'other') : 'other',
    usage: { inputTokens: tokenCount(usage.input_tokens), outputTokens: tokenCount(usage.output_tokens) },
  };
  if (typeof body.model === 'string') result.responseModel = body.model;
  return result;
}
