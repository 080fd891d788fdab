import type { Store } from '../../store/store.js';
import type { SleepFn } from '../call-path/retry.js';
import type { CellWriter } from '../cell-writer.js';
import type { ModelStops } from '../engine/run-stop.js';
import type { BatchTally } from './batch-tally.js';
import type { BatchLane } from './lane.js';
import type { OpenBatches } from './open-batches.js';
import type { ProviderCalls } from './provider-calls.js';

/** What the steps of one `runBatches` share. */
export interface BatchRun {
  store: Store;
  suiteHash: string;
  runId: string;
  /** By label (Cell.model). */
  lanes: ReadonlyMap<string, BatchLane>;
  /** Cells stored already, or whose request's answer is, are not asked again. */
  cache: boolean;
  /** How many times the requests an expired or cancelled batch left unanswered are submitted again. */
  maxRetries: number;
  /** Stops polling: open batches stay open in the store. */
  signal: AbortSignal;
  /** The models no longer called (docs/decisions.md E35): their cells not submitted yet stay pending. */
  stops: ModelStops;
  sleep: SleepFn;
  call: ProviderCalls;
  tally: BatchTally;
  cells: CellWriter;
  open: OpenBatches;
}
