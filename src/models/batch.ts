import { ProviderError, type ProviderErrorKind } from './errors.js';

/** Helpers of the providers' batch APIs (the types are in types.ts: BatchApi). */

/**
 * The error kind of an HTTP status (and its error code) a batch line carries, as interactive calls
 * map them (http-errors.ts).
 */
export function statusErrorKind(status: number, code?: string): ProviderErrorKind {
  if (status === 402 || (status === 429 && code === 'insufficient_quota')) return 'quota';
  if (status === 429) return 'rate_limit';
  if (status === 401 || status === 403) return 'auth';
  if (status === 408) return 'timeout';
  if (status >= 500) return 'server';
  if (status >= 400) return 'client';
  return 'bad_response';
}

export function batchLineError(where: string, kind: ProviderErrorKind, message: string, status?: number) {
  return new ProviderError(kind, `${where}: ${message}`, status === undefined ? {} : { status });
}

/** A line's answer that its reader refused: the kind it was refused with (no answer, a malformed body). */
export function unreadableLine(where: string, err: unknown) {
  const message = err instanceof Error ? err.message : String(err);
  return batchLineError(where, err instanceof ProviderError ? err.kind : 'bad_response', message);
}

/** A line of a JSONL body: its value, or its text when it is not JSON. */
export type JsonLine = { ok: true; value: unknown } | { ok: false; text: string; error: string };

/**
 * The lines of a JSONL body, a line at a time (a results file may be hundreds of megabytes). A
 * line that is not JSON is handed on as such, so one bad line does not cost the others.
 */
export async function* jsonLines(body: ReadableStream<Uint8Array> | null): AsyncGenerator<JsonLine> {
  if (!body) return;
  const decoder = new TextDecoder();
  let rest = '';
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    rest += decoder.decode(chunk, { stream: true });
    let newline = rest.indexOf('\n');
    while (newline >= 0) {
      const line = rest.slice(0, newline).trim();
      rest = rest.slice(newline + 1);
      if (line) yield parsed(line);
      newline = rest.indexOf('\n');
    }
  }
  rest += decoder.decode();
  if (rest.trim()) yield parsed(rest.trim());
}

function parsed(text: string): JsonLine {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    return { ok: false, text, error: err instanceof Error ? err.message : String(err) };
  }
}

/** The custom id a broken line still shows (`"custom_id": "r12"`), if any: the cell it was for. */
export function customIdIn(text: string): string | undefined {
  return /"custom_id"\s*:\s*"([^"\\]*)"/.exec(text)?.[1];
}
