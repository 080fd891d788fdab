import type { WaverConfig } from '../../config/schema.js';
import { InputError } from '../../errors.js';
import { formatRunSummary } from '../../report/run-summary.js';
import type { ModelEstimate } from '../../run/estimate.js';
import { estimateSuite, runSuite } from '../../run/run-suite.js';
import type { Suite } from '../../run/types.js';
import type { PooledOptions, RunOutcome } from '../types.js';
import { loadPlainSuite } from './suite-file.js';

/** The code behind plainProtocol (index.ts): build, estimate and run, what a run prints, and the report section. */

export { plainSection as section } from './report-section.js';

/** The suite file `config.suite`. */
export async function build(config: WaverConfig, _opts: PooledOptions): Promise<Suite> {
  if (!config.suite)
    throw new InputError('no suite: pass --suite FILE or set suite in waver.yaml', { field: 'suite' });
  return loadPlainSuite(config.suite, config.maxRepeats);
}

export function estimate(config: WaverConfig, suite: Suite, opts: PooledOptions): Promise<ModelEstimate[]> {
  return estimateSuite(config, suite, opts);
}

/** The suite run as it is; plain suites have no results of their own beyond the run's coverage. */
export async function run(
  config: WaverConfig,
  suite: Suite,
  opts: PooledOptions,
): Promise<RunOutcome<undefined>> {
  const r = await runSuite(config, suite, opts);
  return { runs: [r], aborted: r.summary.aborted, complete: r.complete };
}

/** The run's summary: models, coverage, calls, tokens and time. */
export function summary(
  { runs: [run] }: RunOutcome<undefined>,
  _suite: Suite,
  format: WaverConfig['format'],
): string | undefined {
  return run && formatRunSummary(run, format);
}
