import type { ServerResponse } from 'node:http';
import type { GenerateEvent, GenerateRequest, ModelProvider } from '../models/types.js';
import { startEventStream } from './http-util.js';
import type { ChatCall, CompletionCall } from './openai-requests.js';
import {
  chatLogprob,
  completionLogprobs,
  finishReason,
  type ResponseMeta,
  streamPieces,
  usage,
} from './openai-responses.js';
import { toolAnswer } from './openai-tools.js';

/**
 * Streamed answers (`stream: true`) as OpenAI sends them: `chat.completion.chunk` or
 * `text_completion` chunks, one per delta, a last one with the finish reason, a usage chunk when
 * `stream_options.include_usage` is set, then `data: [DONE]`.
 *
 * The headers go out with the first event, not before: a request refused before generation starts
 * (a prompt longer than the context) still gets its HTTP error.
 */

/** The provider's own stream when it has one; else its whole answer, cut into pieces afterwards. */
export async function* generateEvents(
  provider: ModelProvider,
  request: GenerateRequest,
  signal: AbortSignal,
): AsyncGenerator<GenerateEvent> {
  if (provider.stream) {
    yield* provider.stream(request, { signal });
    return;
  }
  const result = await provider.generate(request, { signal });
  for (const piece of streamPieces(result)) yield { type: 'delta', ...piece };
  yield { type: 'done', result };
}

export async function streamChat(
  res: ServerResponse,
  events: AsyncIterable<GenerateEvent>,
  meta: ResponseMeta,
  call: ChatCall,
): Promise<void> {
  const chunk = (delta: object, extra: { logprobs?: unknown; finish_reason?: string | null } = {}) => ({
    id: meta.id,
    object: 'chat.completion.chunk',
    created: meta.created,
    model: meta.model,
    system_fingerprint: meta.systemFingerprint,
    choices: [
      { index: 0, delta, logprobs: extra.logprobs ?? null, finish_reason: extra.finish_reason ?? null },
    ],
    ...(call.includeUsage ? { usage: null } : {}),
  });
  let stream: ReturnType<typeof startEventStream> | undefined;
  for await (const event of events) {
    if (!stream) {
      stream = startEventStream(res);
      stream.send(chunk({ role: 'assistant', content: call.tools.length > 0 ? null : '' }));
    }
    // A tool call is sent once whole (its JSON is known only at the end): the call's id and
    // name, then its arguments, as OpenAI's deltas spell them.
    if (call.tools.length > 0) {
      if (event.type === 'delta') continue;
      const answer = toolAnswer(event.result);
      if ('text' in answer) {
        stream.send(chunk({ content: answer.text }));
        stream.send(chunk({}, { finish_reason: finishReason(event.result.finishReason) }));
      } else {
        const { id, type, function: fn } = answer.call;
        stream.send(
          chunk({ tool_calls: [{ index: 0, id, type, function: { name: fn.name, arguments: '' } }] }),
        );
        stream.send(chunk({ tool_calls: [{ index: 0, function: { arguments: fn.arguments } }] }));
        stream.send(chunk({}, { finish_reason: 'tool_calls' }));
      }
      if (call.includeUsage) stream.send({ ...chunk({}), choices: [], usage: usage(event.result) });
      continue;
    }
    if (event.type === 'delta') {
      const logprobs = call.logprobs
        ? { content: event.tokens.map((t) => chatLogprob(t, call.topLogprobs)), refusal: null }
        : null;
      stream.send(chunk({ content: event.text }, { logprobs }));
    } else {
      stream.send(chunk({}, { finish_reason: finishReason(event.result.finishReason) }));
      if (call.includeUsage) stream.send({ ...chunk({}), choices: [], usage: usage(event.result) });
    }
  }
  stream?.done();
}

export async function streamCompletion(
  res: ServerResponse,
  events: AsyncIterable<GenerateEvent>,
  meta: ResponseMeta,
  call: CompletionCall,
  promptLength: number,
): Promise<void> {
  const chunk = (text: string, logprobs: unknown, finish: string | null) => ({
    id: meta.id,
    object: 'text_completion',
    created: meta.created,
    model: meta.model,
    system_fingerprint: meta.systemFingerprint,
    choices: [{ index: 0, text, logprobs, finish_reason: finish }],
    ...(call.includeUsage ? { usage: null } : {}),
  });
  let stream: ReturnType<typeof startEventStream> | undefined;
  // text_offset counts from the start of the prompt, token by token, as in the whole response.
  let offset = promptLength;
  for await (const event of events) {
    stream ??= startEventStream(res);
    if (event.type === 'delta') {
      const logprobs =
        call.logprobs === null ? null : completionLogprobs(event.tokens, call.logprobs, offset);
      for (const t of event.tokens) offset += t.token.length;
      stream.send(chunk(event.text, logprobs, null));
    } else {
      stream.send(chunk('', null, finishReason(event.result.finishReason)));
      if (call.includeUsage)
        stream.send({ ...chunk('', null, null), choices: [], usage: usage(event.result) });
    }
  }
  stream?.done();
}
