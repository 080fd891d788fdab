import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { InputError } from '../errors.js';
import { hashOf, sha256 } from '../util/hash.js';
import { ProviderError } from './errors.js';
import type { CallOptions, Capabilities, GenerateRequest, GenerateResult, ModelProvider } from './types.js';

/**
 * `replay:` — answers from a recorded JSONL, one `{"key", "request", "response", "model"?}` per
 * line, looked up by `requestKey(request)`. For reproducing a published run and for testing
 * LLM-driven code without a model. It never makes anything up: an unrecorded request is an error.
 */

/** The lookup key of a request: the sha256 of its canonical JSON (key order and undefined members do not matter). */
export function requestKey(request: GenerateRequest): string {
  return hashOf(request);
}

/** One JSONL line recording a response, in the format `createReplayProvider` reads. */
export function recordingLine(request: GenerateRequest, response: GenerateResult, model?: string): string {
  return JSON.stringify({ key: requestKey(request), ...(model && { model }), request, response });
}

// Loose objects: a field a newer waver adds to requests must still hash the same as when recorded.
const Message = z.object({ role: z.enum(['system', 'user', 'assistant']), content: z.string() });
const RequestSchema = z.looseObject({ messages: z.array(Message).min(1) });
const Alternative = z.object({ token: z.string(), logprob: z.number() });
const TokenSchema = z.object({
  token: z.string(),
  logprob: z.number(),
  entropy: z.number().optional(),
  top: z.array(Alternative).optional(),
});
const ResponseSchema = z.object({
  text: z.string(),
  tokens: z.array(TokenSchema).optional(),
  finishReason: z.enum(['stop', 'length', 'refusal', 'content_filter', 'tool_calls', 'error', 'other']),
  usage: z.object({ inputTokens: z.number().nonnegative(), outputTokens: z.number().nonnegative() }),
  responseModel: z.string().optional(),
});
const LineSchema = z
  .object({
    key: z.string().regex(/^[0-9a-f]{64}$/, 'must be the 64-hex sha256 from requestKey(request)'),
    model: z.string().optional(),
    request: RequestSchema,
    response: ResponseSchema,
  })
  .strict();

export interface ReplaySettings {
  /** The recorded JSONL (relative paths resolve against the current directory). */
  file: string;
  label?: string;
}

export function createReplayProvider(settings: ReplaySettings): ModelProvider {
  const file = settings.file;
  let content: string;
  try {
    content = readFileSync(resolve(file), 'utf8');
  } catch (err) {
    const why = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message;
    throw new InputError(`cannot read replay recording: ${why}`, { file });
  }
  const recordings = parseRecordings(content, file);
  // The content hash, so a changed recording is a different model in every cache key.
  const identity = `replay:${sha256(content).slice(0, 16)}`;

  return {
    provider: 'replay',
    modelId: file,
    identity,
    capabilities: capabilitiesOf([...recordings.values()]),

    async generate(request: GenerateRequest, options: CallOptions = {}): Promise<GenerateResult> {
      if (options.signal?.aborted) throw new ProviderError('timeout', `${identity}: request aborted`);
      const key = requestKey(request);
      const found = recordings.get(key);
      if (!found) {
        const lastUser = [...request.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
        const preview = lastUser.replace(/\s+/g, ' ').trim();
        const shown = preview.length > 80 ? `${preview.slice(0, 80)}…` : preview;
        throw new ProviderError(
          'no_recording',
          `replay ${file}: no recorded response for request ${key} (last user message: "${shown}")`,
        );
      }
      // A copy, so a caller that edits its result cannot change later answers.
      return structuredClone(found);
    },
  };
}

/** Parses the JSONL into key -> response. Throws an InputError naming file, line and field. */
export function parseRecordings(content: string, file: string): Map<string, GenerateResult> {
  const out = new Map<string, GenerateResult>();
  const lines = content.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i]?.trim();
    if (!text) continue;
    const line = i + 1;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      throw new InputError(`not valid JSON (${(err as Error).message})`, { file, line });
    }
    const parsed = LineSchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = (issue?.path ?? []).map(String).join('.') || undefined;
      throw new InputError(issue?.message ?? 'invalid recording', { file, line, field });
    }
    const { key, response } = parsed.data;
    // Hash the request as written: parsing may drop members the hash must still see.
    const expected = requestKey((value as { request: GenerateRequest }).request);
    if (key !== expected) {
      // A hand-edited request would otherwise never be found, silently.
      throw new InputError(`key does not match the request (requestKey(request) is ${expected})`, {
        file,
        line,
        field: 'key',
      });
    }
    const previous = out.get(key);
    if (previous && hashOf(previous) !== hashOf(response)) {
      throw new InputError('a different response for the same request was recorded on an earlier line', {
        file,
        line,
        field: 'response',
      });
    }
    out.set(key, response as GenerateResult);
  }
  if (out.size === 0) throw new InputError('the replay recording has no responses', { file });
  return out;
}

/** What the recording can answer: log-probs only when every recorded response has them. */
function capabilitiesOf(responses: GenerateResult[]): Capabilities {
  const allTokens = responses.every((r) => r.tokens !== undefined && r.tokens.length > 0);
  const tokens = allTokens ? responses.flatMap((r) => r.tokens ?? []) : [];
  const topLogprobs =
    tokens.length > 0 ? tokens.reduce((k, t) => Math.min(k, t.top?.length ?? 0), Infinity) : 0;
  return {
    chat: true,
    tokenLogprobs: allTokens,
    topLogprobs,
    fullDistribution: tokens.length > 0 && tokens.every((t) => t.entropy !== undefined),
    scoreContinuation: false,
    embeddings: false,
  };
}
