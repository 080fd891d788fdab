import type { Store } from '../store/store.js';
import type { CheckedSuite, Measurement, ThresholdRule } from './types.js';

/**
 * The coverage threshold, one for every suite: done cells over expected cells per (suite, model),
 * counted by the store as `waver run` counts them (a test's own repeats, else its latest run's).
 * A plain suite names itself as the scope, so that two of them read apart.
 */
export function coverageMeasurements(
  store: Store,
  suites: readonly CheckedSuite[],
  rule: ThresholdRule,
): { suite: CheckedSuite; measurement: Measurement }[] {
  const repeats = runRepeats(store);
  const out: { suite: CheckedSuite; measurement: Measurement }[] = [];
  for (const suite of suites) {
    // Read from the store's counts: no protocol's results are loaded for coverage (docs/check.md).
    // A model is its identity (ordered as the loaders order them); a renamed one keeps one label.
    for (const { model, modelIdentity: identity, coverage: c } of store.coverage.byModel(
      suite.hash,
      repeats.get(suite.hash) ?? 1,
    )) {
      const base = { model, identity, ...(suite.protocol === 'plain' && { scope: suite.name }) };
      if (c.total === 0) {
        out.push({
          suite,
          measurement: { ...base, n: 0, over: 'cells', unavailable: 'the suite has no cells to cover' },
        });
        continue;
      }
      const share = c.done / c.total;
      out.push({
        suite,
        measurement: {
          ...base,
          value: share,
          n: c.total,
          over: `cells (${c.done} done, ${c.failed} failed, ${c.pending} pending)`,
          ...(share < rule.value && { failure: 'below threshold' }),
        },
      });
    }
  }
  return out;
}

/** Each suite's repeats as its latest run was configured with. */
function runRepeats(store: Store): Map<string, number> {
  const out = new Map<string, number>();
  for (const r of store.runs.list()) {
    const repeats = (r.config as { repeats?: unknown } | undefined)?.repeats;
    if (r.suiteHash !== undefined && typeof repeats === 'number') out.set(r.suiteHash, repeats);
  }
  return out;
}
