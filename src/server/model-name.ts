import { HttpError } from './http-util.js';

/**
 * The model a request names must be the one served: any other name is OpenAI's 404
 * `model_not_found` (its shape, naming the served model), so a typo in a client's config is
 * not answered by another model. A request naming none gets the served one, as from a bare curl.
 */
export function ensureServedModel(served: string, body: unknown): void {
  const asked = typeof body === 'object' && body !== null ? (body as { model?: unknown }).model : undefined;
  if (typeof asked === 'string' && asked !== served) throw modelNotFound(asked, served);
}

export function modelNotFound(asked: string, served: string): HttpError {
  return new HttpError(
    404,
    `The model '${asked}' does not exist: this server serves '${served}' (GET /v1/models).`,
    { param: 'model', code: 'model_not_found' },
  );
}
