import type { WaverConfig } from '../../config/schema.js';
import type { ModelEstimate } from '../../run/estimate.js';
import { plannedModels } from '../../run/plan.js';
import { estimateSuite, type RunResult, runSuite } from '../../run/run-suite.js';
import { openStore } from '../../store/store.js';
import type { PooledOptions } from '../types.js';
import { budgetCells, spreadSettings } from './config.js';
import { planCells } from './estimators/index.js';
import { type ScoringNote, scoreOptions, withStore } from './option-scores.js';
import type { SpreadPlan } from './plan-grid.js';
import { estimatePosix, scorePosix } from './posix-scores.js';
import { loadSpreadResults, type SpreadResults } from './results.js';
import { searchModel } from './search.js';
import { buildSpreadSuite } from './suite.js';
import { CELLS_SUITE } from './suite-names.js';

/**
 * A spread run end to end: the planned cells -> the `spread/cells` suite -> runSuite -> the
 * estimate per model from the store; with `--search`, each model's Thompson search instead.
 */

export interface SpreadRun {
  runs: RunResult[];
  /** Models whose choices were read from their replies, and why. */
  notes: ScoringNote[];
  results?: SpreadResults;
}

const once = (config: WaverConfig): WaverConfig => ({ ...config, repeats: 1 });

export async function runSpread(
  config: WaverConfig,
  plan: SpreadPlan,
  opts: PooledOptions,
): Promise<SpreadRun> {
  const settings = spreadSettings(config);
  const runs: RunResult[] = [];
  const notes: ScoringNote[] = [];
  if (settings.search) {
    for (const model of config.models) {
      const { run, notes: own } = await searchModel(config, settings, plan, model, opts);
      runs.push(run);
      notes.push(...own);
      if (run.summary.aborted) return { runs, notes };
    }
  } else {
    const suite = buildSpreadSuite(CELLS_SUITE, plan.grid, plan.cells);
    const run = await runSuite(once(config), suite, opts);
    runs.push(run);
    if (run.summary.aborted) return { runs, notes };
    notes.push(
      ...(await withStore(run, (store) => scoreOptions(store, config, settings, run, suite.tests, opts))),
    );
    if (settings.posix) await withStore(run, (store) => scorePosix(store, config, run, suite.tests, opts));
  }
  return { runs, notes, results: resultsOf(config, runs) };
}

/** The results of every run's suite, their models together (a search writes a suite per model). */
function resultsOf(config: WaverConfig, runs: readonly RunResult[]): SpreadResults | undefined {
  let merged: SpreadResults | undefined;
  for (const run of runs) {
    const store = openStore(run.store);
    try {
      const r = loadSpreadResults(store, run.suite.hash, {
        models: run.models.map((m) => m.identity),
        seed: config.seed,
        estimator: spreadSettings(config).estimator,
      });
      merged = merged ? { ...merged, models: [...merged.models, ...r.models] } : r;
    } finally {
      store.close();
    }
  }
  return merged;
}

/** `--dry-run`: the planned cells' calls, tokens and cost; a search's cells are its budget, as drawn items are alike. */
export async function estimateSpreadRun(
  config: WaverConfig,
  plan: SpreadPlan,
  opts: PooledOptions,
): Promise<ModelEstimate[]> {
  const settings = spreadSettings(config);
  const { templates, items } = plan.grid;
  const cells = settings.search
    ? planCells(
        templates.length,
        items.length,
        budgetCells(settings.budget, templates.length, items.length),
        config.seed,
      )
    : plan.cells;
  plannedModels(config);
  const suite = buildSpreadSuite(CELLS_SUITE, plan.grid, cells);
  const rows = await estimateSuite(once(config), suite, opts);
  return settings.posix && !settings.search ? [...rows, ...estimatePosix(config, suite.tests)] : rows;
}
