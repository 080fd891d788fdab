import type { BatchRecord } from '../../store/store.js';
import { toCellError } from '../cell-error.js';
import type { BatchProgress } from '../types.js';
import type { BatchLane } from './lane.js';

/** The due time of a batch this run does not poll (again). */
export const NEVER = Number.POSITIVE_INFINITY;

export interface OpenBatch {
  record: BatchRecord;
  lane: BatchLane;
  /** Requests the provider has answered so far. */
  answered: number;
  /** When it is polled next (performance.now() ms). */
  dueAt: number;
  /** Its poll or download failed past the retries: left open for a later run. */
  unreachable?: true;
}

/**
 * The batches a run follows until they are collected: those it submitted and those it found open
 * in the store. Counts them in the progress's batches, and keeps the notes on the ones it leaves open.
 */
export class OpenBatches {
  private readonly open: OpenBatch[] = [];
  /** Requests of the batches collected so far. */
  private answeredBefore = 0;
  /** What the run's last lines say about batches left open. */
  readonly notes: string[] = [];

  constructor(
    private readonly counts: BatchProgress,
    /** false: batches found open are polled once, new ones never. */
    private readonly wait: boolean,
    private readonly pollMs: number,
  ) {}

  /** A batch a killed run left (docs/batch.md#resume). */
  found(record: BatchRecord, lane: BatchLane): void {
    // Polled at once: it may have ended long ago.
    this.add({ record, lane, answered: 0, dueAt: 0 });
  }

  submitted(record: BatchRecord, lane: BatchLane): void {
    // A batch just accepted has not ended: the first poll waits.
    this.add({ record, lane, answered: 0, dueAt: this.nextPollAt() });
  }

  /** The batches still open, in the order they were added (a copy: collecting one removes it). */
  all(): OpenBatch[] {
    return [...this.open];
  }

  /** The ones this run polls again. */
  due(): OpenBatch[] {
    return this.open.filter((b) => b.dueAt !== NEVER);
  }

  /** Its next poll, as it is polled now. */
  polling(b: OpenBatch): void {
    b.dueAt = this.nextPollAt();
  }

  answered(b: OpenBatch, finished: number): void {
    b.answered = finished;
    this.counts.answered = this.open.reduce((n, o) => n + o.answered, 0) + this.answeredBefore;
  }

  collected(b: OpenBatch): void {
    this.open.splice(this.open.indexOf(b), 1);
    this.answeredBefore += b.record.requests;
  }

  /** A batch that could not be polled or collected stays open for a later run, and the run says why. */
  unreachable(b: OpenBatch, what: string, error: unknown): void {
    b.dueAt = NEVER;
    b.unreachable = true;
    this.notes.push(
      `${b.lane.label}: batch ${b.record.providerId ?? b.record.id} could not be ${what} (${toCellError(error).message}); it stays open, and the same command tries again`,
    );
  }

  /** A line the run ends with (a batch given back, say). */
  note(line: string): void {
    this.notes.push(line);
  }

  /** Notes, per lane, the batches left open unpolled (not waiting). */
  noteStillOpen(lanes: Iterable<BatchLane>): void {
    for (const lane of lanes) {
      const left = this.open.filter((b) => b.lane === lane && b.dueAt === NEVER && !b.unreachable).length;
      if (left > 0)
        this.notes.push(
          `${lane.label}: ${left} batch(es) still open at the provider; the same command later collects them`,
        );
    }
  }

  private add(b: OpenBatch): void {
    this.open.push(b);
    this.counts.batches++;
    this.counts.requests += b.record.requests;
  }

  private nextPollAt(): number {
    return this.wait ? performance.now() + this.pollMs : NEVER;
  }
}
