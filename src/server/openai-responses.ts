import { randomUUID } from 'node:crypto';
import type { FinishReason, GenerateResult, TokenLogprob } from '../models/types.js';
import { HttpError } from './http-util.js';
import type { ToolCall } from './openai-tools.js';

/**
 * Response bodies in OpenAI's shapes (chat.completion, text_completion, embeddings, their stream
 * chunks), so that any OpenAI client, waver's own `openai:` provider included, reads them unchanged.
 */

/** OpenAI's log-prob for "impossible": a probability that underflowed is reported no lower than this. */
const MIN_LOGPROB = -9999;

export interface ResponseMeta {
  id: string;
  created: number;
  model: string;
  systemFingerprint: string;
}

export function newId(prefix: 'chatcmpl' | 'cmpl'): string {
  return `${prefix}-${randomUUID().replaceAll('-', '')}`;
}

export function newRequestId(): string {
  return newObjectId('req_');
}

/** An id as OpenAI spells the Files and Batch API's: a prefix and 32 hex digits. */
export function newObjectId(prefix: string): string {
  return `${prefix}${randomUUID().replaceAll('-', '')}`;
}

export function unixSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** OpenAI has only stop and length (and tool/content-filter reasons that do not arise here). */
export function finishReason(reason: FinishReason): 'stop' | 'length' {
  return reason === 'length' ? 'length' : 'stop';
}

/** The prompt counted once, every choice's tokens added up, as OpenAI counts `n` choices. */
export function usage(...results: GenerateResult[]) {
  const prompt = results[0]?.usage.inputTokens ?? 0;
  const completion = results.reduce((sum, r) => sum + r.usage.outputTokens, 0);
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

const bytesOf = (text: string) => [...Buffer.from(text, 'utf8')];
const finite = (logprob: number) => (Number.isFinite(logprob) ? Math.max(MIN_LOGPROB, logprob) : MIN_LOGPROB);

/** One entry of `choices[0].logprobs.content` (chat format). */
export function chatLogprob(token: TokenLogprob, topLogprobs: number) {
  return {
    token: token.token,
    logprob: finite(token.logprob),
    bytes: bytesOf(token.token),
    top_logprobs: (token.top ?? [])
      .slice(0, topLogprobs)
      .map((t) => ({ token: t.token, logprob: finite(t.logprob), bytes: bytesOf(t.token) })),
  };
}

/** A chat answer; a choice with a tool call (`calls[i]`) carries it instead of text. */
export function chatCompletion(
  meta: ResponseMeta,
  results: GenerateResult[],
  logprobs: boolean,
  topLogprobs: number,
  calls: (ToolCall | undefined)[] = [],
) {
  return {
    id: meta.id,
    object: 'chat.completion' as const,
    created: meta.created,
    model: meta.model,
    system_fingerprint: meta.systemFingerprint,
    choices: results.map((result, index) => {
      const call = calls[index];
      return {
        index,
        message: call
          ? { role: 'assistant' as const, content: null, refusal: null, tool_calls: [call] }
          : { role: 'assistant' as const, content: result.text, refusal: null },
        logprobs: logprobs
          ? { content: (result.tokens ?? []).map((t) => chatLogprob(t, topLogprobs)), refusal: null }
          : null,
        finish_reason: call ? ('tool_calls' as const) : finishReason(result.finishReason),
      };
    }),
    usage: usage(...results),
  };
}

/** A prompt's token as echoed: a BOS the prompt spelled out has no log-prob (nothing precedes it). */
export type PromptToken = TokenLogprob | { token: string; logprob: null; top?: undefined };

/**
 * Legacy completions log-probs. `text_offset` counts characters from the start of the prompt, as
 * OpenAI's did (the first generated token sits at the prompt's length).
 */
export function completionLogprobs(tokens: readonly PromptToken[], topLogprobs: number, startOffset: number) {
  const textOffset: number[] = [];
  let offset = startOffset;
  for (const t of tokens) {
    textOffset.push(offset);
    offset += t.token.length;
  }
  return {
    tokens: tokens.map((t) => t.token),
    token_logprobs: tokens.map((t) => (t.logprob === null ? null : finite(t.logprob))),
    top_logprobs:
      topLogprobs > 0
        ? tokens.map((t) =>
            t.logprob === null
              ? null
              : Object.fromEntries(
                  (t.top ?? []).slice(0, topLogprobs).map((x) => [x.token, finite(x.logprob)]),
                ),
          )
        : null,
    text_offset: textOffset,
  };
}

/** One prompt's answer: its text, its choices, and with `echo` its own tokens scored. */
export interface PromptAnswer {
  prompt: string;
  results: GenerateResult[];
  echoed: PromptToken[] | undefined;
}

/**
 * A completions answer: each prompt's choices in turn, indexed in that order. With `echo`, each
 * choice's text and log-probs start with its prompt's, offsets counted from 0, and the usage
 * counts those prompt tokens; every prompt is counted once, every choice's tokens added up.
 */
export function textCompletion(meta: ResponseMeta, answers: PromptAnswer[], logprobs: number | null) {
  const choices = answers.flatMap(({ prompt, results, echoed }) =>
    results.map((result) => ({
      text: echoed ? prompt + result.text : result.text,
      logprobs:
        logprobs === null
          ? null
          : echoed
            ? completionLogprobs([...echoed, ...(result.tokens ?? [])], logprobs, 0)
            : completionLogprobs(result.tokens ?? [], logprobs, prompt.length),
      finish_reason: finishReason(result.finishReason),
    })),
  );
  const counted = answers.map(({ results, echoed }) =>
    usage(
      ...(echoed
        ? results.map((r) => ({ ...r, usage: { ...r.usage, inputTokens: echoed.length } }))
        : results),
    ),
  );
  const promptTokens = counted.reduce((sum, u) => sum + u.prompt_tokens, 0);
  const completionTokens = counted.reduce((sum, u) => sum + u.completion_tokens, 0);
  return {
    id: meta.id,
    object: 'text_completion' as const,
    created: meta.created,
    model: meta.model,
    system_fingerprint: meta.systemFingerprint,
    choices: choices.map((choice, index) => ({ index, ...choice })),
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
    },
  };
}

