import { ProviderError } from '../../models/errors.js';
import type { BatchStatus } from '../../models/types.js';
import { toCellError } from '../cell-error.js';
import type { BatchQueue } from './batch-queue.js';
import type { BatchRun } from './batch-run.js';
import type { BatchCollector } from './collect-batch.js';
import type { OpenBatch } from './open-batches.js';

/**
 * Polls until every batch is collected (or the run is stopped: they stay open in the store).
 * Not waiting, batches found open are polled once (what has ended is collected), new ones never.
 * After each round the requests collected batches left unanswered are submitted again.
 */
export async function pollUntilCollected(
  run: BatchRun,
  queue: BatchQueue,
  collector: BatchCollector,
): Promise<void> {
  const { open, signal } = run;
  while (open.due().length > 0 && !signal.aborted) {
    for (const b of open.all()) {
      if (signal.aborted) break;
      if (b.dueAt > performance.now()) continue;
      if (!(await pollBatch(run, collector, b))) break;
    }
    if (signal.aborted) break;
    await queue.submitAll();
    const next = Math.min(...open.due().map((b) => b.dueAt));
    if (Number.isFinite(next)) await run.sleep(Math.max(0, next - performance.now()), signal).catch(() => {});
  }
}

/**
 * Polls a due batch and collects it when it has ended. A batch that cannot be polled or collected
 * is left open for a later run. False when the run was stopped meanwhile.
 */
async function pollBatch(run: BatchRun, collector: BatchCollector, b: OpenBatch): Promise<boolean> {
  const { open, signal } = run;
  open.polling(b);
  let status: BatchStatus;
  try {
    // A killed run's batch whose input the provider holds: the batch made over it, or one made now.
    if (b.record.providerId === undefined) await makeFromInput(run, b);
    const id = b.record.providerId as string;
    status = await run.call.query((s) => b.lane.api.status(id, { signal: s }));
  } catch (error) {
    if (signal.aborted) return false;
    if (unknownToProvider(error)) return giveBack(run, collector, b, error);
    open.unreachable(b, 'polled', error);
    return true;
  }
  open.answered(b, status.finished);
  run.tally.emit();
  if (status.state === 'running') return true;
  try {
    await collector.collect(b, status);
  } catch (error) {
    if (signal.aborted) return false;
    if (unknownToProvider(error)) return giveBack(run, collector, b, error);
    open.unreachable(b, 'collected', error);
    return true;
  }
  open.collected(b);
  return true;
}

/** The provider answers 404 for the batch, its input or its output: it is gone for good. */
function unknownToProvider(error: unknown): boolean {
  return error instanceof ProviderError && error.status === 404;
}

async function giveBack(
  run: BatchRun,
  collector: BatchCollector,
  b: OpenBatch,
  error: unknown,
): Promise<boolean> {
  await collector.forgotten(b, `the provider does not know it (${toCellError(error).message})`);
  run.open.collected(b);
  return true;
}

async function makeFromInput(run: BatchRun, b: OpenBatch): Promise<void> {
  const { inputRef } = b.record;
  const resubmit = b.lane.api.resubmit;
  if (inputRef === undefined || !resubmit)
    throw new Error(`batch ${b.record.id} has neither a provider id nor an input to make it from`);
  const providerId = await run.call.submission((s) => resubmit(inputRef, { signal: s }));
  run.store.batches.markSubmitted(b.record.id, providerId);
  b.record = { ...b.record, providerId, state: 'submitted' };
}
