import type { GenerateResult } from '../domain/calls.js';
import type { Cell, CellError, CellStatus, Coverage } from '../domain/cells.js';

// A suite, its cells and their coverage live below the engine and the store, which both hold them.
export type { Cell, CellError, CellStatus, Coverage } from '../domain/cells.js';
export type { Shard, Suite, SuiteTest } from '../domain/suites.js';

/** What the store holds for a finished cell. */
export interface CellOutcome {
  cell: Cell;
  status: CellStatus;
  /** Cache key of the stored response (done cells). */
  responseKey?: string;
  response?: GenerateResult;
  error?: CellError;
  /** Calls made for this cell in this run (0 when served from the cache). */
  attempts: number;
  latencyMs?: number;
  cached: boolean;
}

/** A live view of a run, sent to `onProgress` each time a cell finishes or a call starts. */
export interface Progress {
  total: number;
  done: number;
  failed: number;
  /** Done cells answered from the store without a call. */
  cached: number;
  pending: number;
  /** Calls on the wire right now. */
  inFlight: number;
  /** Tokens of the calls made in this run (cached cells cost none). */
  tokensIn: number;
  tokensOut: number;
  /** Failed cells counted by the reason of their last attempt. */
  errorsByKind: Record<string, number>;
  /** Calls made again after a retryable error. */
  retries: number;
  elapsedMs: number;
  /** With `batch` on: the provider batches this run follows (docs/batch.md). */
  batches?: BatchProgress;
}

export interface BatchProgress {
  /** Batches submitted by this run or found open in the store. */
  batches: number;
  /** Of those, the ones ended and collected. */
  ended: number;
  /** Requests in those batches. */
  requests: number;
  /** Requests the providers have answered (or errored) so far. */
  answered: number;
}

export interface RunSummary {
  coverage: Coverage;
  /** Calls made (first tries and retries). */
  calls: number;
  retries: number;
  elapsedMs: number;
  tokensIn: number;
  tokensOut: number;
  /** Done cells this run called whose answer is a refusal (docs/decisions.md#e34-a-refusal-is-an-answer). */
  refusals: number;
  /** Done cells this run called whose answer a content filter cut or blanked (finish reason `content_filter`). */
  contentFiltered: number;
  /**
   * Calls whose reported usage no call can have (negative, fractional, past MAX_TOKENS_PER_CALL):
   * left out of `tokensIn`/`tokensOut` and noted on the call (docs/decisions.md#e36-implausible-usage-is-not-counted).
   */
  implausibleUsage: number;
  /**
   * The models the run stopped calling, by label, with the error that stopped each: a refused key
   * or a spent quota (docs/decisions.md#e35-a-refused-key-or-a-spent-quota-stops-the-model).
   */
  stoppedModels?: Record<string, CellError>;
  /** True when the run's signal stopped it, or its calls were refused, before every cell finished. */
  aborted: boolean;
  /**
   * What stopped it, when its calls were refused rather than its signal aborted: `the budget
   * (--max-calls 10)` (docs/decisions.md#e37-a-budget-stops-a-command-its-cells-left-pending).
   */
  stopReason?: string;
  /**
   * With `batch` on: why some cells are still pending though the run was not stopped (a batch
   * still open at the provider, or one that could not be polled), one line each (docs/batch.md).
   */
  batchNotes?: string[];
}
