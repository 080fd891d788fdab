import type { GenerateResult } from '../../models/types.js';
import type { AttemptRecord, BatchCell, CellWrite, Store } from '../../store/store.js';
import type { CellError } from '../types.js';
import type { BatchTally } from './batch-tally.js';
import type { BatchLane } from './lane.js';

/** Cells written together at most. */
const WRITE_CHUNK = 256;

/** Writes a batch run's cells to the store in chunks, counting each in the tally. */
export class CellWriter {
  private writes: CellWrite[] = [];

  constructor(
    private readonly store: Store,
    private readonly suiteHash: string,
    private readonly runId: string,
    private readonly tally: BatchTally,
    /** `--no-cache`: a done cell is replaced (else it is kept, docs/decisions.md#e24-a-write-is-fenced-by-its-lease). */
    private readonly replace: boolean,
  ) {}

  done(
    lane: BatchLane,
    c: BatchCell,
    result: GenerateResult,
    attempts: AttemptRecord[],
    latencyMs: number,
  ): void {
    this.write({
      kind: 'done',
      cell: { ...this.ref(lane, c), key: c.key, request: c.request, result, latencyMs, attempts },
    });
    this.tally.countDone(result);
  }

  failed(lane: BatchLane, c: BatchCell, error: CellError, attempts: AttemptRecord[]): void {
    this.write({ kind: 'failed', cell: { ...this.ref(lane, c), request: c.request, error, attempts } });
    this.tally.countFailed(error);
  }

  /** A cell whose request's answer is stored already (the same cache key). */
  cached(lane: BatchLane, c: Pick<BatchCell, 'testId' | 'repeat'>, key: string): void {
    this.write({ kind: 'cached', cells: [{ ...this.ref(lane, c), key }] });
    this.tally.countCached();
  }

  flush(): void {
    const chunk = this.writes;
    this.writes = [];
    this.store.cells.write(chunk);
  }

  private write(w: CellWrite): void {
    this.writes.push(w);
    if (this.writes.length >= WRITE_CHUNK) this.flush();
  }

  private ref(lane: BatchLane, c: Pick<BatchCell, 'testId' | 'repeat'>) {
    return {
      suiteHash: this.suiteHash,
      testId: c.testId,
      model: lane.label,
      modelIdentity: lane.identity,
      repeat: c.repeat,
      runId: this.runId,
      ...(this.replace && { replace: true }),
    };
  }
}
