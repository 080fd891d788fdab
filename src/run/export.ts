import type { GenerateRequest, TokenLogprob, Usage } from '../models/types.js';
import type { CellFilter, Store, StoredAttempt } from '../store/store.js';
import { assertNoSecrets } from '../util/secrets.js';
import type { CellError, CellStatus } from './types.js';

/** One line of a JSONL transcript: everything about one cell. */
export interface Transcript {
  suite: { name: string; hash: string };
  test: { id: string; prompt?: string; system?: string; meta?: unknown };
  model: { label: string; identity: string };
  repeat: number;
  status: CellStatus;
  request: GenerateRequest;
  response?: {
    key: string;
    text: string;
    tokens?: TokenLogprob[];
    usage: Usage;
    latencyMs?: number;
    finishReason: string;
    responseModel?: string;
  };
  error?: CellError;
  /** What the suite's protocol made of the response: the parsed answer and the verdict (docs/report.md#export). */
  graded?: ExportedGrade;
  /** Calls the run that last wrote the cell made for it (0: served from the store). */
  calls: number;
  /** Every call ever made for this cell, across runs, failures included. */
  attempts: StoredAttempt[];
  runId: string;
  updatedAt: string;
}

/** A cell's parsed answer and verdict, with the protocol that gave them. */
export interface ExportedGrade {
  protocol: string;
  answer?: number | string;
  via?: string;
  correct?: boolean;
  score?: number;
  judge?: { status: string; score?: number; reason: string };
}

/** Gives a cell's grade, when its suite's protocol grades answers. */
export type Grader = (cell: {
  suiteHash: string;
  suiteName: string;
  modelIdentity: string;
  testId: string;
  repeat: number;
}) => ExportedGrade | undefined;

/**
 * Every stored cell matching the filter as a transcript object (JSON.stringify each for JSONL),
 * with its grade when a grader gives one. The store holds no secrets; each object is checked
 * anyway before it leaves.
 */
export function* exportTranscripts(
  store: Store,
  filter: CellFilter = {},
  grade?: Grader,
): Generator<Transcript> {
  // By name only: reading a suite whole to name it would hold every test (docs/decisions.md E16).
  const suites = new Map<string, string>();
  const suiteName = (hash: string): string => {
    let name = suites.get(hash);
    if (name === undefined) {
      name = store.suites.name(hash) ?? '';
      suites.set(hash, name);
    }
    return name;
  };
  for (const cell of store.cells.all(filter)) {
    const test = store.suites.test(cell.suiteHash, cell.testId);
    const r = cell.response;
    const graded = grade?.({
      suiteHash: cell.suiteHash,
      suiteName: suiteName(cell.suiteHash),
      modelIdentity: cell.modelIdentity,
      testId: cell.testId,
      repeat: cell.repeat,
    });
    const t: Transcript = {
      suite: { name: suiteName(cell.suiteHash), hash: cell.suiteHash },
      test: {
        id: cell.testId,
        ...(test?.prompt !== undefined ? { prompt: test.prompt } : {}),
        ...(test?.system !== undefined ? { system: test.system } : {}),
        ...(test?.meta !== undefined ? { meta: test.meta } : {}),
      },
      model: { label: cell.model, identity: cell.modelIdentity },
      repeat: cell.repeat,
      status: cell.status,
      request: cell.request,
      ...(r
        ? {
            response: {
              key: r.key,
              text: r.text,
              ...(r.tokens ? { tokens: r.tokens } : {}),
              usage: r.usage,
              ...(r.latencyMs !== undefined ? { latencyMs: r.latencyMs } : {}),
              finishReason: r.finishReason,
              ...(r.responseModel !== undefined ? { responseModel: r.responseModel } : {}),
            },
          }
        : {}),
      ...(cell.error ? { error: cell.error } : {}),
      ...(graded ? { graded } : {}),
      calls: cell.attempts,
      attempts: store.attempts.of(cell.id),
      runId: cell.runId,
      updatedAt: cell.updatedAt,
    };
    assertNoSecrets(t, 'transcript');
    yield t;
  }
}
