/**
 * A queue one side pushes into and the other reads with `for await`. It carries a generation's
 * tokens out of the callback that holds its sequence to a streaming caller. Unbounded: an answer
 * is far smaller than what a socket buffers.
 */
export class EventQueue<T> implements AsyncIterable<T> {
  #items: T[] = [];
  #ended = false;
  #failure: { error: unknown } | undefined;
  #wake: (() => void) | undefined;

  push(item: T): void {
    this.#items.push(item);
    this.#notify();
  }

  /** No more items: the reader finishes after those already pushed. */
  end(): void {
    this.#ended = true;
    this.#notify();
  }

  /** The reader throws `error` after the items already pushed. */
  fail(error: unknown): void {
    this.#failure = { error };
    this.#notify();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    for (;;) {
      if (this.#items.length > 0) {
        const batch = this.#items;
        this.#items = [];
        yield* batch;
      } else if (this.#failure) {
        throw this.#failure.error;
      } else if (this.#ended) {
        return;
      } else {
        await new Promise<void>((resolve) => {
          this.#wake = resolve;
        });
      }
    }
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }
}
