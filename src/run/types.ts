import type { ProviderErrorKind } from '../models/errors.js';
import type { GenerateRequest, GenerateResult } from '../models/types.js';

/**
 * One test of a suite: the plain form is `{id, prompt, system?}`; protocols add `meta`, typed as
 * the protocol's own where it builds the test, and read back from a store through the protocol's
 * schema (a stored suite's meta is `unknown` until then).
 */
export interface SuiteTest<Meta = unknown> {
  id: string;
  prompt: string;
  system?: string;
  /** Calls per model for this test, overriding the run's `repeats` (the ladder asks baselines 3 times). */
  repeats?: number;
  /** Output-token cap of this test's calls, overriding the run's `params.maxTokens` (the ladder's caps). */
  maxTokens?: number;
  /**
   * How some models, by label, are asked this test instead: their own system prompt or output cap
   * (the ladder's answer format per model). Part of the suite, so what each model was asked is on record.
   */
  byModel?: Record<string, { system?: string; maxTokens?: number }>;
  /** Protocol fields (family, level, gold, gates...) kept verbatim in the store, as JSON. */
  meta?: Meta;
}

/** A suite of tests; a protocol that builds one keeps its tests' type (`Suite<SagoTest>`). */
export interface Suite<Test extends SuiteTest = SuiteTest> {
  /** Where it came from (file path or protocol name). */
  name: string;
  /** sha256 of the suite's canonical JSONL: identifies it in the store. */
  hash: string;
  tests: Test[];
}

/** The K-th (`index`, from 1) of `count` parts of a suite (docs/decisions.md#e19-shards-deal-tests-round-robin). */
export interface Shard {
  index: number;
  count: number;
}

/** A unit of work: test x model x repeat, with the exact request it sends. */
export interface Cell {
  testId: string;
  /** The model's label (its spec string unless the config names it). */
  model: string;
  /** 0-based repeat index. Part of the cache key, so repeats are real repeated calls. */
  repeat: number;
  request: GenerateRequest;
}

export type CellStatus = 'done' | 'failed';

export interface CellError {
  kind: ProviderErrorKind | 'internal';
  message: string;
  status?: number;
}

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

export interface Coverage {
  total: number;
  done: number;
  failed: number;
  pending: number;
  /** Done cells answered from the store without a call. */
  cached: number;
  /** Failed cells counted by the reason of their last attempt. */
  errorsByKind: Record<string, number>;
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
  /** True when the run's signal stopped it before every cell finished. */
  aborted: boolean;
  /**
   * With `batch` on: why some cells are still pending though the run was not stopped (a batch
   * still open at the provider, or one that could not be polled), one line each (docs/batch.md).
   */
  batchNotes?: string[];
}
