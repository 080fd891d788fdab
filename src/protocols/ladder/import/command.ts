import { Command } from 'commander';
import { commandFlags } from '../../../command-kit/options.js';
import { emit } from '../../../command-kit/output.js';
import type { WaverConfig } from '../../../config/schema.js';
import { openStore } from '../../../store/store.js';
import type { ProtocolCommand } from '../../adapters.js';
import type { RunOutcome } from '../../types.js';
import { ladderSettings } from '../config.js';
import type { LadderPlan } from '../protocol.js';
import type { LadderSectionData } from '../report-section.js';
import { type LadderResults, loadLadderResults } from '../results.js';
import { aggregateSummary } from './aggregates.js';
import { type LadderRunsPlan, planLadderRunsImport, writeLadderRunsImport } from './ladder-runs.js';
import { ladderRunSummary, ladderRunsMarkdown } from './summary.js';

/** What an import takes of the base flags: where to write, and how to say what it read. */
const IMPORT_FLAGS = commandFlags({ groups: ['store', 'output'] });

/**
 * `waver import ladder-runs DIR...` (docs/ladder.md#import): the ladder reference's run folders
 * into the store, then per run, computed in the reference mode, the paper's Table 4, Table 5 and
 * the aggregate L0..L5 curve, the per-level accuracies beside the run's own metrics files, and any
 * disagreement (./summary.ts). A folder with the metrics files and no eval.csv stores nothing and
 * is summarised from its aggregates, what needs the rows unavailable (./aggregates.ts). Bad input:
 * exit 2, nothing written.
 */
export const ladderRunsImportCommand: ProtocolCommand<
  LadderPlan,
  LadderSectionData,
  RunOutcome<LadderResults>
> = (_ladder, ctx) => {
  const cmd = new Command('ladder-runs')
    .description(
      "read the ladder reference's run folders (eval.csv; responses.csv, metrics_*.csv, manifest.json where there) as ladder suites; a folder with metrics_acc.csv and no eval.csv is summarised from its aggregates",
    )
    .argument(
      '<dirs...>',
      'run folders (experiment/output/runs/<name>__<dataset>), or a folder holding them (the repository root)',
    );
  return IMPORT_FLAGS.addTo(cmd).action(async (dirs: string[]) => {
    const config = IMPORT_FLAGS.config(cmd, ctx.config);
    const plan = planLadderRunsImport(dirs);
    const aggregatesOnly = plan.aggregatesOnly.map(aggregateSummary);
    const runs = plan.runs.length === 0 ? [] : importRuns(config, plan);
    if (config.format === 'json')
      emit(
        `${JSON.stringify({ ...(runs.length > 0 && { store: config.store }), runs, aggregatesOnly }, null, 2)}\n`,
        config.out,
      );
    else emit(ladderRunsMarkdown(runs, aggregatesOnly), config.out);
  });
};

/** Stores the runs that have an eval.csv and summarises each from the store, in the reference mode. */
function importRuns(config: WaverConfig, plan: LadderRunsPlan) {
  const store = openStore(config.store);
  try {
    const suites = writeLadderRunsImport(store, plan);
    const settings = ladderSettings({ ladder: { ...(config.ladder ?? {}), reference: true } });
    return suites.map((s, i) => {
      const results = loadLadderResults(store, s.suiteHash, { seed: config.seed, settings });
      return ladderRunSummary(s, plan.runs[i] as LadderRunsPlan['runs'][number], results.models[0]);
    });
  } finally {
    store.close();
  }
}
