import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { z } from 'zod';
import type { ChatMessage, GenerateRequest, GenerateResult } from '../models/types.js';
import { HttpError } from './http-util.js';
import { DEFAULT_CHAT_MAX_TOKENS, parseBody } from './openai-requests.js';
import { unixSeconds } from './openai-responses.js';

/**
 * A minimal `/v1/responses`, since new SDK examples use it: text in (`input` as a string or
 * messages of text, `instructions`), text out, streamed as OpenAI's typed events. Tools, files,
 * images, `previous_response_id` and stored responses are refused naming the parameter.
 */

const inputText = z.object({ type: z.enum(['input_text', 'output_text']), text: z.string() });
const responsesBody = z.object({
  model: z.string().nullish(),
  input: z.union([
    z.string(),
    z.array(
      z.object({
        type: z.literal('message').nullish(),
        role: z.enum(['system', 'developer', 'user', 'assistant']),
        content: z.union([z.string(), z.array(inputText)]),
      }),
    ),
  ]),
  instructions: z.string().nullish(),
  max_output_tokens: z.int().min(1).nullish(),
  temperature: z.number().min(0).max(2).nullish(),
  top_p: z.number().gt(0).max(1).nullish(),
  stream: z.boolean().nullish(),
  tools: z.array(z.unknown()).max(0, { error: 'tools are not supported on /v1/responses here' }).nullish(),
  previous_response_id: z.null({ error: 'stored responses are not kept by this server' }).optional(),
});

export interface ResponsesCall {
  request: GenerateRequest;
  stream: boolean;
}

export function parseResponsesRequest(body: unknown): ResponsesCall {
  const b = parseBody(responsesBody, body);
  const messages: ChatMessage[] = [];
  if (b.instructions) messages.push({ role: 'system', content: b.instructions });
  if (typeof b.input === 'string') messages.push({ role: 'user', content: b.input });
  else
    for (const m of b.input)
      messages.push({
        role: m.role === 'developer' ? 'system' : m.role,
        content: typeof m.content === 'string' ? m.content : m.content.map((p) => p.text).join(''),
      });
  if (!messages.some((m) => m.role === 'user'))
    throw new HttpError(400, "Invalid value for 'input': no user message.", {
      param: 'input',
      code: 'invalid_value',
    });
  const request: GenerateRequest = { messages, maxTokens: b.max_output_tokens ?? DEFAULT_CHAT_MAX_TOKENS };
  if (b.temperature != null) request.temperature = b.temperature;
  if (b.top_p != null) request.topP = b.top_p;
  return { request, stream: b.stream === true };
}

interface Ids {
  id: string;
  messageId: string;
  created: number;
  model: string;
}

export function newResponseIds(model: string): Ids {
  const hex = () => randomUUID().replaceAll('-', '');
  return { id: `resp_${hex()}`, messageId: `msg_${hex()}`, created: unixSeconds(), model };
}

/** The response object: completed, or incomplete when the token limit cut it. */
export function responseObject(ids: Ids, result: GenerateResult | undefined) {
  const cut = result?.finishReason === 'length';
  return {
    id: ids.id,
    object: 'response' as const,
    created_at: ids.created,
    status: result === undefined ? 'in_progress' : cut ? 'incomplete' : 'completed',
    model: ids.model,
    error: null,
    incomplete_details: cut ? { reason: 'max_output_tokens' } : null,
    output: result === undefined ? [] : [messageItem(ids, result.text, cut ? 'incomplete' : 'completed')],
    usage: result
      ? {
          input_tokens: result.usage.inputTokens,
          output_tokens: result.usage.outputTokens,
          total_tokens: result.usage.inputTokens + result.usage.outputTokens,
        }
      : null,
  };
}

function messageItem(ids: Ids, text: string, status: string) {
  return {
    type: 'message' as const,
    id: ids.messageId,
    status,
    role: 'assistant' as const,
    content: [{ type: 'output_text' as const, text, annotations: [] }],
  };
}

/** OpenAI's stream of typed events for one text answer. */
export async function streamResponse(
  res: ServerResponse,
  events: AsyncIterable<{ type: 'delta'; text: string } | { type: 'done'; result: GenerateResult }>,
  ids: Ids,
): Promise<void> {
  let sequence = 0;
  let started = false;
  const send = (event: Record<string, unknown>) => {
    if (!started) {
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
      started = true;
    }
    res.write(`event: ${event.type}\ndata: ${JSON.stringify({ ...event, sequence_number: sequence++ })}\n\n`);
  };
  const at = { item_id: ids.messageId, output_index: 0, content_index: 0 };
  let text = '';
  for await (const event of events) {
    if (!started) {
      send({ type: 'response.created', response: responseObject(ids, undefined) });
      send({
        type: 'response.output_item.added',
        output_index: 0,
        item: { ...messageItem(ids, '', 'in_progress'), content: [] },
      });
      send({
        type: 'response.content_part.added',
        ...at,
        part: { type: 'output_text', text: '', annotations: [] },
      });
    }
    if (event.type === 'delta') {
      text += event.text;
      if (event.text) send({ type: 'response.output_text.delta', ...at, delta: event.text });
      continue;
    }
    const done = responseObject(ids, event.result);
    send({ type: 'response.output_text.done', ...at, text });
    send({ type: 'response.content_part.done', ...at, part: { type: 'output_text', text, annotations: [] } });
    send({ type: 'response.output_item.done', output_index: 0, item: done.output[0] });
    send({
      type: done.status === 'completed' ? 'response.completed' : 'response.incomplete',
      response: done,
    });
  }
  res.end();
}
