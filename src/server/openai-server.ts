import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename } from 'node:path';
import { InputError } from '../errors.js';
import { ProviderError } from '../models/errors.js';
import type { ModelProvider } from '../models/types.js';
import { decodeId, HttpError, readJsonBody, sendError, sendJson, toHttpError } from './http-util.js';
import { listen } from './listen.js';
import { answerChat, answerCompletion } from './openai-answers.js';
import { batchService } from './openai-batches.js';
import { parseChatRequest, parseCompletionRequest, parseEmbeddingRequest } from './openai-requests.js';
import { embeddingList, newId, newRequestId, type ResponseMeta, unixSeconds } from './openai-responses.js';
import { generateEvents, streamChat, streamCompletion } from './openai-stream.js';
import { foreignRequest, isLoopbackHost } from './request-origin.js';
import { newResponseIds, parseResponsesRequest, responseObject, streamResponse } from './responses-api.js';

export interface OpenAIServerOptions {
  provider: ModelProvider;
  /** The id clients see in `/v1/models` and every response's `model` (default: the model file's name). */
  modelName?: string;
  /** Default 127.0.0.1. Anything but a loopback address needs `allowRemote`. */
  host?: string;
  /** Default 0: any free port. */
  port?: number;
  /** The API has no authentication: binding beyond loopback must be asked for explicitly. */
  allowRemote?: boolean;
  /** One line per request (method, path, status, time); never bodies. */
  log?: (line: string) => void;
  /** Largest request body accepted (default 8 MiB); larger ones get a 413. */
  maxBodyBytes?: number;
  /** Largest batch input file accepted by POST /v1/files (default OpenAI's 200 MB). */
  maxFileBytes?: number;
  /** What all files (inputs and outputs) may hold together (default 1 GiB); an upload past it gets a 413. */
  maxStorageBytes?: number;
  /** The life of a file uploaded without `expires_after`, and of a batch's output (default 30 days). */
  fileTtlSeconds?: number;
}

export interface OpenAIServer {
  /** Base URL for OpenAI clients, e.g. `http://127.0.0.1:PORT/v1`. */
  url: string;
  host: string;
  port: number;
  /** Stops listening, aborts requests in flight and closes connections. The provider stays open (the caller owns it). */
  close(): Promise<void>;
}

export const DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024;

const ROUTES: Record<string, 'GET' | 'POST'> = {
  '/v1/models': 'GET',
  '/v1/chat/completions': 'POST',
  '/v1/completions': 'POST',
  '/v1/embeddings': 'POST',
  '/v1/responses': 'POST',
  '/health': 'GET',
  // vLLM's tokenizer routes, which lm-evaluation-harness's `tokenizer_backend=remote` reads.
  '/tokenizer_info': 'GET',
  '/tokenize': 'POST',
  '/detokenize': 'POST',
};

