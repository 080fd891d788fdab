import type { WaverConfig } from '../../config/schema.js';
import type { ModelEstimate } from '../../run/estimate.js';
import type { PooledOptions, RunOutcome } from '../types.js';
import { paraphraseSettings } from './config.js';
import type { ParaphraseResults } from './results.js';
import type { Rewords } from './reword.js';
import { estimateParaphrase, loadParaphraseItems, type ParaphraseItems, runParaphrase } from './run.js';
import { formatParaphraseReport } from './tables.js';

/** The code behind paraphraseProtocol (index.ts): build, estimate and run, what a run prints, and the report section. */

export { paraphraseSection as section } from './report-section.js';

/** A paraphrase run's outcome, with the generator's rewordings (an item it could not reword is dropped). */
export interface ParaphraseOutcome extends RunOutcome<ParaphraseResults> {
  /** Rebuilt from the store after every run, a stopped one too (then from the cells it wrote). */
  results: ParaphraseResults;
  rewords: Rewords;
}

export async function build(config: WaverConfig, opts: PooledOptions): Promise<ParaphraseItems> {
  return loadParaphraseItems(config, paraphraseSettings(config), opts);
}

export function estimate(
  config: WaverConfig,
  plan: ParaphraseItems,
  opts: PooledOptions,
): Promise<ModelEstimate[]> {
  return estimateParaphrase(config, plan, opts);
}

/** Complete when the items run is and every model's leaderboard entry is (no model short of cells). */
export async function run(
  config: WaverConfig,
  plan: ParaphraseItems,
  opts: PooledOptions,
): Promise<ParaphraseOutcome> {
  const r = await runParaphrase(config, plan, {
    ...opts,
    onRewordStart: (n) => opts.onStage?.('reword', `rewording ${n} item(s) with the generator`),
  });
  return {
    runs: [r.run],
    aborted: r.run.summary.aborted,
    complete: r.run.complete && r.results.leaderboard.incomplete.length === 0,
    results: r.results,
    rewords: r.rewords,
  };
}

/** The leaderboard, accuracy per phrasing, instability and flips, with the items run's account and the items dropped. */
export function summary(
  { results, rewords, runs: [items] }: ParaphraseOutcome,
  _plan: ParaphraseItems,
  format: WaverConfig['format'],
): string | undefined {
  return (
    results &&
    formatParaphraseReport(results, format, {
      dropped: rewords.dropped,
      ...(items && {
        run: {
          runId: items.runId,
          calls: items.summary.calls,
          retries: items.summary.retries,
          elapsedMs: items.summary.elapsedMs,
          tokensIn: items.summary.tokensIn,
          tokensOut: items.summary.tokensOut,
          refusals: items.summary.refusals,
          contentFiltered: items.summary.contentFiltered,
          implausibleUsage: items.summary.implausibleUsage,
          aborted: items.summary.aborted,
        },
      }),
    })
  );
}
