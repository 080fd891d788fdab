import type { LeaseFence } from '../../store/store.js';
import type { CellWriter } from '../cell-writer.js';
import type { RunTally } from '../tally.js';
import type { Cell } from '../types.js';
import type { InFlightRequests } from './in-flight-requests.js';
import type { ModelStops, RunStop } from './run-stop.js';

/** How a run shares a store's cells with other workers. */
export interface CellLeases {
  /**
   * Whether this run may call a cell the store does not answer: false leaves it to another worker
   * sharing the store, out of this run's total.
   */
  claim(cell: Cell, modelIdentity: string): boolean;
  /** Whether the cell is still this run's just before its call (a stalled run's may have passed on). */
  holds(cell: Cell, modelIdentity: string): boolean;
  /** The lease the cell's write is fenced by (docs/decisions.md#e24-a-write-is-fenced-by-its-lease). */
  fence(cell: Cell): LeaseFence;
}

/** What the parts of one `runCells` share. */
export interface EngineRun {
  /** Cells the store answers are not called (their lanes' `done`, the call path's store cache), and identical requests share one call. */
  cache: boolean;
  /** Calls in flight by cache key (with the cache on). */
  requests: InFlightRequests;
  leases?: CellLeases;
  /** The run's stop (docs/decisions.md#e13-stopped-calls): the caller's signal, or a failed write. */
  signal: AbortSignal;
  /** The models no longer called (docs/decisions.md E35): their cells not called yet stay pending. */
  stops: ModelStops;
  /** Whether a cell may still start, and the halt a refused call asks for (a budget reached, E37). */
  stop: Pick<RunStop, 'stopped' | 'halt'>;
  /** Every cell's outcome goes through it (group commit, docs/decisions.md E17). */
  writer: CellWriter;
  tally: RunTally;
  now: () => number;
}
