import type { Route } from '../http/route-table.js';
import type { ModelProvider } from '../models/types.js';
import { type Exchange, HttpError, readJsonBody, sendJson } from './http-util.js';
import { ServedTokenizer } from './served-tokenizer.js';

/**
 * vLLM's tokenizer routes, which lm-evaluation-harness's `tokenizer_backend=remote` reads:
 * `/tokenizer_info` (BOS, EOS and the context), `/tokenize` (`{prompt}` to `{tokens, count}`, no
 * BOS added) and `/detokenize` (`{tokens}` to `{prompt}`). docs/serve.md#tokenizer.
 */
export function tokenizerRoutes(m: TokenizerOwner): Route<Exchange>[] {
  const body = async (x: Exchange) => asRecord(await readJsonBody(x.req, m.maxBodyBytes));
  return [
    {
      method: 'GET',
      path: '/tokenizer_info',
      handle: ({ res }) => sendJson(res, 200, tokenizerInfo(m)),
    },
    {
      method: 'POST',
      path: '/tokenize',
      handle: async (x) => {
        const tokenizer = new ServedTokenizer(m.provider, m.name);
        const { prompt } = await body(x);
        if (typeof prompt !== 'string')
          throw new HttpError(400, "Missing required parameter: 'prompt' (a string).", {
            param: 'prompt',
            code: 'missing_required_parameter',
          });
        const tokens = await tokenizer.tokenize(prompt);
        sendJson(x.res, 200, { tokens, count: tokens.length, max_model_len: tokenizer.contextSize ?? null });
      },
    },
    {
      method: 'POST',
      path: '/detokenize',
      handle: async (x) => {
        const tokenizer = new ServedTokenizer(m.provider, m.name);
        const { tokens } = await body(x);
        if (!isTokenList(tokens))
          throw new HttpError(400, "Invalid value for 'tokens': expected an array of token ids.", {
            param: 'tokens',
            code: 'invalid_value',
          });
        sendJson(x.res, 200, { prompt: await tokenizer.detokenize(tokens) });
      },
    },
  ];
}

/** The served model, as these routes need it. */
interface TokenizerOwner {
  provider: ModelProvider;
  name: string;
  maxBodyBytes: number;
}

/** vLLM's fields: the special tokens by text (lm-evaluation-harness reads these) and by id. */
function tokenizerInfo(m: TokenizerOwner) {
  const { bos, eos, contextSize } = new ServedTokenizer(m.provider, m.name);
  return {
    tokenizer_class: 'gguf',
    model: m.name,
    bos_token: bos?.text ?? null,
    bos_token_id: bos?.id ?? null,
    eos_token: eos?.text ?? null,
    eos_token_id: eos?.id ?? null,
    max_model_len: contextSize ?? null,
  };
}

export function isTokenList(value: unknown): value is number[] {
  return Array.isArray(value) && value.every((t) => Number.isInteger(t) && t >= 0);
}

function asRecord(body: unknown): Record<string, unknown> {
  return typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
}
