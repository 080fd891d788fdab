import type { WaverConfig } from '../../config/schema.js';
import type { ModelEstimate } from '../../run/estimate.js';
import type { PooledOptions, RunOutcome } from '../types.js';
import { spreadSettings } from './config.js';
import type { ScoringNote } from './option-scores.js';
import { loadSpreadPlan, type SpreadPlan } from './plan-grid.js';
import type { SpreadResults } from './results.js';
import { estimateSpreadRun, runSpread } from './run.js';
import { formatSpreadReport } from './tables.js';

/** The code behind spreadProtocol (index.ts): build, estimate and run, what a run prints, and the report section. */

export { spreadSection as section } from './report-section.js';

/** A run's outcome, with the models whose choices were read from their replies, and why. */
export interface SpreadOutcome extends RunOutcome<SpreadResults> {
  notes: ScoringNote[];
}

export function build(config: WaverConfig, opts: PooledOptions): Promise<SpreadPlan> {
  return loadSpreadPlan(config, spreadSettings(config), opts);
}

export function estimate(
  config: WaverConfig,
  plan: SpreadPlan,
  opts: PooledOptions,
): Promise<ModelEstimate[]> {
  return estimateSpreadRun(config, plan, opts);
}

/** Complete when every run is and every model has an estimate. */
export async function run(
  config: WaverConfig,
  plan: SpreadPlan,
  opts: PooledOptions,
): Promise<SpreadOutcome> {
  const r = await runSpread(config, plan, opts);
  const aborted = r.runs.some((x) => x.summary.aborted);
  return {
    runs: r.runs,
    aborted,
    complete:
      !aborted && r.runs.every((x) => x.complete) && (r.results?.models.every((m) => m.estimate) ?? false),
    notes: r.notes,
    ...(r.results && { results: r.results }),
  };
}

export function summary(
  outcome: SpreadOutcome,
  _plan: SpreadPlan,
  format: WaverConfig['format'],
): string | undefined {
  const runs = outcome.runs.map((r) => ({ calls: r.summary.calls, cells: r.suite.tests }));
  return outcome.results && formatSpreadReport(outcome.results, format, { runs, notes: outcome.notes });
}
