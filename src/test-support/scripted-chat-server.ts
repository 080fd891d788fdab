import type { IncomingHttpHeaders } from 'node:http';
import { type Loopback, sendJson, startLoopback } from './models/loopback.js';

/** What the server answers one chat call with: a status, a JSON body and headers. */
export interface ScriptedAnswer {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface ScriptedChatServer {
  /** Base URL ending in /v1. */
  url: string;
  /** Chat calls received per prompt (the last user message). */
  calls(prompt?: string): number;
  /** Chat calls received per model, as the request body named it. */
  callsOf(model: string): number;
  close(): Promise<void>;
}

/**
 * An OpenAI-compatible chat endpoint on 127.0.0.1 whose answer to each call is `answer(prompt,
 * model, headers)`: the shapes providers really send (a refusal, a filtered answer, an error body), one per
 * prompt. Any other route (the reachability check) gets a 404.
 */
export async function startScriptedChatServer(
  answer: (prompt: string, model: string, headers: IncomingHttpHeaders) => ScriptedAnswer,
): Promise<ScriptedChatServer> {
  const byPrompt = new Map<string, number>();
  const byModel = new Map<string, number>();
  const server: Loopback = await startLoopback((req, res, seen) => {
    if (req.method !== 'POST' || !seen.url.endsWith('/chat/completions'))
      return sendJson(res, 404, { error: { message: `no route ${seen.method} ${seen.url}` } });
    const body = JSON.parse(seen.body) as { model: string; messages: { role: string; content: string }[] };
    const prompt = body.messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';
    byPrompt.set(prompt, (byPrompt.get(prompt) ?? 0) + 1);
    byModel.set(body.model, (byModel.get(body.model) ?? 0) + 1);
    const a = answer(prompt, body.model, seen.headers);
    sendJson(res, a.status ?? 200, a.body, a.headers);
  });
  return {
    url: `${server.origin}/v1`,
    calls: (prompt) =>
      prompt === undefined ? [...byPrompt.values()].reduce((a, b) => a + b, 0) : (byPrompt.get(prompt) ?? 0),
    callsOf: (model) => byModel.get(model) ?? 0,
    close: () => server.close(),
  };
}

/** A chat completion as OpenAI sends it: one choice with this message and finish reason. */
export function completion(
  message: Record<string, unknown>,
  finishReason: string,
  usage: Record<string, unknown> = { prompt_tokens: 5, completion_tokens: 3 },
): ScriptedAnswer {
  return {
    body: {
      id: 'chatcmpl-scripted',
      object: 'chat.completion',
      created: 0,
      model: 'scripted',
      choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finishReason }],
      usage,
    },
  };
}
