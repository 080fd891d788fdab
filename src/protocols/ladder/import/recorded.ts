import { auxGet } from '../../../run/aux-cache.js';
import type { Store } from '../../../store/store.js';

/**
 * The scores an imported ladder run recorded (`waver import ladder-runs`): kept as one `measure`
 * row per (suite, model), marked imported, so the ladder's results take each imported cell's
 * correctness from the run that scored it instead of re-parsing the reply (docs/ladder.md#import).
 */

export const LADDER_RECORD_MEASURE = 'ladder-runs-record';

export interface RecordedLadderScores {
  imported: true;
  source: 'ladder-runs';
  run: string;
  /** The run's correctness threshold on `Sim: outputs`. */
  threshold: number;
  /** `testId\u0000repeat` -> the recorded score (`Sim: outputs`, null when none) and line. */
  cells: Record<string, { sim: number | null; line: number }>;
}

export function recordedScoresRequest(suiteHash: string, identity: string) {
  return { measure: LADDER_RECORD_MEASURE, model: identity, suite: suiteHash };
}

export function recordedSlot(testId: string, repeat: number): string {
  return `${testId}\u0000${repeat}`;
}

/**
 * Each recorded cell as the reference counts it: its `Sim: outputs` (the score Stability and the
 * quadrant weigh, continuous for KB rows; undefined when the row has none, so it is left out of
 * them) and its correctness (1 when Sim reaches the threshold, else 0, a row without a Sim
 * included: the reference's Accuracy). Undefined when the model's cells of this suite were not
 * imported.
 */
export function recordedCorrectness(
  store: Store,
  suiteHash: string,
  identity: string,
): Map<string, { sim: number | undefined; correct: number; reason: string }> | undefined {
  const row = auxGet<RecordedLadderScores>(
    store,
    'measure',
    identity,
    recordedScoresRequest(suiteHash, identity),
  );
  if (!row) return undefined;
  return new Map(
    Object.entries(row.cells).map(([slot, c]) => [
      slot,
      {
        sim: c.sim ?? undefined,
        correct: c.sim !== null && c.sim >= row.threshold ? 1 : 0,
        reason: `recorded by ${row.run} line ${c.line}: Sim ${c.sim ?? 'none'} (correct at >= ${row.threshold})`,
      },
    ]),
  );
}
