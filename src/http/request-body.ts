import type { IncomingMessage } from 'node:http';
import { HttpError } from './http-error.js';

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
