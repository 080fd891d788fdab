import type { TokenLogprob } from './types.js';

/**
 * The deltas of a streamed gguf generation. Nothing sent is taken back, so text that may still
 * become a stop string (and tokens that may still become a stop-token sequence) waits until it
 * cannot. The deltas thus spell exactly the text and tokens of the result.
 */
export class DeltaSender {
  readonly #onDelta: (text: string, tokens: TokenLogprob[]) => void;
  /** The log-prob entries of the generation, filled as it goes. */
  readonly #entries: readonly TokenLogprob[];
  #sentChars = 0;
  #sentTokens = 0;

  constructor(onDelta: (text: string, tokens: TokenLogprob[]) => void, entries: readonly TokenLogprob[]) {
    this.#onDelta = onDelta;
    this.#entries = entries;
  }

  /** Sends what is not sent yet of the text up to `upTo` and of the first `tokenCount` entries. */
  send(text: string, upTo: number, tokenCount: number): void {
    if (upTo <= this.#sentChars && tokenCount <= this.#sentTokens) return;
    this.#onDelta(text.slice(this.#sentChars, upTo), this.#entries.slice(this.#sentTokens, tokenCount));
    this.#sentChars = upTo;
    this.#sentTokens = tokenCount;
  }

  /** Sends the text before `safe` and the entries of the tokens whose text begins before it (`offsets[i]`). */
  sendBefore(text: string, safe: number, offsets: readonly number[]): void {
    let count = this.#sentTokens;
    while (count < this.#entries.length && (offsets[count] as number) < safe) count++;
    this.send(text, safe, count);
  }
}