export function embeddingList(
  model: string,
  vectors: number[][],
  encoding: 'float' | 'base64',
  inputTokens: number,
) {
  return {
    object: 'list' as const,
    data: vectors.map((vector, index) => ({
      object: 'embedding' as const,
      index,
      // base64 is little-endian float32, as OpenAI sends it (and the openai SDK asks for by default).
      embedding:
        encoding === 'base64' ? Buffer.from(new Float32Array(vector).buffer).toString('base64') : vector,
    })),
    model,
    usage: { prompt_tokens: inputTokens, total_tokens: inputTokens },
  };
}

/**
 * How a finished answer is cut into stream deltas, for a provider that cannot stream: one per token
 * when the tokens spell the text exactly, else the whole text at once.
 */
export function streamPieces(result: GenerateResult): { text: string; tokens: TokenLogprob[] }[] {
  const tokens = result.tokens ?? [];
  if (tokens.length > 0 && tokens.map((t) => t.token).join('') === result.text) {
    return tokens.map((token) => ({ text: token.token, tokens: [token] }));
  }
  return result.text === '' && tokens.length === 0 ? [] : [{ text: result.text, tokens }];
}

/**
 * One page of a list, as OpenAI's cursor pages are: the items after the one named by `after`, at
 * most `limit` of them, and whether more follow (the SDKs' auto-pagination reads `has_more` and
 * asks again with `after` = the last id).
 */
export function listPage<T extends { id: string }>(
  all: T[],
  query: URLSearchParams,
  limits: { fallback: number; max: number },
): { object: 'list'; data: T[]; first_id: string | null; last_id: string | null; has_more: boolean } {
  const limitText = query.get('limit');
  const limit = limitText === null ? limits.fallback : Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > limits.max)
    throw new HttpError(
      400,
      `Invalid 'limit': expected an integer from 1 to ${limits.max}, got ${limitText}.`,
      {
        param: 'limit',
        code: 'invalid_value',
      },
    );
  const after = query.get('after');
  let start = 0;
  if (after !== null) {
    const at = all.findIndex((x) => x.id === after);
    if (at < 0)
      throw new HttpError(400, `Invalid 'after': no object with id ${JSON.stringify(after)}.`, {
        param: 'after',
        code: 'invalid_value',
      });
    start = at + 1;
  }
  const data = all.slice(start, start + limit);
  return {
    object: 'list',
    data,
    first_id: data[0]?.id ?? null,
    last_id: data.at(-1)?.id ?? null,
    has_more: start + limit < all.length,
  };
}
