import type { WaverConfig } from '../../../config/schema.js';
import type { ModelEstimate } from '../../../run/estimate.js';
import { estimateSuite, runSuite } from '../../../run/run-suite.js';
import { suiteOf } from '../../../run/suite.js';
import type { Suite } from '../../../run/types.js';
import { readStore, type Store } from '../../../store/store.js';
import type { PooledOptions, RunOutcome } from '../../types.js';
import { type EchoResults, echoSettings } from './config.js';

/** The echo protocol's code: a suite of `times` identical questions, run by waver's engine. */

export async function build(config: WaverConfig, _opts: PooledOptions): Promise<Suite> {
  const { times } = echoSettings(config);
  return suiteOf(
    'echo/questions',
    Array.from({ length: times }, (_, i) => ({ id: `q${i + 1}`, prompt: `Say B. (${i + 1})` })),
  );
}

export function estimate(config: WaverConfig, suite: Suite, opts: PooledOptions): Promise<ModelEstimate[]> {
  return estimateSuite(config, suite, opts);
}

export async function run(
  config: WaverConfig,
  suite: Suite,
  opts: PooledOptions,
): Promise<RunOutcome<EchoResults>> {
  const r = await runSuite(config, suite, opts);
  return {
    runs: [r],
    aborted: r.summary.aborted,
    complete: r.complete,
    results: readStore(r.store, (store) => loadEcho(store, suite.hash)),
  };
}

export function summary({ results }: RunOutcome<EchoResults>): string | undefined {
  return results && `${JSON.stringify(results)}\n`;
}

function loadEcho(store: Store, suiteHash: string): EchoResults {
  return {
    done: Object.fromEntries(store.coverage.byModel(suiteHash, 1).map((m) => [m.model, m.coverage.done])),
  };
}

export const section = { load: (store: Store, suiteHash: string) => loadEcho(store, suiteHash) };
