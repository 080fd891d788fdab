/**
 * Work in flight by key, so identical asks made at once share one piece of work: the call path's
 * deterministic calls (`run/call-path/dedupe.ts`), aux results (`run/aux-cache.ts`) and the
 * engine's cells with identical requests (`run/engine/in-flight-requests.ts`). A key is remembered only
 * while its work is in flight, so memory is bounded by the work in flight, not by the run.
 */
export class InFlight<T> {
  private readonly running = new Map<string, Promise<T>>();

  get(key: string): Promise<T> | undefined {
    return this.running.get(key);
  }

  has(key: string): boolean {
    return this.running.has(key);
  }

  /** The work in flight under `key`, or else `start()`'s, remembered until it settles. */
  share(key: string, start: () => Promise<T>): Promise<T> {
    const running = this.running.get(key);
    if (running) return running;
    const work: Promise<T> = start().finally(() => this.forget(key, work));
    this.running.set(key, work);
    return work;
  }

  /** Remembers `work` under `key` until `forget` (for work whose key must outlive its promise). */
  hold(key: string, work: Promise<T>): void {
    this.running.set(key, work);
  }

  /** Forgets `key` if it still names `work`: a later holder of the key is kept. */
  forget(key: string, work: Promise<T>): void {
    if (this.running.get(key) === work) this.running.delete(key);
  }
}