/** Serves a provider (a gguf model, typically) as an OpenAI-compatible HTTP API on node:http. */
export async function startOpenAIServer(opts: OpenAIServerOptions): Promise<OpenAIServer> {
  const host = opts.host ?? '127.0.0.1';
  if (!isLoopbackHost(host) && opts.allowRemote !== true) {
    throw new InputError(
      `refusing to bind ${host}: it is not a loopback address and the API has no authentication; ` +
        'pass allowRemote: true (waver serve --allow-remote) to expose the model on the network',
      { field: 'host' },
    );
  }
  const { provider } = opts;
  const modelName = opts.modelName ?? basename(provider.modelId);
  const maxBody = opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const systemFingerprint = `fp_${createHash('sha256').update(provider.identity).digest('hex').slice(0, 10)}`;
  const startedAt = unixSeconds();
  const inFlight = new Set<AbortController>();
  const meta = (prefix: 'chatcmpl' | 'cmpl'): ResponseMeta => ({
    id: newId(prefix),
    created: unixSeconds(),
    model: modelName,
    systemFingerprint,
  });
  const modelObject = { id: modelName, object: 'model', created: startedAt, owned_by: 'waver' };
  const batches = batchService({
    provider,
    meta,
    maxBodyBytes: maxBody,
    ...(opts.maxFileBytes !== undefined && { maxFileBytes: opts.maxFileBytes }),
    ...(opts.maxStorageBytes !== undefined && { maxStorageBytes: opts.maxStorageBytes }),
    ...(opts.fileTtlSeconds !== undefined && { fileTtlSeconds: opts.fileTtlSeconds }),
  });

  async function route(req: IncomingMessage, res: ServerResponse, signal: AbortSignal): Promise<void> {
    const method = req.method ?? 'GET';
    const path = new URL(req.url ?? '/', 'http://localhost').pathname.replace(/(.)\/+$/, '$1');
    if (path.startsWith('/v1/models/') && method === 'GET') {
      const id = decodeId(path.slice('/v1/models/'.length), 'model');
      if (id !== modelName) {
        throw new HttpError(404, `The model '${id}' does not exist`, {
          param: 'model',
          code: 'model_not_found',
        });
      }
      return sendJson(res, 200, modelObject);
    }
    if (await batches.route(req, res, method, path)) return;
    const allowed = ROUTES[path];
    if (!allowed) throw new HttpError(404, `Invalid URL (${method} ${path})`, { code: 'unknown_url' });
    if (method !== allowed) {
      throw new HttpError(405, `Method ${method} is not allowed on ${path}; use ${allowed}.`, {
        code: 'method_not_allowed',
        headers: { allow: allowed },
      });
    }
    if (path === '/health') return sendJson(res, 200, { status: 'ok' });
    if (path === '/v1/models') return sendJson(res, 200, { object: 'list', data: [modelObject] });

    if (path === '/tokenizer_info') return sendJson(res, 200, { tokenizer_class: 'gguf', model: modelName });
    const body = await readJsonBody(req, maxBody);
    if (path === '/tokenize' || path === '/detokenize')
      return sendJson(res, 200, await tokenizer(path, body));
    if (path === '/v1/chat/completions') {
      const call = parseChatRequest(body);
      const m = meta('chatcmpl');
      try {
        if (call.stream)
          return await streamChat(res, generateEvents(provider, call.request, signal), m, call);
        return sendJson(res, 200, await answerChat(provider, call, m, signal));
      } catch (error) {
        // A schema the grammar cannot hold is the parameter's that gave it.
        if (error instanceof ProviderError && error.reason === 'invalid_json_schema')
          throw new HttpError(400, error.message, {
            param: call.tools.length > 0 ? 'tools' : 'response_format.json_schema.schema',
            code: 'invalid_json_schema',
          });
        throw error;
      }
    }
    if (path === '/v1/completions') {
      const call = parseCompletionRequest(body);
      const m = meta('cmpl');
      if (call.stream) return streamCompletion(res, generateEvents(provider, call.request, signal), m, call);
      return sendJson(res, 200, await answerCompletion(provider, call, m, signal));
    }
    if (path === '/v1/responses') {
      const call = parseResponsesRequest(body);
      const ids = newResponseIds(modelName);
      if (call.stream) return streamResponse(res, generateEvents(provider, call.request, signal), ids);
      return sendJson(res, 200, responseObject(ids, await provider.generate(call.request, { signal })));
    }
    // /v1/embeddings
    const call = parseEmbeddingRequest(body);
    if (!provider.embed || !provider.capabilities.embeddings) {
      throw new HttpError(400, `The model '${modelName}' does not support embeddings.`, {
        param: 'model',
        code: 'unsupported',
      });
    }
    const result = await provider.embed({ input: call.input }, { signal });
    const width = result.embeddings[0]?.length;
    if (call.dimensions !== undefined && call.dimensions !== width) {
      throw new HttpError(
        400,
        `This model's embeddings have ${width} dimensions; 'dimensions' cannot change that.`,
        {
          param: 'dimensions',
          code: 'invalid_value',
        },
      );
    }
    return sendJson(
      res,
      200,
      embeddingList(modelName, result.embeddings, call.encoding, result.usage?.inputTokens ?? 0),
    );
  }

  /** vLLM's `/tokenize` (`{prompt}` to `{tokens, count}`, no BOS) and `/detokenize` (`{tokens}` to `{prompt}`). */
  async function tokenizer(path: string, body: unknown) {
    if (!provider.tokenize || !provider.detokenize)
      throw new HttpError(400, `The model '${modelName}' has no tokenizer to expose.`, {
        code: 'unsupported',
      });
    const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    if (path === '/tokenize') {
      if (typeof b.prompt !== 'string')
        throw new HttpError(400, "Missing required parameter: 'prompt' (a string).", {
          param: 'prompt',
          code: 'missing_required_parameter',
        });
      const tokens = await provider.tokenize(b.prompt);
      return { tokens, count: tokens.length, max_model_len: null };
    }
    const tokens = b.tokens;
    if (!Array.isArray(tokens) || tokens.some((t) => !Number.isInteger(t) || t < 0))
      throw new HttpError(400, "Invalid value for 'tokens': expected an array of token ids.", {
        param: 'tokens',
        code: 'invalid_value',
      });
    return { prompt: await provider.detokenize(tokens as number[]) };
  }

  const server = createServer((req, res) => {
    const started = performance.now();
    // OpenAI's header: a client logs it with a failure, and it matches this server's log line.
    const requestId = newRequestId();
    res.setHeader('x-request-id', requestId);
    const controller = new AbortController();
    inFlight.add(controller);
    // A client that hangs up stops its generation instead of holding the model.
    res.on('close', () => {
      inFlight.delete(controller);
      if (!res.writableFinished) controller.abort(new Error('client disconnected'));
      opts.log?.(
        `${req.method} ${req.url} ${res.statusCode} ${Math.round(performance.now() - started)}ms ${requestId}`,
      );
    });
    const refused = foreignRequest(req, { boundHost: host });
    const handled = refused
      ? Promise.reject(new HttpError(403, `Forbidden: ${refused}.`, { code: 'forbidden' }))
      : route(req, res, controller.signal);
    handled.catch((error: unknown) => {
      if (controller.signal.aborted || res.headersSent) {
        if (!res.writableEnded) res.destroy();
        return;
      }
      const httpError = toHttpError(error);
      // A body refused before it was read: tell the client, then drop the connection rather than read it.
      if (!req.complete) res.setHeader('connection', 'close');
      sendError(res, httpError);
    });
  });
  server.on('clientError', (_error, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n');
  });

  await listen(server, opts.port ?? 0, host);
  const address = server.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost}:${address.port}/v1`,
    host: address.address,
    port: address.port,
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        batches.close();
        server.close((error) => (error ? reject(error) : resolve()));
        for (const controller of inFlight) controller.abort(new Error('server closing'));
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
