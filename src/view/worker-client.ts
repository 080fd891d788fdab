import { Worker } from 'node:worker_threads';
import { InputError } from '../errors.js';

/**
 * A worker thread the viewer hands slow work to (building a report, searching a million cells),
 * so its own event loop answers every other request at once. Requests are answered in turn;
 * the thread starts on the first request and is restarted after it dies.
 */

export interface WorkerRequest {
  id: number;
  body: unknown;
}

/** A failure, with where an InputError said it was (a damaged store names its file), so it stays one. */
export type WorkerReply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: string; input?: InputWhere };

type InputWhere = { reason: string; file?: string; line?: number; field?: string };

export class WorkerClient {
  private worker: Worker | undefined;
  private next = 1;
  private readonly waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

  constructor(private readonly entry: URL) {}

  request<T>(body: unknown): Promise<T> {
    const worker = this.started();
    const id = this.next++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      worker.postMessage({ id, body } satisfies WorkerRequest);
    });
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = undefined;
    if (w) await w.terminate();
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.entry);
    worker.on('message', (reply: WorkerReply) => {
      const waiting = this.waiting.get(reply.id);
      if (!waiting) return;
      this.waiting.delete(reply.id);
      if (reply.ok) waiting.resolve(reply.value);
      else
        waiting.reject(
          reply.input ? new InputError(reply.input.reason, reply.input) : new Error(reply.error),
        );
    });
    const failAll = (error: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const w of this.waiting.values()) w.reject(error);
      this.waiting.clear();
    };
    worker.on('error', failAll);
    worker.on('exit', (code) => failAll(new Error(`the viewer's worker stopped (exit ${code})`)));
    // A viewer with nothing to do may exit: the thread alone does not keep it alive.
    worker.unref();
    this.worker = worker;
    return worker;
  }
}

/** The worker's side: answers each request with `handle`'s value or its error's message. */
export function serveRequests(
  port: { on(event: 'message', f: (m: WorkerRequest) => void): void; postMessage(m: WorkerReply): void },
  handle: (body: unknown) => unknown,
): void {
  port.on('message', ({ id, body }) => {
    let reply: WorkerReply;
    try {
      reply = { id, ok: true, value: handle(body) };
    } catch (e) {
      reply = { id, ok: false, error: (e as Error)?.message ?? String(e) };
      if (e instanceof InputError)
        reply.input = {
          reason: e.reason,
          ...(e.file !== undefined && { file: e.file }),
          ...(e.line !== undefined && { line: e.line }),
          ...(e.field !== undefined && { field: e.field }),
        };
    }
    port.postMessage(reply);
  });
}
