import type { GenerateRequest, ProviderErrorKind } from './calls.js';

/** A cell (test x model x repeat), how it ended and how a suite's cells are counted. */

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
