/** Checks on what a caller asks of the gguf provider, turned into the parameters a generation runs with. */
import { ProviderError } from './errors.js';
import type { GenerateRequest } from './types.js';

export const DEFAULT_MAX_TOKENS = 256;
export const MAX_TOP_LOGPROBS = 20;

export interface GenerateParams {
  temperature: number;
  topP: number;
  seed: number;
  maxTokens: number;
  stop: string[];
  wantTokens: boolean;
  topK: number;
}

export function validateMessages(messages: unknown): asserts messages is GenerateRequest['messages'] {
  if (!Array.isArray(messages) || messages.length === 0) {
    throw new ProviderError('client', 'messages must be a non-empty array (or pass rawPrompt)');
  }
  for (const [i, m] of messages.entries()) {
    const message = m as { role?: unknown; content?: unknown } | null;
    if (!message || !['system', 'user', 'assistant'].includes(message.role as string)) {
      throw new ProviderError('client', `messages[${i}].role must be system, user or assistant`);
    }
    if (typeof message.content !== 'string')
      throw new ProviderError('client', `messages[${i}].content must be a string`);
  }
}

export function validateGenerate(request: GenerateRequest): GenerateParams {
  const temperature = request.temperature ?? 0;
  if (typeof temperature !== 'number' || !Number.isFinite(temperature) || temperature < 0) {
    throw new ProviderError(
      'client',
      `temperature must be a number >= 0, got ${String(request.temperature)}`,
    );
  }
  const topP = request.topP ?? 1;
  if (typeof topP !== 'number' || !(topP > 0 && topP <= 1)) {
    throw new ProviderError('client', `topP must be in (0, 1], got ${String(request.topP)}`);
  }
  const maxTokens = request.maxTokens ?? DEFAULT_MAX_TOKENS;
  if (!Number.isInteger(maxTokens) || maxTokens < 1) {
    throw new ProviderError(
      'client',
      `maxTokens must be a positive integer, got ${String(request.maxTokens)}`,
    );
  }
  const stop = request.stop ?? [];
  if (!Array.isArray(stop) || stop.some((s) => typeof s !== 'string' || s === '')) {
    throw new ProviderError('client', 'stop must be an array of non-empty strings');
  }
  const topK = request.topLogprobs ?? 0;
  if (!Number.isInteger(topK) || topK < 0 || topK > MAX_TOP_LOGPROBS) {
    throw new ProviderError(
      'client',
      `topLogprobs must be an integer from 0 to ${MAX_TOP_LOGPROBS}, got ${String(request.topLogprobs)}`,
    );
  }
  if (request.seed !== undefined && !Number.isFinite(request.seed)) {
    throw new ProviderError('client', `seed must be a finite number, got ${String(request.seed)}`);
  }
  // Without a seed, sampling at temperature > 0 draws a fresh one, as OpenAI does; pass a seed to reproduce.
  const seed = request.seed ?? Math.floor(Math.random() * 2 ** 32);
  return {
    temperature,
    topP,
    seed,
    maxTokens,
    stop,
    wantTokens: request.logprobs === true || topK > 0,
    topK,
  };
}

/** How to give a request more room: the context rounded up to a power of two, in each place it is set. */
export function raiseContext(tokens: number): string {
  const ctx = 2 ** Math.ceil(Math.log2(tokens));
  return `raise the context with ?ctx=${ctx} on the model spec (gguf:FILE.gguf?ctx=${ctx}), contextSize: ${ctx} on the model in waver.yaml, or waver serve --context-size ${ctx}`;
}
