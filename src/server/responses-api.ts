import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { z } from 'zod';
import type { ChatMessage, GenerateRequest, GenerateResult } from '../models/types.js';
import { HttpError } from './http-util.js';
import { DEFAULT_CHAT_MAX_TOKENS, parseBody } from './openai-requests.js';
import { unixSeconds } from './openai-responses.js';
import { callSchema, type ToolSpec, toolAnswer, toolsMessage, toolsToCall } from './openai-tools.js';

/**
 * `/v1/responses`, since new SDK examples (and the Vercel AI SDK's default `openai(model)`) use it:
 * `input` as a string or items (messages of text, `function_call`s and their
 * `function_call_output`s), `instructions`, `text.format` (json_object, json_schema) and `tools`
 * held to their schemas by grammar as the chat route holds `response_format` and `tools`
 * (openai-tools.ts), streamed as OpenAI's typed events. Files, images, built-in tools,
 * `previous_response_id` and stored responses are refused naming the parameter.
 */

const inputText = z.object({ type: z.enum(['input_text', 'output_text']), text: z.string() });
const inputItem = z.union([
  z.object({
    type: z.literal('function_call'),
    call_id: z.string(),
    name: z.string(),
    arguments: z.string(),
  }),
  z.object({ type: z.literal('function_call_output'), call_id: z.string(), output: z.string() }),
  z.object({
    type: z.literal('message').nullish(),
    role: z.enum(['system', 'developer', 'user', 'assistant']),
    content: z.union([z.string(), z.array(inputText)]),
  }),
]);
const format = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text') }),
  z.object({ type: z.literal('json_object') }),
  z.object({
    type: z.literal('json_schema'),
    name: z.string(),
    schema: z.record(z.string(), z.unknown()).nullish(),
    strict: z.boolean().nullish(),
  }),
]);
const responsesBody = z.object({
  model: z.string().nullish(),
  input: z.union([z.string(), z.array(inputItem)]),
  instructions: z.string().nullish(),
  max_output_tokens: z.int().min(1).nullish(),
  temperature: z.number().min(0).max(2).nullish(),
  top_p: z.number().gt(0).max(1).nullish(),
  stream: z.boolean().nullish(),
  text: z.object({ format: format.nullish() }).nullish(),
  tools: z
    .array(
      z.object({
        type: z.literal('function'),
        name: z.string().min(1),
        description: z.string().nullish(),
        parameters: z.record(z.string(), z.unknown()).nullish(),
      }),
    )
    .nullish(),
  tool_choice: z
    .union([
      z.enum(['none', 'auto', 'required']),
      z.object({ type: z.literal('function'), name: z.string() }),
    ])
    .nullish(),
  previous_response_id: z.null({ error: 'stored responses are not kept by this server' }).optional(),
});
type ResponsesBody = z.infer<typeof responsesBody>;

export interface ResponsesCall {
  request: GenerateRequest;
  /** The tools the answer calls (or, under "auto", replies instead); empty for a text answer. */
  tools: ToolSpec[];
  stream: boolean;
}

export function parseResponsesRequest(body: unknown): ResponsesCall {
  const b = parseBody(responsesBody, body);
  const messages = messagesOf(b);
  if (!messages.some((m) => m.role === 'user'))
    throw new HttpError(400, "Invalid value for 'input': no user message.", {
      param: 'input',
      code: 'invalid_value',
    });
  const choice = b.tool_choice;
  const { tools, mayReply } = toolsToCall(
    (b.tools ?? []).map((t) => ({
      name: t.name,
      ...(t.description && { description: t.description }),
      ...(t.parameters && { parameters: t.parameters }),
    })),
    typeof choice === 'object' && choice !== null
      ? { type: 'function', function: { name: choice.name } }
      : (choice ?? undefined),
  );
  const textFormat = b.text?.format;
  if (tools.length > 0 && textFormat && textFormat.type !== 'text')
    throw new HttpError(400, "'text.format' cannot be used with 'tools' on this server.", {
      param: 'text.format',
      code: 'unsupported_parameter',
    });
  const json =
    tools.length > 0
      ? callSchema(tools, mayReply)
      : textFormat?.type === 'json_schema'
        ? (textFormat.schema ?? true)
        : textFormat?.type === 'json_object' || undefined;
  const request: GenerateRequest = {
    messages: tools.length > 0 ? [toolsMessage(tools, mayReply), ...messages] : messages,
    maxTokens: b.max_output_tokens ?? DEFAULT_CHAT_MAX_TOKENS,
  };
  if (json !== undefined) request.json = json;
  if (b.temperature != null) request.temperature = b.temperature;
  if (b.top_p != null) request.topP = b.top_p;
  return { request, tools, stream: b.stream === true };
}

