import type { ModelProvider, SpecialToken } from '../models/types.js';
import { HttpError } from './http-util.js';

/**
 * The model's tokenizer as `waver serve` exposes it (vLLM's `/tokenize`, `/detokenize`,
 * `/tokenizer_info`) and reads prompts given as token ids. The model puts BOS before every raw
 * prompt; a prompt that starts with BOS's own text (`<s>`) means that same BOS, as llama.cpp's
 * server and a Hugging Face tokenizer read it. So a window `[BOS, ...text]` that a client (an
 * lm-evaluation-harness perplexity task) detokenizes reads back as the same tokens, and its echo
 * lists that BOS first, with no log-prob (nothing precedes it). docs/serve.md#tokenizer.
 */
export class ServedTokenizer {
  readonly bos: SpecialToken | undefined;
  readonly eos: SpecialToken | undefined;
  readonly contextSize: number | undefined;
  readonly #provider: ModelProvider;
  readonly #name: string;

  constructor(provider: ModelProvider, name: string) {
    this.#provider = provider;
    this.#name = name;
    const info = provider.tokenizerInfo?.();
    this.bos = info?.bos;
    this.eos = info?.eos;
    this.contextSize = info?.contextSize;
  }

  /** A prompt without the leading BOS text it may start with, and whether it did. */
  splitBos(prompt: string): { bos: boolean; text: string } {
    const bos = this.bos !== undefined && prompt.startsWith(this.bos.text);
    return { bos, text: bos ? prompt.slice((this.bos as SpecialToken).text.length) : prompt };
  }

  /** A text's tokens; BOS's or EOS's text alone is that token (lm-evaluation-harness finds their ids so). */
  async tokenize(text: string): Promise<number[]> {
    if (this.eos !== undefined && text === this.eos.text) return [this.eos.id];
    const { bos, text: rest } = this.splitBos(text);
    const tokens = rest === '' ? [] : await this.#tokenizer().tokenize(rest);
    return bos ? [(this.bos as SpecialToken).id, ...tokens] : tokens;
  }

  /** Tokens' text; a leading BOS spelled as its text, and the text after it as if it began the prompt. */
  async detokenize(tokens: number[]): Promise<string> {
    if (this.bos !== undefined && tokens[0] === this.bos.id)
      return this.bos.text + (await this.#detokenizeText(tokens.slice(1)));
    return this.#detokenizeText(tokens);
  }

  #detokenizeText(tokens: number[]): Promise<string> {
    return tokens.length === 0 ? Promise.resolve('') : this.#tokenizer().detokenize(tokens);
  }

  #tokenizer(): Required<Pick<ModelProvider, 'tokenize' | 'detokenize'>> {
    const { tokenize, detokenize } = this.#provider;
    if (!tokenize || !detokenize)
      throw new HttpError(400, `The model '${this.#name}' has no tokenizer to expose.`, {
        code: 'unsupported',
      });
    const provider = this.#provider;
    return {
      tokenize: (text) => tokenize.call(provider, text),
      detokenize: (tokens) => detokenize.call(provider, tokens),
    };
  }

  /** The text of a prompt given as token ids, refused when that text would not read back as those tokens. */
  async promptOf(tokens: number[], param: string): Promise<string> {
    const text = await this.detokenize(tokens);
    const again = await this.tokenize(text);
    if (again.length !== tokens.length || again.some((t, i) => t !== tokens[i]))
      throw new HttpError(
        400,
        `Invalid value for '${param}': these tokens spell ${JSON.stringify(text.slice(0, 80))}, which reads back as other tokens; this server scores text, so give tokens as the model's own tokenizer makes them (POST /tokenize).`,
        { param, code: 'invalid_value' },
      );
    return text;
  }
}
