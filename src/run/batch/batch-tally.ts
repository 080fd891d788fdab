import { RunTally } from '../tally.js';
import type { BatchProgress, Progress } from '../types.js';

/** A batch run's tally: its cells', and the batches it follows. */
export class BatchTally extends RunTally {
  readonly batches: BatchProgress = { batches: 0, ended: 0, requests: 0, answered: 0 };

  protected override snapshot(): Progress {
    return { ...super.snapshot(), batches: { ...this.batches } };
  }
}
