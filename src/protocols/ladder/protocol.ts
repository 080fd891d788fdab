import type { WaverConfig } from '../../config/schema.js';
import { InputError } from '../../errors.js';
import { specLabel, toModelSpec } from '../../models/spec.js';
import type { ModelEstimate } from '../../run/estimate.js';
import { openStore } from '../../store/store.js';
import type { PooledOptions, RunOutcome } from '../types.js';
import { type LadderAdmission, saveAdmission } from './admission-record.js';
import { ladderSettings, suiteGenerator, usesDefaultSuite } from './config.js';
import { resolveLadderSeeds } from './data/datasets.js';
import { withoutCutGolds } from './data/text-seeds.js';
import { defaultLadderSuite, defaultSuiteSource } from './default-suite/index.js';
import { estimateLadder, type LadderUnasked } from './estimate.js';
import { meaningCheck } from './meaning-check.js';
import { ladderBuildSettings } from './report-settings.js';
import { type LadderResults, loadLadderResults } from './results.js';
import { runLadder } from './run.js';
import { type BuildLadderSuiteOptions, baselineTest, buildAsksBound, buildLadderSuite } from './suite.js';
import { readLadderSuite } from './suite-file.js';
import { formatLadderReport } from './tables.js';
import type { LadderTest, Level } from './types.js';

/** The code behind ladderProtocol (index.ts): build, estimate and run, what a run prints, and the report section. */

export { ladderSection as section } from './report-section.js';

/** The tests a ladder run asks, and how they were admitted when the suite was built here. */
export interface LadderPlan {
  tests: LadderTest[];
  /** Absent when the suite was read from a file (`--suite`), and in a dry run. */
  admission?: LadderAdmission;
  /**
   * A dry run's, when building the suite asks a model: what it would ask at most, and the tests
   * the gates could admit beyond `tests` (built with no model asked).
   */
  unasked?: LadderUnasked;
}

/**
 * The suite file `config.suite`; with no dataset and no generator, the default suite (a reviewed
 * dataset of the built-in seeds, docs/ladder-suite.md#default-suite); else a suite built from
 * `config.dataset` (default the built-in seeds) with the generator suiteGenerator picks and the `ladder:` families, levels and attempts.
 * A stopped generator or judge leaves answers missing: such a suite would be wrong, so a stopped
 * build rejects with the signal's reason.
 */
export async function build(config: WaverConfig, opts: PooledOptions): Promise<LadderPlan> {
  if (config.suite !== undefined) return { tests: readLadderSuite(config.suite) };
  const settings = ladderSettings(config);
  if (usesDefaultSuite(config)) {
    opts.onStage?.('build', `the default suite: ${defaultSuiteSource()}`);
    const { tests, admission } = defaultLadderSuite({
      ...(settings.seeds !== undefined && { seeds: settings.seeds }),
      ...(settings.families && { families: settings.families }),
      ...(settings.levels && { levels: settings.levels as Level[] }),
    });
    const context = {
      ...admission.context,
      meaning: meaningCheck(tests),
      settings: ladderBuildSettings(settings),
    };
    return { tests, admission: { rows: admission.rows, context } };
  }
  const loaded = await resolveLadderSeeds(config.dataset, {
    limit: settings.seeds,
    fields: settings.fields,
    ...(settings.answerType && { answerType: settings.answerType }),
  });
  // A gold cut short (it would score a right reply wrong) or a question left in its CSV escaping in
  // the source file: such seeds stay out, said.
  const { kept: seeds, leftOut } = withoutCutGolds(loaded);
  if (leftOut.length > 0)
    opts.onStage?.(
      'build',
      `left out ${leftOut.length} seeds whose gold is cut short or question damaged in the source file: ${leftOut.map((x) => `${x.id} ("${x.gold}": ${x.why})`).join(', ')}`,
    );
  if (seeds.length === 0)
    throw new InputError('every seed of the dataset has a gold cut short', { field: 'dataset' });
  const generator = suiteGenerator(config);
  const name =
    generator === 'rules' || config.generator === undefined
      ? generator
      : specLabel(toModelSpec(config.generator, { field: 'generator' }));
  opts.onStage?.('build', `building the suite from ${seeds.length} seeds (${name} generator)`);
  const options: BuildLadderSuiteOptions = {
    seeds,
    config,
    generator,
    families: settings.families,
    levels: settings.levels as Level[] | undefined,
    attempts: settings.attempts,
    seed: config.seed,
    runOptions: { env: opts.env, fetch: opts.fetch, signal: opts.signal, pool: opts.pool },
    log: (line) => opts.onStage?.('build', line),
  };
  if (config.dryRun && (generator === 'model' || config.judge !== undefined)) return dryPlan(options);
  const built = await buildLadderSuite(options);
  opts.signal?.throwIfAborted();
  return {
    tests: built.tests,
    admission: {
      rows: built.admission,
      context: {
        seeds: seeds.length,
        generator: name,
        meaning: meaningCheck(built.tests),
        settings: ladderBuildSettings(settings),
      },
    },
  };
}

