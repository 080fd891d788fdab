import type { GenerateResult } from '../../models/types.js';
import { newProgress } from '../progress.js';
import type { BatchProgress, CellError, Progress, RunSummary } from '../types.js';

/** What a batch run has done so far: its progress events and, at the end, its summary. */
export class BatchTally {
  private readonly t0 = performance.now();
  readonly batches: BatchProgress = { batches: 0, ended: 0, requests: 0, answered: 0 };
  private readonly p: Progress;
  /** Requests submitted. */
  calls = 0;

  constructor(
    total: number,
    private readonly onProgress?: (p: Progress) => void,
  ) {
    this.p = { ...newProgress(total), batches: this.batches };
  }

  emit(): void {
    const p = this.p;
    p.pending = p.total - p.done - p.failed;
    p.elapsedMs = performance.now() - this.t0;
    this.onProgress?.({ ...p, errorsByKind: { ...p.errorsByKind }, batches: { ...this.batches } });
  }

  countDone(result: GenerateResult): void {
    this.p.done++;
    this.p.tokensIn += result.usage.inputTokens;
    this.p.tokensOut += result.usage.outputTokens;
  }

  countCached(): void {
    this.p.done++;
    this.p.cached++;
  }

  countFailed(error: CellError): void {
    this.p.failed++;
    this.p.errorsByKind[error.kind] = (this.p.errorsByKind[error.kind] ?? 0) + 1;
  }

  /** A cell another worker batches: out of this run's total. */
  leaveToOther(): void {
    this.p.total--;
  }

  countRetry(): void {
    this.p.retries++;
  }

  summary(aborted: boolean, notes: string[]): RunSummary {
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
      elapsedMs: performance.now() - this.t0,
      tokensIn: p.tokensIn,
      tokensOut: p.tokensOut,
      aborted,
      ...(notes.length > 0 && { batchNotes: notes }),
    };
  }
}
