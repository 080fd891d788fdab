import type { FinishReason, GenerateRequest, GenerateResult } from '../domain/calls.js';
import type { CellError, CellStatus, Coverage } from '../domain/cells.js';
import type { SuiteTest } from '../domain/suites.js';

/** What the store takes and gives: records in the callers' terms, not its rows. */

/** One call made for a cell, kept even when a later retry succeeded. */
export interface AttemptRecord {
  /** 1-based. */
  attempt: number;
  /** ISO time the call started. */
  startedAt: string;
  latencyMs?: number;
  /** 'ok' or the error kind. */
  outcome: string;
  message?: string;
  status?: number;
}

export interface CellRef {
  suiteHash: string;
  testId: string;
  /** The model's label. */
  model: string;
  modelIdentity: string;
  repeat: number;
}

/**
 * What a cell write is allowed to replace (docs/decisions.md#e24-a-write-is-fenced-by-its-lease):
 * one made under a chunk lease is refused once the lease is another worker's, and a done cell is
 * kept unless the write replaces on purpose (`--no-cache`) or the stored answer is another request's.
 */
export interface WriteGuard {
  lease?: LeaseFence;
  /** `--no-cache`: the newest call is the one kept. */
  replace?: boolean;
}

/** The chunk lease a write was made under: its owner and the chunk's number. */
export interface LeaseFence {
  owner: string;
  chunk: number;
}

export interface SaveCellDone extends CellRef, WriteGuard {
  runId: string;
  /** Cache key of the request (see cache-key.ts). */
  key: string;
  request: GenerateRequest;
  result: GenerateResult;
  latencyMs?: number;
  attempts: AttemptRecord[];
}

export interface SaveCellFailed extends CellRef, WriteGuard {
  runId: string;
  request: GenerateRequest;
  error: CellError;
  attempts: AttemptRecord[];
}

/** A done cell that reuses a response already stored (no call made). */
export interface SaveCellCached extends CellRef, WriteGuard {
  runId: string;
  key: string;
}

/**
 * The tries of a cell whose call a stop cut short: the cell stays pending (no cell row), its
 * tries are kept, the last with outcome 'aborted' (docs/decisions.md#e13-stopped-calls).
 */
export interface SaveCellStopped extends CellRef {
  runId: string;
  attempts: AttemptRecord[];
}

/** A stopped call's try, with the cell it was for. */
export interface StoppedAttempt extends StoredAttempt, CellRef {}

/** One write of a finished cell (or of a stopped call's tries), for `store.cells.write`. */
export type CellWrite =
  | { kind: 'done'; cell: SaveCellDone }
  | { kind: 'failed'; cell: SaveCellFailed }
  | { kind: 'cached'; cells: SaveCellCached[] }
  | { kind: 'stopped'; cell: SaveCellStopped };

export interface StoredResponse extends GenerateResult {
  key: string;
  identity: string;
  /** The label of the model that first stored it. */
  model: string;
  request: GenerateRequest;
  latencyMs?: number;
  createdAt: string;
}

export interface StoredCell extends CellRef {
  id: number;
  status: CellStatus;
  responseKey?: string;
  /** The request it sent (from the response for done cells). */
  request: GenerateRequest;
  response?: StoredResponse;
  error?: CellError;
  /** Calls made for it by the run that last wrote it (0: served from the store). */
  attempts: number;
  latencyMs?: number;
  updatedAt: string;
  runId: string;
}

export interface StoredAttempt extends AttemptRecord {
  runId: string;
}

export interface RunRecord {
  id: string;
  startedAt: string;
  finishedAt?: string;
  waverVersion: string;
  config: unknown;
  suiteHash?: string;
  status: string;
}

export interface CellFilter {
  suiteHash?: string;
  model?: string;
  modelIdentity?: string;
  testId?: string;
  status?: CellStatus;
  /** Cells last written by this run. */
  runId?: string;
}

/** A model in a coverage count: cells are matched by identity; `repeats` sets how many are expected. */
export interface CoverageModel {
  identity: string;
  repeats: number;
}

/** A stored suite without its tests: how many it has and when it was first stored. */
export interface SuiteSummary {
  hash: string;
  name: string;
  createdAt: string;
  tests: number;
}

/** A model that has cells in a suite: the label they were stored under and its identity. */
export interface SuiteModel {
  model: string;
  modelIdentity: string;
}

