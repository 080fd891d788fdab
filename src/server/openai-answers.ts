import type { GenerateRequest, GenerateResult, ModelProvider, TokenLogprob } from '../models/types.js';
import { HttpError } from './http-util.js';
import type { ChatCall, CompletionCall } from './openai-requests.js';
import { chatCompletion, type ResponseMeta, textCompletion } from './openai-responses.js';
import { toolCallOf } from './openai-tools.js';

/**
 * The whole (unstreamed) answer to a chat or completions call, as both the routes and the batch
 * worker give it: `n` choices, and for `echo` the prompt's own tokens scored teacher-forced.
 */

export async function answerChat(
  provider: ModelProvider,
  call: ChatCall,
  meta: ResponseMeta,
  signal: AbortSignal,
) {
  const results = await choices(provider, call.request, call.n, signal);
  const calls = call.tools.length > 0 ? results.map(toolCallOf) : [];
  return chatCompletion(meta, results, call.logprobs, call.topLogprobs, calls);
}

export async function answerCompletion(
  provider: ModelProvider,
  call: CompletionCall,
  meta: ResponseMeta,
  signal: AbortSignal,
) {
  const echoed = call.echo ? await promptLogprobs(provider, call, signal) : undefined;
  const results =
    call.request.maxTokens === 0
      ? [nothingGenerated(echoed?.length ?? 0)]
      : await choices(provider, call.request, call.n, signal);
  return textCompletion(meta, results, call.prompt, call.logprobs, echoed);
}

/**
 * `n` answers to one request: repeats, each with its own seed (the request's, else a drawn one,
 * plus the choice's index) when sampling; at temperature 0 decoding is greedy and every repeat is
 * the same answer, so it is computed once.
 */
async function choices(
  provider: ModelProvider,
  request: GenerateRequest,
  n: number,
  signal: AbortSignal,
): Promise<GenerateResult[]> {
  if (n === 1 || (request.temperature ?? 0) === 0) {
    const result = await provider.generate(request, { signal });
    return Array.from({ length: n }, () => result);
  }
  const base = request.seed ?? Math.floor(Math.random() * 2 ** 31);
  const results: GenerateResult[] = [];
  for (let i = 0; i < n; i++)
    results.push(await provider.generate({ ...request, seed: base + i }, { signal }));
  return results;
}

/**
 * The prompt's tokens with their log-probs, teacher-forced after BOS: the same scoring path as
 * waver's own SAGO measures (the provider's `score`), over the raw prompt. The first token's
 * log-prob is given (after BOS), where OpenAI gave none.
 */
async function promptLogprobs(
  provider: ModelProvider,
  call: CompletionCall,
  signal: AbortSignal,
): Promise<TokenLogprob[]> {
  if (!provider.score || !provider.capabilities.scoreContinuation)
    throw new HttpError(400, "This model cannot score a prompt, so 'echo' is not supported.", {
      param: 'echo',
      code: 'unsupported_parameter',
    });
  const scored = await provider.score(
    { messages: [], rawPrompt: '', continuation: call.prompt, topLogprobs: call.logprobs ?? 0 },
    { signal },
  );
  return scored.tokens;
}

/** `max_tokens: 0`: the prompt alone, cut at once by the length limit. */
function nothingGenerated(promptTokens: number): GenerateResult {
  return {
    text: '',
    tokens: [],
    finishReason: 'length',
    usage: { inputTokens: promptTokens, outputTokens: 0 },
  };
}
