import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename } from 'node:path';
import { InputError } from '../errors.js';
import { listen } from '../http/listen.js';
import { foreignRequest, isLoopbackHost } from '../http/request-origin.js';
import { RouteTable } from '../http/route-table.js';
import type { ModelProvider } from '../models/types.js';
import { type Exchange, HttpError, sendError, toHttpError } from './http-util.js';
import { BatchService } from './openai-batches.js';
import { newId, newRequestId, unixSeconds } from './openai-responses.js';
import { modelRoutes, type ServedModel } from './openai-routes.js';
import { type ServeCallLimits, servedModel } from './served-model.js';

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
  /** How the provider's generations, scores and embeddings are called: a timeout, retries (docs/serve.md#calls). */
  calls?: ServeCallLimits;
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
  const model = servedModelOf(opts);
  const batches = new BatchService({
    provider: model.provider,
    meta: model.meta,
    maxBodyBytes: model.maxBodyBytes,
    ...(opts.maxFileBytes !== undefined && { maxFileBytes: opts.maxFileBytes }),
    ...(opts.maxStorageBytes !== undefined && { maxStorageBytes: opts.maxStorageBytes }),
    ...(opts.fileTtlSeconds !== undefined && { ttlSeconds: opts.fileTtlSeconds }),
  });
  const routes = new RouteTable<Exchange>([...modelRoutes(model), ...batches.routes()]);
  const inFlight = new Set<AbortController>();
  const server = createServer((req, res) => answer(req, res, { routes, host, inFlight, log: opts.log }));
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

function servedModelOf(opts: OpenAIServerOptions): ServedModel {
  const { provider } = opts;
  const name = opts.modelName ?? basename(provider.modelId);
  const systemFingerprint = `fp_${createHash('sha256').update(provider.identity).digest('hex').slice(0, 10)}`;
  return {
    provider: servedModel(provider, opts.calls),
    name,
    meta: (prefix) => ({ id: newId(prefix), created: unixSeconds(), model: name, systemFingerprint }),
    maxBodyBytes: opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    startedAt: unixSeconds(),
  };
}

interface ServerState {
  routes: RouteTable<Exchange>;
  /** The address the server is bound to (who may call it: `http/request-origin.ts`). */
  host: string;
  /** Requests in flight: a closing server aborts them. */
  inFlight: Set<AbortController>;
  log: ((line: string) => void) | undefined;
}

/** One request: refused when it comes from a web page, else routed; a failure answered in OpenAI's error shape. */
function answer(req: IncomingMessage, res: ServerResponse, state: ServerState): void {
  const started = performance.now();
  // OpenAI's header: a client logs it with a failure, and it matches this server's log line.
  const requestId = newRequestId();
  res.setHeader('x-request-id', requestId);
  const controller = new AbortController();
  state.inFlight.add(controller);
  // A client that hangs up stops its generation instead of holding the model.
  res.on('close', () => {
    state.inFlight.delete(controller);
    if (!res.writableFinished) controller.abort(new Error('client disconnected'));
    state.log?.(
      `${req.method} ${req.url} ${res.statusCode} ${Math.round(performance.now() - started)}ms ${requestId}`,
    );
  });
  const refused = foreignRequest(req, { boundHost: state.host });
  const handled = refused
    ? Promise.reject(new HttpError(403, `Forbidden: ${refused}.`, { code: 'forbidden' }))
    : route(state.routes, { req, res, signal: controller.signal });
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
}

async function route(routes: RouteTable<Exchange>, exchange: Exchange): Promise<void> {
  const method = exchange.req.method ?? 'GET';
  const path = new URL(exchange.req.url ?? '/', 'http://localhost').pathname.replace(/(.)\/+$/, '$1');
  const found = routes.find(method, path);
  if ('handle' in found) return found.handle(exchange);
  if (found.status === 404)
    throw new HttpError(404, `Invalid URL (${method} ${path})`, { code: 'unknown_url' });
  throw new HttpError(405, `Method ${method} is not allowed on ${path}; use ${found.allow.join(' or ')}.`, {
    code: 'method_not_allowed',
    headers: { allow: found.allow.join(', ') },
  });
}
