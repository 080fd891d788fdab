import { callCell } from './cell-call.js';
import type { EngineRun } from './engine-run.js';
import type { Work } from './lanes.js';

/**
 * Whether the store answers the cell without a call: done under the same request (counted), or
 * its request's answer stored for another cell, of any suite (linked to it). Asked as the cell is
 * read. A link is a write of the cell, so it is made under the cell's lease, as a call's answer is
 * (docs/decisions.md#e24-a-write-is-fenced-by-its-lease): a chunk another worker holds is left to it.
 */
export function answeredByStore(run: EngineRun, w: Work): boolean {
  const { store, suiteHash, tally } = run;
  const { cell, lane, key } = w;
  if (store.cells.doneKey(suiteHash, lane.identity, cell.testId, cell.repeat) === key) {
    tally.countCached();
    tally.emit();
    return true;
  }
  if (run.requests.has(key) || !store.responses.has(key)) return false;
  if (run.leases && !run.leases.claim(cell, lane.identity)) return false;
  link(run, w);
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

/** Links the cell to the stored (or just answered) answer of its request. */
function link(run: EngineRun, w: Work): void {
  run.writer.cached(w.lane, w.cell, w.key);
  run.tally.emit();
}
