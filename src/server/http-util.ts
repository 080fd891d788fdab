import type { IncomingMessage, ServerResponse } from 'node:http';
import { ProviderError } from '../models/errors.js';

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
 * before reading; a body that grows past it while streaming is refused as soon as it does.
 */
export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const tooLarge = () =>
    new HttpError(413, `Request body is larger than the limit of ${limit} bytes.`, {
      code: 'request_too_large',
    });
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw tooLarge();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Reads a JSON body of at most `limit` bytes (see readBody). */
export async function readJsonBody(req: IncomingMessage, limit: number): Promise<unknown> {
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
        code: error.kind === 'unsupported' ? 'unsupported' : 'invalid_request',
      });
    }
    if (error.kind === 'rate_limit')
      return new HttpError(429, error.message, { type: 'rate_limit_error', code: 'rate_limit' });
    return new HttpError(500, error.message, { code: error.kind });
  }
  return new HttpError(500, `internal error: ${error instanceof Error ? error.message : String(error)}`);
}
