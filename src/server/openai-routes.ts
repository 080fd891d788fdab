import type { Route } from '../http/route-table.js';
import { ProviderError } from '../models/errors.js';
import type { ModelProvider } from '../models/types.js';
import { blamingParam, decodeId, type Exchange, HttpError, readJsonBody, sendJson } from './http-util.js';
import { ensureServedModel, modelNotFound } from './model-name.js';
import { answerChat, answerCompletion, promptRequest } from './openai-answers.js';
import { parseChatRequest, parseCompletionRequest, parseEmbeddingRequest } from './openai-requests.js';
import { embeddingList, type ResponseMeta } from './openai-responses.js';
import { generateEvents, streamChat, streamCompletion } from './openai-stream.js';
import { newResponseIds, parseResponsesRequest, responseObject, streamResponse } from './responses-api.js';
import { ServedTokenizer } from './served-tokenizer.js';
import { tokenizerRoutes } from './tokenizer-routes.js';

/** The one model a server serves, and what its answers say about it. */
export interface ServedModel {
  /** Its calls through the call path (`served-model.ts`). */
  provider: ModelProvider;
  /** The id clients see in `/v1/models` and every response's `model`. */
  name: string;
  /** Each answer's id, time, model and fingerprint. */
  meta(prefix: 'chatcmpl' | 'cmpl'): ResponseMeta;
  /** Largest request body accepted. */
  maxBodyBytes: number;
  /** Unix seconds. */
  startedAt: number;
}

/**
 * The model's routes: OpenAI's models, chat, completions, responses and embeddings, a health
 * check, and vLLM's tokenizer routes, which lm-evaluation-harness's `tokenizer_backend=remote` reads.
 */
export function modelRoutes(m: ServedModel): Route<Exchange>[] {
  const modelObject = { id: m.name, object: 'model', created: m.startedAt, owned_by: 'waver' };
  const body = (x: Exchange) => readJsonBody(x.req, m.maxBodyBytes);
  // A generating route's body names its model: only the served one is answered.
  const modelBody = async (x: Exchange) => {
    const parsed = await body(x);
    ensureServedModel(m.name, parsed);
    return parsed;
  };
  return [
    { method: 'GET', path: '/health', handle: ({ res }) => sendJson(res, 200, { status: 'ok' }) },
    {
      method: 'GET',
      path: '/v1/models',
      handle: ({ res }) => sendJson(res, 200, { object: 'list', data: [modelObject] }),
    },
    {
      method: 'GET',
      path: '/v1/models/:id*',
      handle: ({ res }, p) => {
        const id = decodeId(p.id ?? '', 'model');
        if (id !== m.name) throw modelNotFound(id, m.name);
        sendJson(res, 200, modelObject);
      },
    },
    {
      method: 'POST',
      path: '/v1/chat/completions',
      handle: async (x) => blamingParam('messages', chat(m, x, await modelBody(x))),
    },
    {
      method: 'POST',
      path: '/v1/completions',
      handle: async (x) => blamingParam('prompt', completion(m, x, await modelBody(x))),
    },
    {
      method: 'POST',
      path: '/v1/responses',
      handle: async (x) => blamingParam('input', responses(m, x, await modelBody(x))),
    },
    {
      method: 'POST',
      path: '/v1/embeddings',
      handle: async (x) => blamingParam('input', embeddings(m, x, await modelBody(x))),
    },
    ...tokenizerRoutes(m),
  ];
}

async function chat(m: ServedModel, { res, signal }: Exchange, body: unknown): Promise<void> {
  const call = parseChatRequest(body);
  const meta = m.meta('chatcmpl');
  try {
    if (call.stream)
      return await streamChat(res, generateEvents(m.provider, call.request, signal), meta, call);
    sendJson(res, 200, await answerChat(m.provider, call, meta, signal));
  } catch (error) {
    throw schemaRefused(error, call.tools.length > 0 ? 'tools' : 'response_format.json_schema.schema');
  }
}

/** A schema the grammar cannot hold is the parameter's that gave it. */
function schemaRefused(error: unknown, param: string): unknown {
  if (error instanceof ProviderError && error.reason === 'invalid_json_schema')
    return new HttpError(400, error.message, { param, code: 'invalid_json_schema' });
  return error;
}

async function completion(m: ServedModel, { res, signal }: Exchange, body: unknown): Promise<void> {
  const call = parseCompletionRequest(body);
  const meta = m.meta('cmpl');
  if (call.stream) {
    const { prompt, request } = await promptRequest(new ServedTokenizer(m.provider, m.name), call, 0);
    return streamCompletion(res, generateEvents(m.provider, request, signal), meta, call, prompt.length);
  }
  sendJson(res, 200, await answerCompletion(m.provider, call, meta, signal));
}

async function responses(m: ServedModel, { res, signal }: Exchange, body: unknown): Promise<void> {
  const call = parseResponsesRequest(body);
  const ids = newResponseIds(m.name);
  const withTools = call.tools.length > 0;
  try {
    if (call.stream)
      return await streamResponse(res, generateEvents(m.provider, call.request, signal), ids, withTools);
    sendJson(res, 200, responseObject(ids, await m.provider.generate(call.request, { signal }), withTools));
  } catch (error) {
    throw schemaRefused(error, withTools ? 'tools' : 'text.format.schema');
  }
}

async function embeddings(m: ServedModel, { res, signal }: Exchange, body: unknown): Promise<void> {
  const call = parseEmbeddingRequest(body);
  const { provider } = m;
  if (!provider.embed || !provider.capabilities.embeddings)
    throw new HttpError(400, `The model '${m.name}' does not support embeddings.`, {
      param: 'model',
      code: 'unsupported',
    });
  const result = await provider.embed({ input: call.input }, { signal });
  const width = result.embeddings[0]?.length;
  if (call.dimensions !== undefined && call.dimensions !== width)
    throw new HttpError(
      400,
      `This model's embeddings have ${width} dimensions; 'dimensions' cannot change that.`,
      {
        param: 'dimensions',
        code: 'invalid_value',
      },
    );
  sendJson(res, 200, embeddingList(m.name, result.embeddings, call.encoding, result.usage?.inputTokens ?? 0));
}
