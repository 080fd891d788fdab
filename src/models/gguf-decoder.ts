import type { LlamaModel, Token } from 'node-llama-cpp';

/**
 * Turns generated tokens into text as they come. A token that ends inside a multi-byte UTF-8
 * character is held back until the character completes, so the text never contains a half
 * character (U+FFFD) that the whole sequence would not.
 */
export class IncrementalDecoder {
  text = '';
  readonly #model: LlamaModel;
  readonly #history: Token[];
  #pending: Token[] = [];

  constructor(model: LlamaModel, context: Token[]) {
    this.#model = model;
    this.#history = context.slice();
  }

  push(token: Token): void {
    this.#pending.push(token);
    const piece = this.#model.detokenize(this.#pending, false, this.#history.slice(-8));
    if (piece.endsWith('\uFFFD') && this.#pending.length < 4 && !this.#model.isSpecialToken(token)) return;
    this.#commit(piece);
  }

  finish(): string {
    if (this.#pending.length > 0)
      this.#commit(this.#model.detokenize(this.#pending, false, this.#history.slice(-8)));
    return this.text;
  }

  #commit(piece: string): void {
    this.text += piece;
    this.#history.push(...this.#pending);
    this.#pending = [];
  }
}
