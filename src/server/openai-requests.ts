import { z } from 'zod';
import type { ChatMessage, GenerateRequest } from '../models/types.js';
import { HttpError } from './http-util.js';
import { callSchema, type ToolSpec, toolsMessage, toolsToCall } from './openai-tools.js';

/**
 * Request bodies of the OpenAI endpoints waver serves, validated the way OpenAI does: a wrong or
 * missing field is a 400 naming the parameter. Fields a local model cannot honour (suffix, a
 * streamed n > 1 or echo) are refused rather than silently ignored; unknown fields are ignored, as
 * OpenAI does.
 */

const MAX_TOP_LOGPROBS = 20;
const MAX_STOP = 16;
/** OpenAI's bound on `n`. */
const MAX_N = 128;

const textPart = z.object({ type: z.literal('text'), text: z.string() });
const content = z.union([z.string(), z.array(textPart)]);

const toolCallMessage = z.object({
  id: z.string(),
  type: z.literal('function'),
  function: z.object({ name: z.string(), arguments: z.string() }),
});
const chatMessage = z.object({
  // `developer` is OpenAI's newer name for `system`; `tool` answers an assistant's tool call.
  role: z.enum(['system', 'developer', 'user', 'assistant', 'tool']),
  content: content.nullish(),
  tool_calls: z.array(toolCallMessage).nullish(),
  tool_call_id: z.string().nullish(),
});
const jsonSchemaObject = z.record(z.string(), z.unknown());
const tool = z.object({
  type: z.literal('function'),
  function: z.object({
    name: z.string().min(1),
    description: z.string().nullish(),
    parameters: jsonSchemaObject.nullish(),
  }),
});

const stop = z.union([z.string().min(1), z.array(z.string().min(1)).max(MAX_STOP)]).nullish();
const sampling = {
  model: z.string().nullish(),
  temperature: z.number().min(0).max(2).nullish(),
  top_p: z.number().gt(0).max(1).nullish(),
  seed: z.int().nullish(),
  stop,
  n: z.int().min(1).max(MAX_N).nullish(),
  stream: z.boolean().nullish(),
  stream_options: z.object({ include_usage: z.boolean().nullish() }).nullish(),
};

const chatBody = z.object({
  ...sampling,
  messages: z.array(chatMessage).min(1),
  max_tokens: z.int().min(1).nullish(),
  max_completion_tokens: z.int().min(1).nullish(),
  logprobs: z.boolean().nullish(),
  top_logprobs: z.int().min(0).max(MAX_TOP_LOGPROBS).nullish(),
  tools: z.array(tool).nullish(),
  tool_choice: z
    .union([
      z.enum(['none', 'auto', 'required']),
      z.object({ type: z.literal('function'), function: z.object({ name: z.string() }) }),
    ])
    .nullish(),
  response_format: z
    .discriminatedUnion('type', [
      z.object({ type: z.literal('text') }),
      z.object({ type: z.literal('json_object') }),
      z.object({
        type: z.literal('json_schema'),
        json_schema: z.object({
          name: z.string(),
          schema: jsonSchemaObject.nullish(),
          strict: z.boolean().nullish(),
        }),
      }),
    ])
    .nullish(),
});

const tokenId = z.int().min(0);
const completionBody = z.object({
  ...sampling,
  // OpenAI's four forms: a text, texts, one prompt's token ids, several prompts' token ids.
  prompt: z.union(
    [
      z.string(),
      z.array(z.string()).min(1),
      z.array(tokenId).min(1),
      z.array(z.array(tokenId).min(1)).min(1),
    ],
    { error: 'expected a string, an array of strings, an array of token ids or an array of those' },
  ),
  // 0 with `echo`: the prompt's log-probs alone, as lm-evaluation-harness asks for them.
  max_tokens: z.int().min(0).nullish(),
  // Legacy completions: an integer, the number of alternatives per token.
  logprobs: z.int().min(0).max(MAX_TOP_LOGPROBS).nullish(),
  echo: z.boolean().nullish(),
  suffix: z.null({ error: 'suffix is not supported' }).optional(),
});

