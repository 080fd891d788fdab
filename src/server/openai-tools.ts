import { randomUUID } from 'node:crypto';
import type { ChatMessage, GenerateResult } from '../models/types.js';
import { HttpError } from './http-util.js';

/**
 * OpenAI's `tools` over a local model: the answer is held by grammar to one call,
 * `{"name": ..., "arguments": {...}}` with the arguments of that tool's JSON schema, and returned
 * in OpenAI's tool-call shape. `tool_choice: "auto"` calls a tool too (a grammar cannot leave the
 * choice to the model); `"none"` answers in text. docs/decisions.md#e26-waver-serve-holds-json-and-tool-calls-to-a-grammar-and-refuses-web-pages.
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

/** The tools the answer may call under `tool_choice` (none: a text answer). */
export function toolsToCall(tools: ToolSpec[], choice: ToolChoice | undefined): ToolSpec[] {
  if (tools.length === 0 || choice === 'none') return [];
  if (typeof choice === 'object') {
    const named = tools.find((t) => t.name === choice.function.name);
    if (!named)
      throw new HttpError(400, `Invalid value for 'tool_choice': no tool named '${choice.function.name}'.`, {
        param: 'tool_choice',
        code: 'invalid_value',
      });
    return [named];
  }
  return tools;
}

/** The JSON schema of one call of any of `tools`. */
export function callSchema(tools: ToolSpec[]): Record<string, unknown> {
  const one = (t: ToolSpec) => ({
    type: 'object',
    properties: { name: { const: t.name }, arguments: t.parameters ?? { type: 'object' } },
    required: ['name', 'arguments'],
  });
  return tools.length === 1 ? one(tools[0] as ToolSpec) : { oneOf: tools.map(one) };
}

/** The system message that tells the model what it may call (the grammar holds it to the shape). */
export function toolsMessage(tools: ToolSpec[]): ChatMessage {
  return {
    role: 'system',
    // Names and descriptions only: the grammar holds the arguments to their schema.
    content: `Answer with one function call as JSON {"name", "arguments"}. Functions: ${tools
      .map((t) => (t.description ? `${t.name} (${t.description})` : t.name))
      .join('; ')}`,
  };
}

/** The call an answer spells, or undefined when it is not one (cut by the length limit). */
export function toolCallOf(result: GenerateResult): ToolCall | undefined {
  let value: { name?: unknown; arguments?: unknown };
  try {
    value = JSON.parse(result.text);
  } catch {
    return undefined;
  }
  if (typeof value?.name !== 'string') return undefined;
  return {
    id: `call_${randomUUID().replaceAll('-', '').slice(0, 24)}`,
    type: 'function',
    function: { name: value.name, arguments: JSON.stringify(value.arguments ?? {}) },
  };
}
