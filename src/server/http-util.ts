import type { IncomingMessage, ServerResponse } from 'node:http';
import { ProviderError } from '../models/errors.js';

/** One request to a route of `waver serve`: its handler answers `res`; `signal` fires when the client hangs up. */
export interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  signal: AbortSignal;
}

/** An HTTP failure in OpenAI's error shape: `{error: {message, type, param, code}}`. */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  readonly status: number;
  readonly type: string;
  readonly param: string | null;
  readonly code: string | null;
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    message: string,
    opts: {
      type?: string;
      param?: string | null;
      code?: string | null;
      headers?: Record<string, string>;
    } = {},
  ) {
    super(message);
    this.status = status;
    this.type = opts.type ?? (status >= 500 ? 'server_error' : 'invalid_request_error');
    this.param = opts.param ?? null;
    this.code = opts.code ?? null;
    this.headers = opts.headers ?? {};
  }

  body(): { error: { message: string; type: string; param: string | null; code: string | null } } {
    return { error: { message: this.message, type: this.type, param: this.param, code: this.code } };
  }
}

/**
 * Reads a body of at most `limit` bytes. A declared Content-Length over the limit is refused
 * before reading; a body that grows past it while streaming is refused as soon as it does, and
 * the rest is discarded unread rather than the socket reset, so the client gets the 413 (the
 * caller answers with `connection: close`).
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const tooLarge = () =>
    new HttpError(413, `Request body is larger than the limit of ${limit} bytes.`, {
      code: 'request_too_large',
    });
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(tooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
      else {
        req.off('data', onData);
        req.resume();
        reject(tooLarge());
      }
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks)));
    req.once('error', reject);
  });
}

/**
 * Reads a JSON body of at most `limit` bytes (see readBody). It must be sent as
 * `application/json`: a browser sends another origin's `text/plain` or form post without asking,
 * but never JSON (docs/batch.md#who-may-call-waver-serve).
 */
export async function readJsonBody(req: IncomingMessage, limit: number): Promise<unknown> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json')
    throw new HttpError(
      415,
      `The request body must be sent with Content-Type: application/json, got ${JSON.stringify(req.headers['content-type'] ?? '')}.`,
      { code: 'unsupported_media_type' },
    );
  const text = (await readBody(req, limit)).toString('utf8');
  if (text.trim() === '') {
    throw new HttpError(400, 'The request body is empty; expected a JSON object.', { code: 'invalid_json' });
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new HttpError(
      400,
      `We could not parse the JSON body of your request. (${error instanceof Error ? error.message : String(error)})`,
      { code: 'invalid_json' },
    );
  }
}

/** A path segment naming an id (`/v1/files/ID`), %-decoded; a malformed escape is the client's 400. */
export function decodeId(segment: string, param: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new HttpError(400, `Invalid ${param} id ${JSON.stringify(segment)}: a malformed %-escape.`, {
      param,
      code: 'invalid_value',
    });
  }
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(payload),
    ...headers,
  });
  res.end(payload);
}

export function sendError(res: ServerResponse, error: HttpError): void {
  sendJson(res, error.status, error.body(), error.headers);
}

/** Server-sent events, OpenAI style: `data: {json}` frames and a closing `data: [DONE]`. */
export function startEventStream(res: ServerResponse): { send(data: unknown): void; done(): void } {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  return {
    send: (data) => {
      res.write(`data: ${JSON.stringify(data)}\n\n`);
    },
    done: () => {
      res.end('data: [DONE]\n\n');
    },
  };
}

/** What a failure is answered with: a provider's error by its kind, anything else a 500. */
export function toHttpError(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  if (error instanceof ProviderError) {
    if (error.kind === 'client' || error.kind === 'unsupported') {
      return new HttpError(400, error.message, {
        code: error.reason ?? (error.kind === 'unsupported' ? 'unsupported' : 'invalid_request'),
      });
    }
    if (error.kind === 'rate_limit')
      return new HttpError(429, error.message, { type: 'rate_limit_error', code: 'rate_limit' });
    return new HttpError(500, error.message, { code: error.kind });
  }
  return new HttpError(500, `internal error: ${error instanceof Error ? error.message : String(error)}`);
}