const embeddingBody = z.object({
  model: z.string().nullish(),
  input: z.union([z.string(), z.array(z.string()).min(1)], {
    error: 'input must be a string or an array of strings (token arrays are not supported)',
  }),
  encoding_format: z.enum(['float', 'base64']).nullish(),
  dimensions: z.int().min(1).nullish(),
});

export interface ChatCall {
  request: GenerateRequest;
  /** The tools the answer calls (held to one call's JSON); empty for a text answer. */
  tools: ToolSpec[];
  /** Choices asked for (`n`). */
  n: number;
  stream: boolean;
  includeUsage: boolean;
  logprobs: boolean;
  topLogprobs: number;
}

export interface CompletionCall {
  /** Each prompt's request is this one with its `rawPrompt`. `maxTokens` 0: nothing is generated (echo alone). */
  request: GenerateRequest;
  /** Texts or token ids, each answered by `n` choices in order. */
  prompts: (string | number[])[];
  n: number;
  /** The prompt is part of the answer, its tokens scored teacher-forced. */
  echo: boolean;
  stream: boolean;
  includeUsage: boolean;
  /** null when no log-probs were asked for; else the number of alternatives per token. */
  logprobs: number | null;
}

export interface EmbeddingCall {
  input: string[];
  encoding: 'float' | 'base64';
  dimensions?: number;
}

/** Max tokens when a chat request gives none (OpenAI: up to the context; a local model gets a finite default). */
export const DEFAULT_CHAT_MAX_TOKENS = 256;
/** OpenAI's legacy completions default. */
export const DEFAULT_COMPLETION_MAX_TOKENS = 16;

export function parseChatRequest(body: unknown): ChatCall {
  const b = parseBody(chatBody, body);
  if ((b.top_logprobs ?? 0) > 0 && b.logprobs !== true) {
    throw new HttpError(
      400,
      "Invalid value for 'top_logprobs': 'logprobs' must be set to true when 'top_logprobs' is used.",
      {
        param: 'top_logprobs',
        code: 'invalid_value',
      },
    );
  }
  const messages: ChatMessage[] = b.messages.map((m) => {
    const text =
      typeof m.content === 'string' ? m.content : (m.content ?? []).map((part) => part.text).join('');
    // A template knows no tool turns: a call is the assistant's JSON, a result the user's message.
    if (m.role === 'tool')
      return { role: 'user', content: `Function result (${m.tool_call_id ?? ''}): ${text}` };
    if (m.role === 'assistant' && m.tool_calls?.length)
      return {
        role: 'assistant',
        content: m.tool_calls
          .map((c) => JSON.stringify({ name: c.function.name, arguments: c.function.arguments }))
          .join('\n'),
      };
    return { role: m.role === 'developer' ? 'system' : m.role, content: text };
  });
  const { tools, mayReply } = toolsToCall(
    (b.tools ?? []).map((t) => ({
      name: t.function.name,
      ...(t.function.description && { description: t.function.description }),
      ...(t.function.parameters && { parameters: t.function.parameters }),
    })),
    b.tool_choice ?? undefined,
  );
  if (tools.length > 0 && b.response_format && b.response_format.type !== 'text')
    throw new HttpError(400, "'response_format' cannot be used with 'tools' on this server.", {
      param: 'response_format',
      code: 'unsupported_parameter',
    });
  const format = b.response_format;
  const json =
    tools.length > 0
      ? callSchema(tools, mayReply)
      : format?.type === 'json_object'
        ? true
        : format?.type === 'json_schema'
          ? (format.json_schema.schema ?? true)
          : undefined;
  const logprobs = b.logprobs === true;
  const topLogprobs = logprobs ? (b.top_logprobs ?? 0) : 0;
  const n = b.n ?? 1;
  if (n > 1 && b.stream === true) throw streamedN();
  return {
    tools,
    request: clean({
      messages: tools.length > 0 ? [toolsMessage(tools, mayReply), ...messages] : messages,
      json,
      temperature: b.temperature ?? undefined,
      topP: b.top_p ?? undefined,
      seed: b.seed ?? undefined,
      maxTokens: b.max_completion_tokens ?? b.max_tokens ?? DEFAULT_CHAT_MAX_TOKENS,
      stop: stopList(b.stop),
      logprobs: logprobs || undefined,
      topLogprobs: topLogprobs || undefined,
    }),
    n,
    stream: b.stream === true,
    includeUsage: b.stream_options?.include_usage === true,
    logprobs,
    topLogprobs,
  };
}

