import type { WaverConfig } from '../../config/schema.js';
import type { ModelEstimate } from '../../run/estimate.js';
import type { ProtocolOptions, RunOutcome } from '../types.js';
import { type SagoPromptSets, sagoPromptSets } from './prompt-sets.js';
import type { SagoResults } from './results.js';
import { estimateSago, runSago } from './run.js';

/** The code behind sagoProtocol (index.ts): build, estimate and run, and the report section. */

export { sagoSection as section } from './report-section.js';

export async function build(config: WaverConfig, opts: ProtocolOptions = {}): Promise<SagoPromptSets> {
  return sagoPromptSets(config, opts);
}

export function estimate(
  config: WaverConfig,
  plan: SagoPromptSets,
  opts: ProtocolOptions = {},
): Promise<ModelEstimate[]> {
  return estimateSago(config, plan, opts);
}

/** A model is complete when its coverage is and none of its cells failed (SAGO compares single responses). */
export async function run(
  config: WaverConfig,
  plan: SagoPromptSets,
  opts: ProtocolOptions = {},
): Promise<RunOutcome<SagoResults>> {
  // runSago adds the generator's rewrites and the meaning filter's verdicts: the plan stays as built.
  const r = await runSago(config, structuredClone(plan), opts);
  return {
    runs: r.runs,
    aborted: r.aborted,
    complete: r.results?.models.every((m) => m.complete && m.coverage.failed === 0) ?? false,
    ...(r.results && { results: r.results }),
  };
}
