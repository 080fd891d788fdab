import type { Store } from '../../store/store.js';
import type { Cell } from '../types.js';

/**
 * A suite x model's cells read from the store in one query and held this many at most: a warm
 * re-run's check of each cell is then a lookup in memory (docs/decisions.md E45), while a larger
 * set is asked of the store cell by cell, so the run's memory stays bounded (E16).
 */
const IN_MEMORY_MAX = 100_000;

/** The cells of one lane stored done as the run starts, with their responses' keys. */
export class DoneCells {
  /** By `${testId}\u0000${repeat}`; undefined: asked of the store cell by cell. */
  private readonly keys: Map<string, string> | undefined;

  constructor(
    private readonly store: Store,
    private readonly suiteHash: string,
    private readonly identity: string,
    /**
     * Whether the cells done now are all the run will find done: not so for workers sharing the
     * store, whose cells others finish meanwhile (E14). A cell done as the run starts stays done,
     * so even then the ones read at the start are answered from memory, and only the others are
     * asked of the store at their turn.
     */
    private readonly settled: boolean,
    inMemoryMax = IN_MEMORY_MAX,
  ) {
    this.keys =
      store.coverage.doneCount(suiteHash, identity) <= inMemoryMax
        ? store.cells.doneKeys(suiteHash, identity)
        : undefined;
  }

  /** The key of the response the cell is stored done with, else undefined. */
  keyOf(cell: Cell): string | undefined {
    const key = this.keys?.get(`${cell.testId}\u0000${cell.repeat}`);
    if (key !== undefined || (this.keys && this.settled)) return key;
    return this.store.cells.doneKey(this.suiteHash, this.identity, cell.testId, cell.repeat);
  }
}
