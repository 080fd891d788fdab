import type OpenAI from 'openai';
import { importModule } from '../util/import-module.js';
import { type HttpProviderSettings, resolveEndpoint, sdkClientOptions } from './api-settings.js';
import { ProviderError } from './errors.js';
import { badResponse, describeBody, isObject, rejectRawPrompt, sdkErrorMapper } from './http-errors.js';
import { jsonApi } from './json-api.js';
import { boundedFetch, MAX_RESPONSE_BYTES } from './lean-fetch.js';
import { type OpenAISdk, openAIBatchApi } from './openai-batch.js';
import { asReasoningRequest, isReasoningModelId } from './reasoning.js';
import type {
  CallOptions,
  Capabilities,
  EmbedRequest,
  EmbedResult,
  FinishReason,
  GenerateRequest,
  GenerateResult,
  ModelProvider,
  TokenLogprob,
} from './types.js';
import { tokenCount } from './usage.js';

/** `baseURL` may be any OpenAI-compatible endpoint. */
export interface OpenAISettings extends HttpProviderSettings {
  /** A reasoning model (docs/decisions.md E12); unset: guessed from the model id. */
  reasoning?: boolean;
}

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

/** The API's cap on `top_logprobs`. */
const MAX_TOP_LOGPROBS = 20;

export const OPENAI_CAPABILITIES: Capabilities = {
  chat: true,
  tokenLogprobs: true,
  topLogprobs: MAX_TOP_LOGPROBS,
  fullDistribution: false,
  scoreContinuation: false,
  embeddings: true,
};

/**
 * `openai:` — chat completions and embeddings against any OpenAI-compatible server, through
 * waver's own JSON client; batches through the official SDK, loaded only then
 * (docs/decisions.md#e10). Entropy is left undefined: a top-20 approximation would pass for the
 * exact figure; protocols that want it can compute it from `top` and say so.
 */
export function createOpenAIProvider(settings: OpenAISettings): ModelProvider {
  const endpoint = resolveEndpoint(settings, {
    provider: 'openai',
    defaultBaseURL: OPENAI_DEFAULT_BASE_URL,
    baseURLEnv: 'OPENAI_BASE_URL',
    apiKeyEnv: 'OPENAI_API_KEY',
  });
  const { env, identity } = endpoint;
  // Read from the given env, never from process.env behind an injected one.
  const organization = env.OPENAI_ORG_ID;
  const project = env.OPENAI_PROJECT_ID;
  const api = jsonApi({
    baseURL: endpoint.baseURL,
    fetch: settings.fetch ?? boundedFetch(settings.maxResponseBytes ?? MAX_RESPONSE_BYTES),
    headers: {
      authorization: `Bearer ${endpoint.apiKey}`,
      ...(organization && { 'openai-organization': organization }),
      ...(project && { 'openai-project': project }),
    },
  });
  const fail = sdkErrorMapper(undefined, identity, [endpoint.apiKey]);
  let sdk: Promise<OpenAISdk> | undefined;
  const loadSdk = () =>
    (sdk ??= importModule<typeof import('openai')>('openai').then((m) => ({
      client: new m.default({
        ...sdkClientOptions(endpoint, settings.fetch),
        organization: organization ?? null,
        project: project ?? null,
        webhookSecret: null,
      }),
      toFile: m.toFile,
      fail: sdkErrorMapper(m, identity, [endpoint.apiKey]),
    })));
  const reasoning = settings.reasoning ?? isReasoningModelId(settings.model);
  /** The body a request is sent as, interactive or in a batch. */
  const chatBody = (request: GenerateRequest) => {
    rejectRawPrompt(identity, request);
    // Whoever built the request, a reasoning model is sent only what it takes.
    return toChatBody(settings.model, reasoning ? asReasoningRequest(request) : request);
  };

  return {
    provider: 'openai',
    modelId: settings.model,
    identity,
    capabilities: OPENAI_CAPABILITIES,

    async generate(request: GenerateRequest, options: CallOptions = {}): Promise<GenerateResult> {
      const sent = chatBody(request);
      try {
        return fromChatBody(await api.post('/chat/completions', sent, options.signal));
      } catch (err) {
        throw fail(err, options.signal);
      }
    },

    async embed(request: EmbedRequest, options: CallOptions = {}): Promise<EmbedResult> {
      try {
        const body = await api.post(
          '/embeddings',
          // 'float' explicitly: many compatible servers lack base64.
          { model: settings.model, input: request.input, encoding_format: 'float' },
          options.signal,
        );
        return fromEmbeddingBody(body, request.input.length);
      } catch (err) {
        throw fail(err, options.signal);
      }
    },

    batch: openAIBatchApi({ sdk: loadSdk, identity, body: chatBody, read: fromChatBody }),
  };
}

export function toChatBody(
  model: string,
  request: GenerateRequest,
): OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming {
  const messages = request.messages.map((m) => ({ role: m.role, content: m.content }));
  if (request.reasoning)
    return {
      model,
      messages,
      ...(request.maxTokens !== undefined && { max_completion_tokens: request.maxTokens }),
      ...(request.seed !== undefined && { seed: request.seed }),
      ...(request.stop?.length && { stop: request.stop }),
    };
  const top = request.topLogprobs ? Math.min(request.topLogprobs, MAX_TOP_LOGPROBS) : 0;
  const wantLogprobs = Boolean(request.logprobs) || top > 0;
  return {
    model,
    messages,
    temperature: request.temperature ?? 0,
    ...(request.maxTokens !== undefined && { max_tokens: request.maxTokens }),
    ...(request.topP !== undefined && { top_p: request.topP }),
    ...(request.seed !== undefined && { seed: request.seed }),
    ...(request.stop?.length && { stop: request.stop }),
    ...(wantLogprobs && { logprobs: true }),
    ...(top > 0 && { top_logprobs: top }),
  };
}