/**
 * A dry run's plan when building the suite would ask a model (docs/decisions.md E39): the suite as
 * it is built with no model asked (the rules' tests, every model gate not run; for the model
 * generator, the baselines alone), and what the build would ask at most.
 */
async function dryPlan(options: BuildLadderSuiteOptions): Promise<LadderPlan> {
  const { config } = options;
  const tests =
    options.generator === 'rules'
      ? (await buildLadderSuite({ ...options, config: { ...config, judge: undefined } })).tests
      : options.seeds.map(baselineTest);
  const bound = buildAsksBound(options);
  const built = new Set(tests.map(slotOf));
  return {
    tests,
    unasked: {
      generator: bound.generator,
      gates: config.judge === undefined ? [] : bound.gates,
      tests: bound.admissible.filter((t) => !built.has(slotOf(t))),
    },
  };
}

/** The (seed, family, requested level) a test fills: one test at most each. */
function slotOf(t: LadderTest): string {
  return `${t.seedId}/${t.family}/${t.requestedLevel}`;
}

/** Every role's calls: the build's and the judges' at most, when they depend on answers (estimate.ts). */
export function estimate(
  config: WaverConfig,
  plan: LadderPlan,
  opts: PooledOptions,
): Promise<ModelEstimate[]> {
  return estimateLadder(config, plan, opts);
}

/** The ladder/tests run and the KB judge pass, then Tables 3, 4 and 5's figures from the store. */
export async function run(
  config: WaverConfig,
  plan: LadderPlan,
  opts: PooledOptions,
): Promise<RunOutcome<LadderResults>> {
  const run = await runLadder(config, plan.tests, opts);
  const store = openStore(config.store);
  try {
    // The report prints the admission table the CLI printed (docs/ladder-suite.md#admission-record).
    if (plan.admission) saveAdmission(store, run.suite.hash, plan.admission);
    const results = loadLadderResults(store, run.suite.hash, {
      settings: ladderSettings(config),
      seed: config.seed,
      minCoverage: config.minCoverage,
      models: run.sut.models.map((m) => ({ label: m.label, identity: m.identity })),
      // A judge named now is the one whose verdicts count; without one, any stored verdicts are read.
      ...((run.judge ?? run.answerJudge) && {
        judgeIdentity: (run.judge ?? run.answerJudge)?.identity,
      }),
    });
    return {
      runs: [run.sut],
      aborted: run.sut.summary.aborted,
      // No failed or pending cell, the judge's included (docs/decisions.md#e8-exit-codes).
      complete:
        run.sut.complete &&
        !run.judge?.failed &&
        !run.answerJudge?.failed &&
        results.models.every((m) => m.complete),
      results,
    };
  } finally {
    store.close();
  }
}

/** The paper's Tables 3, 4 and 5 for each model, the admission table of a suite built here. */
export function summary(
  { results }: RunOutcome<LadderResults>,
  plan: LadderPlan,
  format: WaverConfig['format'],
): string | undefined {
  return (
    results &&
    formatLadderReport(
      { results, tests: plan.tests, ...(plan.admission && { admission: plan.admission }) },
      format,
    )
  );
}
