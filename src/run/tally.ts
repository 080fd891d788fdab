import type { GenerateResult } from '../models/types.js';
import { monotonicMs } from '../util/monotonic.js';
import { newProgress } from './progress.js';
import type { CellError, Progress, RunSummary } from './types.js';

/**
 * What a run has done so far, counted as its cells are written: its progress events and, at the
 * end, its summary. The engine's and the batch runner's (`batch/batch-tally.ts` adds the batches).
 */
export class RunTally {
  private readonly p: Progress;
  private readonly t0: number;
  /** Calls made: tries on the wire (the engine), requests submitted (batches). */
  calls = 0;
  private refusals = 0;
  private contentFiltered = 0;
  private implausibleUsage = 0;

  constructor(
    total: number,
    private readonly onProgress?: (p: Progress) => void,
    private readonly now: () => number = monotonicMs,
  ) {
    this.p = newProgress(total);
    this.t0 = now();
  }

  emit(): void {
    if (!this.onProgress) return;
    const p = this.p;
    p.pending = p.total - p.done - p.failed;
    p.elapsedMs = this.now() - this.t0;
    this.onProgress(this.snapshot());
  }

  /** An answer called for; `usageRefused`: its usage was implausible, and is not counted (E36). */
  countDone(result: GenerateResult, usageRefused = false): void {
    this.p.done++;
    if (result.finishReason === 'refusal') this.refusals++;
    if (result.finishReason === 'content_filter') this.contentFiltered++;
    if (usageRefused) {
      this.implausibleUsage++;
      return;
    }
    this.p.tokensIn += result.usage?.inputTokens ?? 0;
    this.p.tokensOut += result.usage?.outputTokens ?? 0;
  }

  /** A done cell answered from the store without a call. */
  countCached(): void {
    this.p.done++;
    this.p.cached++;
  }

  countFailed(error: CellError): void {
    this.p.failed++;
    this.p.errorsByKind[error.kind] = (this.p.errorsByKind[error.kind] ?? 0) + 1;
  }

  /** A cell another worker calls: out of this run's total. */
  leaveToOther(): void {
    this.p.total--;
  }

  /** Cells left to another worker that this run took over (it stopped or died): back in its total. */
  takeBack(cells: number): void {
    this.p.total += cells;
  }

  /** A try goes on the wire. */
  countTryStart(): void {
    this.p.inFlight++;
    this.calls++;
  }

  countTryEnd(): void {
    this.p.inFlight--;
  }

  countRetry(): void {
    this.p.retries++;
  }

  summary(aborted: boolean, notes: readonly string[] = []): RunSummary {
    const p = this.p;
    return {
      coverage: {
        total: p.total,
        done: p.done,
        failed: p.failed,
        pending: p.total - p.done - p.failed,
        cached: p.cached,
        errorsByKind: { ...p.errorsByKind },
      },
      calls: this.calls,
      retries: p.retries,
      elapsedMs: this.now() - this.t0,
      tokensIn: p.tokensIn,
      tokensOut: p.tokensOut,
      refusals: this.refusals,
      contentFiltered: this.contentFiltered,
      implausibleUsage: this.implausibleUsage,
      aborted,
      ...(notes.length > 0 && { batchNotes: [...notes] }),
    };
  }

  /** What a progress event carries: a copy, so a listener keeping it sees it unchanged. */
  protected snapshot(): Progress {
    return { ...this.p, errorsByKind: { ...this.p.errorsByKind } };
  }
}
