import { cacheKey } from '../cache-key.js';
import type { Cell } from '../types.js';
import { runCell, storedDone } from './cell-run.js';
import type { EngineRun } from './engine-run.js';
import { hasRoom, type Lane, type Lanes, type Work } from './lanes.js';

/** Cells the pump reads in one turn of the event loop at most. */
const PUMP_TURN = 4096;

/**
 * Reads cells while the lane of the last one read has room, answers those the store holds at
 * once, and starts the rest up to each lane's concurrency; each finished cell pumps again. So the
 * cells read and not finished are bounded by the lanes' room, not by the suite (docs/decisions.md E16).
 */
export class Pump {
  private readonly source: Iterator<Cell>;
  private exhausted = false;
  /** Cells in progress, all lanes together. */
  private active = 0;
  /** The lane the last cell read filled: reading waits for its room. */
  private full: Lane | undefined;
  private settle: () => void = () => {};

  constructor(
    private readonly run: EngineRun,
    private readonly lanes: Lanes,
    cells: Iterable<Cell>,
    /** What a throw outside a provider call (the store's) goes to: it stops the run. */
    private readonly fail: (error: unknown) => void,
  ) {
    this.source = cells[Symbol.iterator]();
  }

  /** Resolves once every cell read is through: all of them, or those started before the run stopped. */
  drain(): Promise<void> {
    const idle = new Promise<void>((resolve) => {
      this.settle = resolve;
    });
    this.pump();
    return idle;
  }

  private readonly pump = (): void => {
    try {
      for (let read = 0; !this.exhausted && !this.run.stop.stopped; read++) {
        if (this.full) {
          if (!hasRoom(this.full)) return;
          this.full = undefined;
        }
        // A long run of stored cells (a warm re-run) lets timers and a Ctrl-C in now and then.
        if (read === PUMP_TURN) {
          setImmediate(this.pump);
          return;
        }
        const next = this.source.next();
        if (next.done) {
          this.exhausted = true;
          break;
        }
        this.add(next.value);
      }
    } catch (error) {
      this.fail(error);
    }
    if (this.active === 0) this.settle();
  };

  private add(cell: Cell): void {
    const { run } = this;
    const lane = this.lanes.of(cell.model);
    const w: Work = { cell, lane, key: cacheKey(lane.identity, cell.request, cell.repeat) };
    if (run.cache && storedDone(run, w)) return;
    if (run.leases && !run.leases.claim(cell, lane.identity)) {
      run.tally.leaveToOther();
      return;
    }
    lane.waiting.push(w);
    this.start(lane);
    if (!hasRoom(lane)) this.full = lane;
  }

  private start(lane: Lane): void {
    while (lane.active < lane.concurrency) {
      const w = lane.waiting.shift();
      if (!w) return;
      lane.active++;
      this.active++;
      runCell(this.run, w)
        .catch(this.fail) // only the store can throw here (provider errors are caught per call)
        .finally(() => {
          lane.active--;
          this.active--;
          this.start(lane);
          this.pump();
        });
    }
  }
}