const FINISH: Record<string, FinishReason> = {
  stop: 'stop',
  length: 'length',
  content_filter: 'content_filter',
  tool_calls: 'tool_calls',
  function_call: 'tool_calls',
};

/** Validates the body by hand: a compatible server may send anything, and the SDK does not check. */
export function fromChatBody(body: unknown): GenerateResult {
  if (!isObject(body)) throw badResponse(`expected a JSON object, got ${describeBody(body)}`);
  const choice = Array.isArray(body.choices) ? body.choices[0] : undefined;
  if (!isObject(choice)) throw noChoice(body);
  const message = choice.message;
  if (!isObject(message)) throw badResponse('choices[0] has no message');
  const content = message.content;
  if (content !== null && content !== undefined && typeof content !== 'string') {
    throw badResponse('choices[0].message.content is not a string');
  }
  // A model that declines has answered: its refusal is the text (docs/decisions.md#e34-a-refusal-is-an-answer).
  const refusal = typeof message.refusal === 'string' && message.refusal !== '' ? message.refusal : undefined;
  const finishReason: FinishReason = refusal
    ? 'refusal'
    : typeof choice.finish_reason === 'string'
      ? (FINISH[choice.finish_reason] ?? 'other')
      : 'other';
  // No text is an answer only when the finish reason says why (a filter, a tool call); else it is
  // the error it is, not an empty answer, and not asked again: it was billed, and a server that
  // sent it once sends it again.
  if ((content === null || content === undefined) && !refusal && !TEXTLESS.has(finishReason)) {
    throw new ProviderError(
      'no_answer',
      `no answer: choices[0].message.content is ${content === null ? 'null' : 'missing'} (finish_reason ${JSON.stringify(choice.finish_reason ?? null)})`,
    );
  }
  const usage = isObject(body.usage) ? body.usage : {};
  const result: GenerateResult = {
    text: content || refusal || '',
    finishReason,
    usage: {
      inputTokens: tokenCount(usage.prompt_tokens),
      outputTokens: tokenCount(usage.completion_tokens),
    },
  };
  const tokens = readLogprobs(choice.logprobs);
  if (tokens) result.tokens = tokens;
  if (typeof body.model === 'string') result.responseModel = body.model;
  return result;
}

/** Finish reasons that explain an answer with no text. */
const TEXTLESS: ReadonlySet<FinishReason> = new Set(['content_filter', 'tool_calls']);

/** A body without a first choice: an error a proxy sent as a 200 (retried), or a 200 that holds no answer. */
function noChoice(body: Record<string, unknown>): ProviderError {
  // Some proxies answer 200 with an error object instead of an error status.
  if (isObject(body.error) && typeof body.error.message === 'string')
    return badResponse(`the body has no choices: ${body.error.message}`);
  if (Array.isArray(body.choices))
    return new ProviderError('no_answer', 'no answer: the body has no choices');
  return badResponse('the body has no choices');
}

function readLogprobs(logprobs: unknown): TokenLogprob[] | undefined {
  if (!isObject(logprobs) || !Array.isArray(logprobs.content)) return undefined;
  return logprobs.content.map((entry, i) => {
    if (!isObject(entry) || typeof entry.token !== 'string' || typeof entry.logprob !== 'number') {
      throw badResponse(`choices[0].logprobs.content[${i}] is not {token, logprob}`);
    }
    const out: TokenLogprob = { token: entry.token, logprob: entry.logprob };
    if (Array.isArray(entry.top_logprobs) && entry.top_logprobs.length > 0) {
      out.top = entry.top_logprobs.map((alt, j) => {
        if (!isObject(alt) || typeof alt.token !== 'string' || typeof alt.logprob !== 'number') {
          throw badResponse(`choices[0].logprobs.content[${i}].top_logprobs[${j}] is not {token, logprob}`);
        }
        return { token: alt.token, logprob: alt.logprob };
      });
    }
    return out;
  });
}

export function fromEmbeddingBody(body: unknown, expected: number): EmbedResult {
  if (!isObject(body) || !Array.isArray(body.data))
    throw badResponse('the embeddings body has no data array');
  const rows = body.data.map((row, i) => {
    if (
      !isObject(row) ||
      !Array.isArray(row.embedding) ||
      !row.embedding.every((x) => typeof x === 'number')
    ) {
      throw badResponse(`data[${i}].embedding is not an array of numbers`);
    }
    return { index: typeof row.index === 'number' ? row.index : i, embedding: row.embedding as number[] };
  });
  if (rows.length !== expected) throw badResponse(`asked for ${expected} embeddings, got ${rows.length}`);
  rows.sort((a, b) => a.index - b.index);
  const result: EmbedResult = { embeddings: rows.map((r) => r.embedding) };
  if (isObject(body.usage) && typeof body.usage.prompt_tokens === 'number') {
    result.usage = { inputTokens: body.usage.prompt_tokens };
  }
  return result;
}