/** The conversation: instructions, then the input's messages, calls and results as the chat route spells them. */
function messagesOf(b: ResponsesBody): ChatMessage[] {
  const messages: ChatMessage[] = [];
  if (b.instructions) messages.push({ role: 'system', content: b.instructions });
  if (typeof b.input === 'string') return [...messages, { role: 'user', content: b.input }];
  for (const item of b.input) {
    if (item.type === 'function_call')
      messages.push({
        role: 'assistant',
        content: JSON.stringify({ name: item.name, arguments: item.arguments }),
      });
    else if (item.type === 'function_call_output')
      messages.push({ role: 'user', content: `Function result (${item.call_id}): ${item.output}` });
    else
      messages.push({
        role: item.role === 'developer' ? 'system' : item.role,
        content: typeof item.content === 'string' ? item.content : item.content.map((p) => p.text).join(''),
      });
  }
  return messages;
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

/** The response object: completed, or incomplete when the token limit cut it; under tools, a call or a reply. */
export function responseObject(ids: Ids, result: GenerateResult | undefined, withTools = false) {
  const cut = result?.finishReason === 'length';
  const answer = result && withTools ? toolAnswer(result) : result && { text: result.text };
  const called = answer !== undefined && 'call' in answer;
  return {
    id: ids.id,
    object: 'response' as const,
    created_at: ids.created,
    status: result === undefined ? 'in_progress' : cut && !called ? 'incomplete' : 'completed',
    model: ids.model,
    error: null,
    incomplete_details: cut && !called ? { reason: 'max_output_tokens' } : null,
    output:
      answer === undefined
        ? []
        : 'call' in answer
          ? [
              {
                type: 'function_call' as const,
                id: `fc_${answer.call.id.slice('call_'.length)}`,
                call_id: answer.call.id,
                name: answer.call.function.name,
                arguments: answer.call.function.arguments,
                status: 'completed',
              },
            ]
          : [messageItem(ids, answer.text, cut ? 'incomplete' : 'completed')],
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

/**
 * OpenAI's stream of typed events for one answer: a text's deltas as they come; under tools the
 * answer is known only whole (a call's JSON closes at its end), so it is sent at the end, a call
 * as `function_call` item and arguments events.
 */
export async function streamResponse(
  res: ServerResponse,
  events: AsyncIterable<{ type: 'delta'; text: string } | { type: 'done'; result: GenerateResult }>,
  ids: Ids,
  withTools = false,
): Promise<void> {
  let sequence = 0;
  const send = (event: Record<string, unknown>) => {
    if (sequence === 0)
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
    res.write(`event: ${event.type}\ndata: ${JSON.stringify({ ...event, sequence_number: sequence++ })}\n\n`);
  };
  const at = { item_id: ids.messageId, output_index: 0, content_index: 0 };
  const part = (text: string) => ({ type: 'output_text', text, annotations: [] });
  let text = '';
  let opened = false;
  const open = () => {
    opened = true;
    send({
      type: 'response.output_item.added',
      output_index: 0,
      item: { ...messageItem(ids, '', 'in_progress'), content: [] },
    });
    send({ type: 'response.content_part.added', ...at, part: part('') });
  };
  for await (const event of events) {
    if (sequence === 0) send({ type: 'response.created', response: responseObject(ids, undefined) });
    if (event.type === 'delta') {
      if (withTools || !event.text) continue;
      if (!opened) open();
      text += event.text;
      send({ type: 'response.output_text.delta', ...at, delta: event.text });
      continue;
    }
    const done = responseObject(ids, event.result, withTools);
    const item = done.output[0];
    if (item?.type === 'function_call') {
      const call = { item_id: item.id, output_index: 0 };
      send({
        type: 'response.output_item.added',
        output_index: 0,
        item: { ...item, arguments: '', status: 'in_progress' },
      });
      send({ type: 'response.function_call_arguments.delta', ...call, delta: item.arguments });
      send({ type: 'response.function_call_arguments.done', ...call, arguments: item.arguments });
    } else {
      if (!opened) open();
      const whole = item?.content[0]?.text ?? '';
      if (whole !== text)
        send({ type: 'response.output_text.delta', ...at, delta: whole.slice(text.length) });
      send({ type: 'response.output_text.done', ...at, text: whole });
      send({ type: 'response.content_part.done', ...at, part: part(whole) });
    }
    send({ type: 'response.output_item.done', output_index: 0, item });
    send({
      type: done.status === 'completed' ? 'response.completed' : 'response.incomplete',
      response: done,
    });
  }
  res.end();
}
