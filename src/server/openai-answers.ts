import type {
  GenerateRequest,
  GenerateResult,
  ModelProvider,
  SpecialToken,
  TokenLogprob,
} from '../models/types.js';
import { HttpError } from './http-util.js';
import type { ChatCall, CompletionCall } from './openai-requests.js';
import {
  chatCompletion,
  type PromptAnswer,
  type PromptToken,
  type ResponseMeta,
  textCompletion,
} from './openai-responses.js';
import { toolAnswer } from './openai-tools.js';
import { ServedTokenizer } from './served-tokenizer.js';

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
  if (call.tools.length === 0) return chatCompletion(meta, results, call.logprobs, call.topLogprobs);
  // Under tools each choice is a call, or a reply whose text is the message's.
  const answers = results.map(toolAnswer);
  const texts = results.map((r, i) => {
    const answer = answers[i];
    return answer && 'text' in answer ? { ...r, text: answer.text } : r;
  });
  const calls = answers.map((a) => ('call' in a ? a.call : undefined));
  return chatCompletion(meta, texts, call.logprobs, call.topLogprobs, calls);
}

/** Each prompt's `n` choices in turn (prompt-major, as OpenAI orders them); token ids read as their text. */
export async function answerCompletion(
  provider: ModelProvider,
  call: CompletionCall,
  meta: ResponseMeta,
  signal: AbortSignal,
) {
  const tokenizer = new ServedTokenizer(provider, meta.model);
  const answers: PromptAnswer[] = [];
  for (const i of call.prompts.keys()) {
    const { prompt, bos, request } = await promptRequest(tokenizer, call, i);
    const text = request.rawPrompt as string;
    const echoed = call.echo
      ? await promptLogprobs(provider, text, call.logprobs ?? 0, signal, bos ? tokenizer.bos : undefined)
      : undefined;
    const results =
      request.maxTokens === 0
        ? [nothingGenerated(echoed?.length ?? 0)]
        : await choices(provider, request, call.n, signal);
    answers.push({ prompt, results, echoed });
  }
  return textCompletion(meta, answers, call.logprobs);
}

/**
 * The request for the call's `i`th prompt: its text (token ids read as theirs), without the BOS
 * text it may start with, which the model puts there anyway (served-tokenizer.ts).
 */
export async function promptRequest(
  tokenizer: ServedTokenizer,
  call: CompletionCall,
  i: number,
): Promise<{ prompt: string; bos: boolean; request: GenerateRequest }> {
  const given = call.prompts[i] as string | number[];
  const param = call.prompts.length > 1 ? `prompt[${i}]` : 'prompt';
  const prompt = typeof given === 'string' ? given : await tokenizer.promptOf(given, param);
  const { bos, text } = tokenizer.splitBos(prompt);
  return { prompt, bos, request: { ...call.request, rawPrompt: text } };
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
 * log-prob is given (after BOS), where OpenAI gave none; a BOS the prompt spelled out comes first,
 * with none. The tokens spell the prompt exactly (`spellingOf`).
 */
async function promptLogprobs(
  provider: ModelProvider,
  text: string,
  topLogprobs: number,
  signal: AbortSignal,
  bos: SpecialToken | undefined,
): Promise<PromptToken[]> {
  if (!provider.score || !provider.capabilities.scoreContinuation)
    throw new HttpError(400, "This model cannot score a prompt, so 'echo' is not supported.", {
      param: 'echo',
      code: 'unsupported_parameter',
    });
  const scored = await provider.score(
    { messages: [], rawPrompt: '', continuation: text, topLogprobs },
    { signal },
  );
  const tokens = spellingOf(scored.tokens, text);
  return bos ? [{ token: bos.text, logprob: null }, ...tokens] : tokens;
}

/**
 * Tokens that spell `text` exactly. A SentencePiece model reads a text that starts with spaces
 * after a dummy "▁" of its own, and spells its first token without that space: the spaces the
 * pieces lack are the first token's. Pieces that miss anything else are left as the model spells them.
 */
export function spellingOf(tokens: TokenLogprob[], text: string): TokenLogprob[] {
  const joined = tokens.map((t) => t.token).join('');
  const missing = text.slice(0, text.length - joined.length);
  const first = tokens[0];
  if (joined === text || !first || !text.endsWith(joined) || missing.trim() !== '') return tokens;
  return [{ ...first, token: missing + first.token }, ...tokens.slice(1)];
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
