import { randomUUID } from 'node:crypto';
import type { ChatMessage, GenerateResult } from '../models/types.js';
import { HttpError } from './http-util.js';

/**
 * OpenAI's `tools` over a local model: the answer is held by grammar to one call,
 * `{"name": ..., "arguments": {...}}` with the arguments of that tool's JSON schema, and returned
 * in OpenAI's tool-call shape. Under `tool_choice: "auto"` the grammar also allows a reply,
 * `{"reply": "..."}`, returned as the message's text, so the model chooses and an agent loop can
 * end (docs/decisions.md E44, superseding E26's "auto calls"); `"required"` or a named tool
 * calls; `"none"` answers in text.
 */

export interface ToolSpec {
  name: string;
  description?: string;
  parameters?: Record<string, unknown>;
}

export type ToolChoice = 'none' | 'auto' | 'required' | { type: 'function'; function: { name: string } };

export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** The tools the answer may call under `tool_choice` (none: a text answer), and whether it may reply instead. */
export function toolsToCall(
  tools: ToolSpec[],
  choice: ToolChoice | undefined,
): { tools: ToolSpec[]; mayReply: boolean } {
  if (tools.length === 0 || choice === 'none') return { tools: [], mayReply: false };
  if (typeof choice === 'object') {
    const named = tools.find((t) => t.name === choice.function.name);
    if (!named)
      throw new HttpError(400, `Invalid value for 'tool_choice': no tool named '${choice.function.name}'.`, {
        param: 'tool_choice',
        code: 'invalid_value',
      });
    return { tools: [named], mayReply: false };
  }
  // OpenAI's default with tools is "auto".
  return { tools, mayReply: choice !== 'required' };
}

/** The JSON schema of one call of any of `tools`, or, when the model may reply, of a reply. */
export function callSchema(tools: ToolSpec[], mayReply: boolean): Record<string, unknown> {
  const one = (t: ToolSpec) => ({
    type: 'object',
    properties: { name: { const: t.name }, arguments: t.parameters ?? { type: 'object' } },
    required: ['name', 'arguments'],
  });
  const reply = { type: 'object', properties: { reply: { type: 'string' } }, required: ['reply'] };
  const shapes = [...tools.map(one), ...(mayReply ? [reply] : [])];
  return shapes.length === 1 ? (shapes[0] as Record<string, unknown>) : { oneOf: shapes };
}

/** The system message that tells the model what it may call (the grammar holds it to the shape). */
export function toolsMessage(tools: ToolSpec[], mayReply: boolean): ChatMessage {
  const functions = tools.map((t) => (t.description ? `${t.name} (${t.description})` : t.name)).join('; ');
  return {
    role: 'system',
    // Names and descriptions only: the grammar holds the arguments to their schema.
    content: mayReply
      ? `Answer with one function call as JSON {"name", "arguments"}, or reply to the user as JSON {"reply"}. Functions: ${functions}`
      : `Answer with one function call as JSON {"name", "arguments"}. Functions: ${functions}`,
  };
}

/**
 * What an answer under tools is: a call, or a reply's text (the model's `{"reply"}`, or the text
 * itself when the length limit cut it before it closed).
 */
export function toolAnswer(result: GenerateResult): { call: ToolCall } | { text: string } {
  let value: { name?: unknown; arguments?: unknown; reply?: unknown };
  try {
    value = JSON.parse(result.text);
  } catch {
    return { text: result.text };
  }
  if (typeof value?.reply === 'string') return { text: value.reply };
  if (typeof value?.name !== 'string') return { text: result.text };
  return {
    call: {
      id: `call_${randomUUID().replaceAll('-', '').slice(0, 24)}`,
      type: 'function',
      function: { name: value.name, arguments: JSON.stringify(value.arguments ?? {}) },
    },
  };
}
