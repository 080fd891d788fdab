import type { WaverConfig } from '../../config/schema.js';
import type { ModelEstimate } from '../../run/estimate.js';
import type { PooledOptions, RunOutcome } from '../types.js';
import { estimateSago } from './estimate.js';
import { type SagoPromptSets, sagoPromptSets } from './prompt-sets.js';
import type { SagoResults } from './results.js';
import { runSago } from './run.js';
import { formatSagoResults } from './tables.js';

/** The code behind sagoProtocol (index.ts): build, estimate and run, what a run prints, and the report section. */

export { sagoSection as section } from './report-section.js';

export async function build(config: WaverConfig, opts: PooledOptions): Promise<SagoPromptSets> {
  return sagoPromptSets(config, opts);
}

export function estimate(
  config: WaverConfig,
  plan: SagoPromptSets,
  opts: PooledOptions,
): Promise<ModelEstimate[]> {
  return estimateSago(config, plan, opts);
}

/** Complete when no response failed or is pending (docs/decisions.md#e8-exit-codes) and every model's metrics are. */
export async function run(
  config: WaverConfig,
  plan: SagoPromptSets,
  opts: PooledOptions,
): Promise<RunOutcome<SagoResults>> {
  // runSago adds the generator's rewrites and the meaning filter's verdicts: the plan stays as built.
  const r = await runSago(config, structuredClone(plan), opts);
  return {
    runs: r.runs,
    aborted: r.aborted,
    complete: r.runs.every((run) => run.complete) && (r.results?.models.every((m) => m.complete) ?? false),
    ...(r.results && { results: r.results }),
  };
}

/** The SGS tables per model; a stopped run has none (the closing line says how to resume). */
export function summary(
  { results }: RunOutcome<SagoResults>,
  _plan: SagoPromptSets,
  format: WaverConfig['format'],
): string | undefined {
  return results && formatSagoResults(results, format);
}
