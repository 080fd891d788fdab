import type { BatchOutcome, BatchStatus } from '../../models/types.js';
import { toCellError } from '../cell-error.js';
import type { CellError } from '../types.js';
import type { BatchQueue } from './batch-queue.js';
import type { BatchRun } from './batch-run.js';
import type { OpenBatch } from './open-batches.js';

/** Stores ended batches' answers as ordinary cells; the cells one left unanswered are asked again or failed. */
export class BatchCollector {
  /** Times each lane's unanswered requests were submitted again in this run. */
  private readonly resubmitted = new Map<string, number>();

  constructor(
    private readonly run: BatchRun,
    private readonly queue: BatchQueue,
  ) {}

  async collect(b: OpenBatch, status: BatchStatus): Promise<void> {
    const { store, cells } = this.run;
    const { record } = b;
    const latencyMs = Date.now() - Date.parse(record.submittedAt);
    const answered = status.state === 'ended' ? await this.storeResults(b, latencyMs) : new Set<string>();
    await this.settleUnanswered(b, status, answered, latencyMs);
    cells.flush();
    store.batches.end(record.id, status.state === 'failed' ? 'failed' : 'collected', status.message);
    this.run.tally.batches.ended++;
    this.run.tally.emit();
  }

  /**
   * A batch the provider no longer knows (404: a restarted server, a provider past its retention):
   * ended unanswered, so its cells are given back to be submitted again instead of waiting on it.
   */
  async forgotten(b: OpenBatch, why: string): Promise<void> {
    const status: BatchStatus = { state: 'ended', finished: 0, total: b.record.requests, message: why };
    await this.settleUnanswered(b, status, new Set(), Date.now() - Date.parse(b.record.submittedAt));
    this.run.cells.flush();
    this.run.store.batches.end(b.record.id, 'failed', why);
    this.run.tally.batches.ended++;
    this.run.tally.emit();
  }

  /** Stores an ended batch's results; returns the custom ids it answered (or errored). */
  private async storeResults(b: OpenBatch, latencyMs: number): Promise<Set<string>> {
    const { store, cache, suiteHash } = this.run;
    const { record, lane } = b;
    const answered = new Set<string>();
    const outcomes = await this.run.call.query(async (s) => {
      // Read whole before anything is written: a download cut off is read again from the start.
      const all: BatchOutcome[] = [];
      for await (const o of lane.api.results(record.providerId as string, { signal: s })) all.push(o);
      return all;
    });
    let repeated = 0;
    for (const o of outcomes) {
      if (!o.ok && 'missing' in o) continue;
      // A custom id answered twice: the first line read is kept, and its tokens counted once.
      if (answered.has(o.customId)) {
        repeated++;
        continue;
      }
      answered.add(o.customId);
      for (const c of store.batches.cells(record.id, o.customId)) {
        // Stored by an earlier collection that was cut short.
        if (cache && store.cells.doneKey(suiteHash, lane.identity, c.testId, c.repeat) === c.key) continue;
        const started = { attempt: 1, startedAt: record.submittedAt, latencyMs };
        if (o.ok) this.run.cells.done(lane, c, c.key, o.result, [{ ...started, outcome: 'ok' }], latencyMs);
        else {
          const err = toCellError(o.error);
          // A line refused for a key or a quota stops the model for the batches still to submit (E35).
          if (o.error.stopsModel) this.run.stops.stop(lane.label, err);
          this.run.cells.failed(lane, c, err, [{ ...started, outcome: err.kind, message: err.message }]);
        }
      }
    }
    if (repeated > 0)
      this.run.open.note(
        `${lane.label}: batch ${record.providerId ?? record.id}: ${repeated} output line(s) repeat a custom_id read already; the first line read is kept`,
      );
    return answered;
  }

  /** The batch's cells with no answer: failed with a batch that failed, else asked again up to `maxRetries` times. */
  private async settleUnanswered(
    b: OpenBatch,
    status: BatchStatus,
    answered: ReadonlySet<string>,
    latencyMs: number,
  ): Promise<void> {
    const { record, lane } = b;
    const left = this.run.store.batches.cells(record.id).filter((c) => !answered.has(c.customId));
    const again = this.resubmitted.get(lane.label) ?? 0;
    if (left.length > 0 && status.state !== 'failed') {
      const what = again < this.run.maxRetries ? 'submitted again' : 'left pending for the next run';
      this.run.open.note(
        `${lane.label}: batch ${record.providerId ?? record.id}: ${status.message ?? 'ended'}; its ${left.length} unanswered request(s) are ${what}`,
      );
    }
    for (const c of left) {
      if (status.state === 'failed') {
        const err: CellError = { kind: 'client', message: `${lane.identity}: ${status.message}` };
        this.run.cells.failed(lane, c, err, [
          { attempt: 1, startedAt: record.submittedAt, latencyMs, outcome: err.kind, message: err.message },
        ]);
      } else if (again < this.run.maxRetries) await this.queue.add(lane, c);
      // Else it stays pending: a later run asks again.
    }
    if (left.length > 0 && status.state !== 'failed') this.resubmitted.set(lane.label, again + 1);
  }
}
