import type { LlamaContextSequence } from 'node-llama-cpp';

/** A fixed set of sequences handed out one request at a time, first come first served. */
export class SequencePool {
  readonly #free: LlamaContextSequence[];
  readonly #waiting: ((sequence: LlamaContextSequence) => void)[] = [];

  constructor(sequences: LlamaContextSequence[]) {
    this.#free = sequences;
  }

  async use<T>(work: (sequence: LlamaContextSequence) => Promise<T>): Promise<T> {
    const sequence =
      this.#free.pop() ?? (await new Promise<LlamaContextSequence>((resolve) => this.#waiting.push(resolve)));
    try {
      return await work(sequence);
    } finally {
      const next = this.#waiting.shift();
      if (next) next(sequence);
      else this.#free.push(sequence);
    }
  }
}
