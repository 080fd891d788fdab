import { callCell, link } from './cell-call.js';
import type { EngineRun } from './engine-run.js';
import type { Work } from './lanes.js';

/**
 * Whether the cell is stored done under the same request (counted, not called): asked as the cell
 * is read, of the lane's done cells (`DoneCells`). A cell whose request's answer the store holds
 * for another cell goes to its lane, where the call path's store cache answers its call and the
 * cell is linked to that answer (docs/decisions.md E45).
 */
export function storedDone(run: EngineRun, w: Work): boolean {
  if (w.lane.done?.keyOf(w.cell) !== w.key) return false;
  run.tally.countCached();
  run.tally.emit();
  return true;
}

/** Runs a cell whose turn has come in its lane: its call, or the identical one in flight. */
export async function runCell(run: EngineRun, w: Work): Promise<void> {
  if (run.stop.stopped) return;
  if (run.leases && !run.leases.holds(w.cell, w.lane.identity)) {
    // Its chunk passed to another worker while this run stalled: that one calls it.
    run.tally.leaveToOther();
    run.tally.emit();
    return;
  }
  if (!run.cache) {
    await callCell(run, w);
    return;
  }
  const outcome = await run.requests.call(w.key, run.signal, (onCommitted) => callCell(run, w, onCommitted));
  if (outcome === 'answered-earlier') link(run, w);
}
