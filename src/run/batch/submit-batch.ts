import { ProviderError } from '../../models/errors.js';
import type { BatchItem } from '../../models/types.js';
import type { BatchCell, BatchRecord } from '../../store/store.js';
import { toCellError } from '../cell-error.js';
import type { BatchRun } from './batch-run.js';
import type { BatchLane } from './lane.js';

/**
 * Submits a lane's batch and records it in the store with the cells it answers, as soon as the
 * provider holds anything of it (docs/decisions.md E18); then it is open, polled in turn. A batch
 * refused fails its cells with the reason.
 */
export async function submitBatch(
  run: BatchRun,
  lane: BatchLane,
  batch: { items: readonly BatchItem[]; cells: readonly BatchCell[] },
): Promise<void> {
  const { store } = run;
  const submittedAt = new Date().toISOString();
  const recorded = (ids: { providerId?: string; inputRef?: string }) =>
    store.batches.record({
      ...ids,
      modelIdentity: lane.identity,
      suiteHash: run.suiteHash,
      runId: run.runId,
      cells: batch.cells,
    });
  // Recorded once the provider holds the input: a lost answer or a kill from here on finds the
  // batch made over it again rather than making a second (docs/batch.md#resume).
  let uploaded: BatchRecord | undefined;
  const onInput = (inputRef: string) => {
    uploaded = recorded({ inputRef });
  };
  let providerId: string;
  try {
    run.tally.calls += batch.items.length;
    providerId = await run.call.submission((s) =>
      uploaded?.inputRef !== undefined && lane.api.resubmit
        ? lane.api.resubmit(uploaded.inputRef, { signal: s })
        : lane.api.submit(batch.items, { signal: s, onInput }),
    );
  } catch (error) {
    if (run.signal.aborted) return; // its cells stay pending (an uploaded batch is made by the next run)
    // Refused (auth, a bad request, retries spent): each cell fails with the reason; a refused key
    // or a spent quota stops the model too (docs/decisions.md E35).
    const err = toCellError(error);
    if (error instanceof ProviderError && error.stopsModel) run.stops.stop(lane.label, err);
    const attempts = [{ attempt: 1, startedAt: submittedAt, outcome: err.kind, message: err.message }];
    for (const c of batch.cells) run.cells.failed(lane, c, err, attempts);
    run.cells.flush();
    if (uploaded) store.batches.end(uploaded.id, 'failed', err.message);
    run.tally.emit();
    return;
  }
  let record: BatchRecord;
  if (uploaded) {
    store.batches.markSubmitted(uploaded.id, providerId);
    record = { ...uploaded, providerId, state: 'submitted' };
  } else record = recorded({ providerId });
  run.open.submitted(record, lane);
  run.tally.emit();
}
