import type { BatchItem } from '../../models/types.js';
import type { BatchCell } from '../../store/store.js';
import { toCellError } from '../cell-error.js';
import type { BatchRun } from './batch-run.js';
import type { BatchLane } from './lane.js';
import { submitBatch } from './submit-batch.js';

/** The batch being filled for a lane. */
interface Filling {
  items: BatchItem[];
  cells: BatchCell[];
  /** Custom id by cache key: cells asking the same request share one (with the cache on). */
  byKey: Map<string, string>;
  bytes: number;
}

/** Fills each lane's next batch up to the provider's limits, submitting it when the next request would pass them. */
export class BatchQueue {
  private readonly filling = new Map<string, Filling>();

  constructor(
    private readonly run: BatchRun,
    /** Requests per batch at most, below the provider's limit. */
    private readonly maxRequests?: number,
  ) {}

  /**
   * Adds a cell to its lane's batch, submitting the batch first when the cell would not fit. A
   * stopped model's cell is left pending (docs/decisions.md E35).
   */
  async add(lane: BatchLane, c: BatchCell): Promise<void> {
    if (this.run.stops.has(lane.label)) return;
    let batch = this.fillingOf(lane);
    const shared = this.run.cache ? batch.byKey.get(c.key) : undefined;
    if (shared !== undefined) {
      batch.cells.push({ ...c, customId: shared });
      return;
    }
    let bytes: number;
    try {
      bytes = lane.api.size({ customId: String(batch.items.length), request: c.request });
    } catch (error) {
      // A request the provider cannot take (a raw prompt): the cell fails, as its call would.
      const err = toCellError(error);
      const startedAt = new Date().toISOString();
      this.run.cells.failed(lane, c, err, [
        { attempt: 1, startedAt, outcome: err.kind, message: err.message },
      ]);
      this.run.tally.emit();
      return;
    }
    const limits = this.limitsOf(lane);
    if (batch.items.length >= limits.maxRequests || batch.bytes + bytes > limits.maxBytes) {
      await this.submit(lane);
      batch = this.fillingOf(lane);
    }
    const customId = `r${batch.items.length}`;
    batch.items.push({ customId, request: c.request });
    batch.cells.push({ ...c, customId });
    batch.byKey.set(c.key, customId);
    batch.bytes += bytes;
  }

  /** Submits each lane's batch that has requests. */
  async submitAll(): Promise<void> {
    for (const lane of this.run.lanes.values()) await this.submit(lane);
  }

  private async submit(lane: BatchLane): Promise<void> {
    const batch = this.filling.get(lane.label);
    if (!batch || batch.items.length === 0) return;
    this.filling.delete(lane.label);
    // Stopped while the batch filled: its cells stay pending, for the run after the fix.
    if (this.run.stops.has(lane.label)) return;
    await submitBatch(this.run, lane, batch);
  }

  private fillingOf(lane: BatchLane): Filling {
    let batch = this.filling.get(lane.label);
    if (!batch) {
      batch = { items: [], cells: [], byKey: new Map(), bytes: 0 };
      this.filling.set(lane.label, batch);
    }
    return batch;
  }

  private limitsOf(lane: BatchLane) {
    return {
      maxRequests: Math.min(lane.api.limits.maxRequests, this.maxRequests ?? Number.POSITIVE_INFINITY),
      maxBytes: lane.api.limits.maxBytes,
    };
  }
}