export function parseCompletionRequest(body: unknown): CompletionCall {
  const b = parseBody(completionBody, body);
  const prompts = promptList(b.prompt);
  const logprobs = b.logprobs ?? null;
  const echo = b.echo === true;
  const n = b.n ?? 1;
  if (b.max_tokens === 0 && !echo)
    throw new HttpError(400, "Invalid value for 'max_tokens': 0 is allowed only with 'echo'.", {
      param: 'max_tokens',
      code: 'invalid_value',
    });
  if (echo && b.stream === true)
    throw new HttpError(400, "'echo' cannot be used with 'stream' on this server.", {
      param: 'echo',
      code: 'unsupported_parameter',
    });
  if (n > 1 && b.stream === true) throw streamedN();
  if (prompts.length > 1 && b.stream === true)
    throw new HttpError(400, "Several prompts cannot be streamed on this server: ask without 'stream'.", {
      param: 'prompt',
      code: 'unsupported_parameter',
    });
  return {
    request: clean({
      messages: [],
      temperature: b.temperature ?? undefined,
      topP: b.top_p ?? undefined,
      seed: b.seed ?? undefined,
      maxTokens: b.max_tokens ?? DEFAULT_COMPLETION_MAX_TOKENS,
      stop: stopList(b.stop),
      logprobs: logprobs !== null || undefined,
      topLogprobs: logprobs || undefined,
    }),
    prompts,
    n,
    echo,
    stream: b.stream === true,
    includeUsage: b.stream_options?.include_usage === true,
    logprobs,
  };
}

export function parseEmbeddingRequest(body: unknown): EmbeddingCall {
  const b = parseBody(embeddingBody, body);
  return {
    input: typeof b.input === 'string' ? [b.input] : b.input,
    encoding: b.encoding_format ?? 'float',
    dimensions: b.dimensions ?? undefined,
  };
}

/** The prompts of a completions request: one text or token list, or several. */
function promptList(prompt: string | string[] | number[] | number[][]): (string | number[])[] {
  if (typeof prompt === 'string') return [prompt];
  return typeof prompt[0] === 'number' ? [prompt as number[]] : (prompt as string[] | number[][]);
}

function streamedN(): HttpError {
  return new HttpError(400, "'n' > 1 cannot be streamed on this server: ask without 'stream'.", {
    param: 'n',
    code: 'unsupported_parameter',
  });
}

function stopList(value: string | string[] | null | undefined): string[] | undefined {
  if (value === null || value === undefined) return undefined;
  const list = typeof value === 'string' ? [value] : value;
  return list.length > 0 ? list : undefined;
}

/** Drops undefined members so the request (which is hashed into cache keys downstream) has one spelling. */
function clean(request: GenerateRequest): GenerateRequest {
  return Object.fromEntries(
    Object.entries(request).filter(([, v]) => v !== undefined),
  ) as unknown as GenerateRequest;
}

export function parseBody<T>(schema: z.ZodType<T>, body: unknown): T {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new HttpError(400, 'The request body must be a JSON object.', { code: 'invalid_json' });
  }
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0] as z.core.$ZodIssue;
  const param = paramName(issue.path);
  if (valueAt(body, issue.path) === undefined && issue.code === 'invalid_type') {
    throw new HttpError(400, `Missing required parameter: '${param}'.`, {
      param,
      code: 'missing_required_parameter',
    });
  }
  throw new HttpError(400, `Invalid value for '${param}': ${issue.message}.`, {
    param,
    code: 'invalid_value',
  });
}

/** `messages[0].content`, as OpenAI names nested parameters. */
function paramName(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) out += typeof key === 'number' ? `[${key}]` : `${out ? '.' : ''}${String(key)}`;
  return out;
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}