/** Coverage of one suite for one model identity. */
export interface SuiteModelCoverage {
  suiteHash: string;
  modelIdentity: string;
  /** A label the cells were stored under. */
  model: string;
  coverage: Coverage;
}

/** The failed cells of one suite and model identity with one error kind. */
/** A chunk of a suite's cells for one model (docs/decisions.md#e14-workers-share-a-store-by-leasing-chunks-of-cells). */
export interface ChunkKey {
  suiteHash: string;
  modelIdentity: string;
  /** The chunk's number: its tests' positions divided by the chunk size. */
  chunk: number;
}

/** A worker asking for chunks: its own id, its process and host, and when it started (epoch ms). */
export interface ChunkLeaseHolder {
  owner: string;
  pid: number;
  host: string;
  startedMs: number;
}

/** claimed: the holder's now; held: another live worker's; finished: done by a worker since the holder started. */
export type ClaimOutcome = 'claimed' | 'held' | 'finished';

/** The failed cells of one kind (a suite and model's), with the message of the first one stored. */
export interface FailedKind {
  kind: string;
  count: number;
  message?: string;
}

export interface FailureGroup {
  suiteHash: string;
  modelIdentity: string;
  model: string;
  kind: string;
  /** The highest HTTP status among them. */
  status?: number;
  count: number;
  /** The message of the latest. */
  example?: string;
}

/** What a transcript needs of a stored cell (no request or token log-probs: those are not shown). */
export interface LightCell {
  testId: string;
  model: string;
  modelIdentity: string;
  repeat: number;
  status: CellStatus;
  text?: string;
  /** The stored response's key (done cells). */
  responseKey?: string;
  error?: { kind: string; message: string; status?: number };
}

/**
 * A cell as scoring reads it: a LightCell with its response's finish reason, its attempts (0 when
 * it came from the cache) and what its request asked — the output cap and the system prompt, read
 * out of the stored request in SQL, as parsing 20,000 requests costs a report more than scoring.
 */
export interface ScoringCell extends LightCell {
  finishReason?: FinishReason;
  attempts: number;
  maxTokens?: number;
  system?: string;
}

/** A cell as a results loader needs it: status and text, without its request or tokens. */
export interface CellText {
  testId: string;
  status: CellStatus;
  errorKind?: string;
  responseKey?: string;
  attempts: number;
  /** The response's text (done cells). */
  text?: string;
}

/** A run as a listing shows it: with its suite's name and its config as stored. */
export interface RunListing {
  id: string;
  startedAt: string;
  finishedAt?: string;
  status: string;
  suiteHash?: string;
  suiteName?: string;
  configJson: string;
}

export interface RunWithCells extends RunListing {
  /** Cells this run wrote last. */
  cells: number;
}

/** Cells of one model label with one status. */
export interface ModelStatusCount {
  model: string;
  status: CellStatus;
  count: number;
  /** Of them, the cells written last by the run asked about. */
  byRun: number;
}

/** A result of a call that is not a chat generation (see run/aux-cache.ts). */
export interface AuxResultRow {
  key: string;
  kind: string;
  identity: string;
  requestJson: string;
  resultJson: string;
}

/** What a page of the viewer's transcript browser asks for (`store.cells.page`). */
export interface CellPageFilter {
  suiteHash: string;
  modelIdentity?: string;
  status?: CellStatus;
  /** Case-insensitive (ASCII) text in the test (id, prompt, meta), the response or the error. */
  search?: string;
  /** The last cell of the previous page. */
  after?: CellCursor;
  limit: number;
  /** With `search`: cells looked at at most (default 5,000), so a page takes bounded time. */
  scan?: number;
}

/** A place in a suite's cells in the viewer's order. */
export interface CellCursor {
  modelIdentity: string;
  testId: string;
  repeat: number;
}

export interface CellPage {
  rows: CellPageRow[];
  /** Cells looked at. */
  scanned: number;
  /** Where the next page starts, when there may be one. */
  next?: CellCursor;
}

export interface CellPageRow {
  id: number;
  cell: LightCell;
  /** The cell's test (absent when the suite does not hold it). */
  test?: SuiteTest;
}

/** Stored cells of one suite, model identity and status. */
export interface CellTotal {
  suiteHash: string;
  modelIdentity: string;
  model: string;
  status: CellStatus;
  count: number;
}
