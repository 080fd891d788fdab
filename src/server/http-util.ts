import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError } from '../http/http-error.js';
import { ProviderError } from '../models/errors.js';

export { HttpError };

/** One request to a route of `waver serve`: its handler answers `res`; `signal` fires when the client hangs up. */
export interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  signal: AbortSignal;
}

export { readBody, readJsonBody } from '../http/request-body.js';

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

/** A prompt past the context is the fault of the parameter that carried it, as OpenAI names it (`messages`, `prompt`, `input`). */
export async function blamingParam<T>(param: string, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof ProviderError && error.reason === 'context_length_exceeded')
      throw new HttpError(400, error.message, { param, code: 'context_length_exceeded' });
    throw error;
  }
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
