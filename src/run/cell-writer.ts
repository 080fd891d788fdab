import type { GenerateResult } from '../models/types.js';
import { implausibleUsage } from '../models/usage.js';
import type { AttemptRecord, CellWrite, LeaseFence, Store } from '../store/store.js';
import type { RunTally } from './tally.js';
import type { Cell, CellError } from './types.js';

/** Cells written in one transaction at most: a group this large is committed at once. */
const WRITE_CHUNK = 256;

/** The model a cell is stored under: its label (Cell.model) and its identity. */
export interface CellModel {
  label: string;
  identity: string;
}

export interface CellWriterOptions {
  store: Store;
  suiteHash: string;
  runId: string;
  /** Counts each cell written. */
  tally: RunTally;
  /** `--no-cache`: a done cell is replaced (else it is kept, docs/decisions.md#e24-a-write-is-fenced-by-its-lease). */
  replace: boolean;
  /** The lease each write is fenced by (docs/decisions.md#e24-a-write-is-fenced-by-its-lease); without it, none. */
  fence?: (cell: Cell) => LeaseFence;
  /**
   * Group commit (docs/decisions.md E17): a write waits up to `ms` for others to share its
   * transaction (0: until the next turn of the event loop), and a failed commit goes to `onError`.
   * Without it, writes wait for `flush()` or a full group, and a failed commit throws.
   */
  groupCommit?: { ms: number; onError: (error: unknown) => void };
}

/**
 * Writes a run's cells to the store, many to a transaction (a commit costs far more than a cell's
 * rows), counting each in the run's tally: the engine's and the batch runner's one writer. A
 * process killed before a commit loses the cells waiting for it; a resumed run calls those again,
 * and the store never holds a cell twice (cells are unique per suite, model identity, test, repeat).
 */
export class CellWriter {
  private writes: CellWrite[] = [];
  /** What waits for the writes' transaction (the engine forgets an answered request then). */
  private afterCommit: (() => void)[] = [];
  private cancelCommit: (() => void) | undefined;
  private readonly commit = () => this.flush();

  constructor(private readonly opts: CellWriterOptions) {}

  /**
   * An answered cell; `onCommitted` runs once its transaction is through. A usage no call can have
   * is stored as 0, left out of the totals, and its call says what was reported (docs/decisions.md E36).
   */
  done(
    model: CellModel,
    cell: Cell,
    key: string,
    result: GenerateResult,
    attempts: AttemptRecord[],
    latencyMs: number,
    onCommitted?: () => void,
  ): void {
    const why = implausibleUsage(result.usage);
    const answer = why ? { ...result, usage: { inputTokens: 0, outputTokens: 0 } } : result;
    const tries = why
      ? noteOnLast(attempts, `usage refused: ${why}; stored as 0, left out of the token totals`)
      : attempts;
    this.write(
      {
        kind: 'done',
        cell: {
          ...this.guarded(model, cell),
          key,
          request: cell.request,
          result: answer,
          latencyMs,
          attempts: tries,
        },
      },
      onCommitted,
    );
    this.opts.tally.countDone(answer, why !== undefined);
  }

  failed(model: CellModel, cell: Cell, error: CellError, attempts: AttemptRecord[]): void {
    this.write({
      kind: 'failed',
      cell: { ...this.guarded(model, cell), request: cell.request, error, attempts },
    });
    this.opts.tally.countFailed(error);
  }

  /** A cell whose request's answer is stored already (the same cache key): linked to it, no call. */
  cached(model: CellModel, cell: Cell, key: string): void {
    this.write({ kind: 'cached', cells: [{ ...this.guarded(model, cell), key }] });
    this.opts.tally.countCached();
  }

  /**
   * The tries of a call the run's stop cut short: the cell stays pending, its tries are kept
   * (docs/decisions.md#e13-stopped-calls). Not a cell's write, so neither fenced nor counted.
   */
  stopped(model: CellModel, cell: Cell, attempts: AttemptRecord[]): void {
    this.write({ kind: 'stopped', cell: { ...this.ref(model, cell), runId: this.opts.runId, attempts } });
  }

  /** Commits what waits, now. */
  flush(): void {
    this.cancelCommit?.();
    this.cancelCommit = undefined;
    const writes = this.writes;
    const afterCommit = this.afterCommit;
    this.writes = [];
    this.afterCommit = [];
    try {
      this.opts.store.cells.write(writes);
    } catch (error) {
      if (!this.opts.groupCommit) throw error;
      this.opts.groupCommit.onError(error);
    }
    for (const then of afterCommit) then();
  }

  private write(w: CellWrite, onCommitted?: () => void): void {
    this.writes.push(w);
    if (onCommitted) this.afterCommit.push(onCommitted);
    if (this.writes.length >= WRITE_CHUNK) this.flush();
    else if (this.opts.groupCommit) this.cancelCommit ??= later(this.opts.groupCommit.ms, this.commit);
  }

  private ref(model: CellModel, cell: Cell) {
    return {
      suiteHash: this.opts.suiteHash,
      testId: cell.testId,
      model: model.label,
      modelIdentity: model.identity,
      repeat: cell.repeat,
    };
  }

  /** A cell's write says which lease it was made under and whether it may replace a done cell (E24). */
  private guarded(model: CellModel, cell: Cell) {
    const { fence, replace } = this.opts;
    return {
      ...this.ref(model, cell),
      runId: this.opts.runId,
      ...(fence && { lease: fence(cell) }),
      ...(replace && { replace: true }),
    };
  }
}

/**
 * The labels of a run's models by identity. Cells are stored per identity, so two labels sharing
 * one would list every cell twice: the second is refused.
 */
export class ModelIdentities {
  private readonly labels = new Map<string, string>();

  add(label: string, identity: string): void {
    const other = this.labels.get(identity);
    if (other !== undefined)
      throw new Error(
        `cell listed twice: models "${other}" and "${label}" share the identity ${identity} (cells are stored per identity)`,
      );
    this.labels.set(identity, label);
  }
}

/** The tries with a note on the last one (the try that answered). */
function noteOnLast(attempts: AttemptRecord[], note: string): AttemptRecord[] {
  const last = attempts.at(-1);
  return last ? [...attempts.slice(0, -1), { ...last, message: note }] : attempts;
}

/** Runs `fn` in `ms` (0: at the next turn of the event loop); returns what cancels it. */
function later(ms: number, fn: () => void): () => void {
  if (ms > 0) {
    const timer = setTimeout(fn, ms);
    return () => clearTimeout(timer);
  }
  const immediate = setImmediate(fn);
  return () => clearImmediate(immediate);
}
