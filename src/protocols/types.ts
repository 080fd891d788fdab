import type { ThresholdSpec } from '../check/threshold-spec.js';
import type { ConfigSection, WaverConfig } from '../config/schema.js';
import type { FetchFn } from '../models/types.js';
import type { PlanDesign } from '../plan/types.js';
import type { LoadContext } from '../report/load-context.js';
import type { ProtocolSuites } from '../report/suite-roles.js';
import type { ModelEstimate } from '../run/estimate.js';
import type { ProviderPool } from '../run/provider-pool.js';
import type { RunResult } from '../run/run-suite.js';
import type { Progress } from '../run/types.js';
import type { Store } from '../store/store.js';
import type { NoticeSink } from '../util/notices.js';

export type { ProtocolSuites } from '../report/suite-roles.js';

/**
 * A protocol, in the one shape every protocol has (docs/protocols.md), as the library runs it: its
 * section of waver.yaml, the suites it writes, how it turns a config into a plan (`build`), what
 * that plan would cost (`estimate`) and what running it gives (`run`), what a run prints
 * (`summary`), and how its results are rebuilt from a store (`load`). No command, no terminal:
 * its CLI commands, report section, check and judged items are its adapters (`adapters`,
 * protocols/adapters.ts), which the CLI and the shells load beside it and the library never does.
 * The registry (src/protocols/index.ts) lists them; the config, the report, the viewer and the
 * check are handed them and know none by name.
 *
 * Every function takes the config as the CLI and the library both make it (waver.yaml, flags, or
 * an object, through the composed schema) and reads its own section through its own schema.
 *
 * `Plan` is what `build` gives and `run` takes; `SectionData` what `load` rebuilds from a store and
 * the report section shows (the ladder's adds its tests and admission table to its results);
 * `Outcome` what `run` gives, a RunOutcome whose `results` are the run's own, as the CLI prints them.
 */
export interface Protocol<Plan = unknown, SectionData = unknown, Outcome extends RunOutcome = RunOutcome> {
  /** Its command and its suites' prefix (`ladder` for `ladder/tests`); each report section's anchor. */
  readonly name: string;
  /** The heading of its report section. */
  readonly title: string;
  /** Its section of waver.yaml (`ladder:`); none for a protocol without settings of its own. */
  readonly config?: ConfigSection;
  /** The suites its runs write, each with its role (the report reads them); none for plain suites, which are named by their file. */
  readonly suites?: ProtocolSuites;
  /**
   * What `waver check` can gate on: light specs the `check:` section of waver.yaml is made from,
   * so the library's config is the CLI's; their evaluation is its check adapter.
   */
  readonly thresholds?: readonly ThresholdSpec[];
  /** Its designs of `waver plan` and the library's `plan` (docs/plan.md#designs): what a claim about its figures needs. */
  readonly designs?: readonly PlanDesign[];
  /**
   * Everything a run needs from the user's input, read and checked before any model is called or
   * anything is written: the ladder's tests (from the suite file or the dataset), sago's prompts
   * and their variations, paraphrase's items, a plain suite. Building a ladder suite with the
   * generator model makes calls; stopped by `opts.signal`, it rejects with the signal's reason.
   */
  build(config: WaverConfig, opts?: ProtocolOptions): Promise<Plan>;
  /** `--dry-run`: the calls, tokens and cost the run of `plan` would spend. Writes nothing. */
  estimate(config: WaverConfig, plan: Plan, opts?: ProtocolOptions): Promise<ModelEstimate[]>;
  /** Runs `plan` (resuming what the store already holds) and rebuilds the results from the store. */
  run(config: WaverConfig, plan: Plan, opts?: ProtocolOptions): Promise<Outcome>;
  /**
   * What its command prints for a run (and `--out` receives), in `format`: its tables, from the
   * outcome and the plan; undefined prints nothing (a stopped run has no results). Text, written
   * nowhere: the command writes it, a library caller does what it likes with it.
   */
  summary(outcome: Outcome, plan: Plan, format: WaverConfig['format']): Promise<string | undefined>;
  /** Its results for a suite of the store, rebuilt from the store alone (the report's loader). */
  load(store: Store, suiteHash: string, ctx: LoadContext): Promise<SectionData>;
  /**
   * Its adapters (protocols/adapters.ts: commands, report section, check, judged items), imported
   * when the CLI or a shell asks for them; none for a protocol only the library runs.
   */
  adapters?(): Promise<unknown>;
}

/** What build, estimate and run may be given; a command gives its signal and its progress lines. */
export interface ProtocolOptions {
  env?: NodeJS.ProcessEnv;
  fetch?: FetchFn;
  /** Stops the calls in flight; what is stored stays, and the same call again resumes. */
  signal?: AbortSignal;
  /** A stage starts: `stage` names it (`build`, `judge`, `ladder/kb-judge`...), `detail` says what it does. */
  onStage?: (stage: string, detail: string) => void;
  /** Progress of the current stage's cells. */
  onProgress?: (p: Progress) => void;
  /**
   * What a command would show besides its stages: a file being downloaded (a dataset, a model), a
   * note (the Hub unreachable, its cache served). Without it the library shows them nowhere.
   */
  onNotice?: NoticeSink;
  /** Each run of a suite, the roles' too, once it ends (runSuite's `onRunEnd`). */
  onRunEnd?: (run: RunResult) => void;
  /**
   * The command's models, for a caller that builds and runs with one pool (the CLI does), so a
   * model is one instance with one rate-limit bucket from the build's calls to the last judge's;
   * the caller closes it. Default: the protocol runner makes one for the call (define.ts).
   */
  pool?: ProviderPool;
}

/**
 * What a protocol's code is handed (define.ts): the options with the one pool of the command,
 * which every suite, role and aux call it makes takes its models from (docs/protocols.md#models).
 */
export type PooledOptions = ProtocolOptions & { pool: ProviderPool };

/** What a run gives, in one shape for every protocol: the CLI prints from it and the library returns it. */
export interface RunOutcome<Results = unknown> {
  /**
   * What was run: the systems under test's run of the protocol's primary suite (its suite,
   * models and their coverage, calls, tokens, time), or one run per model where the protocol asks
   * each model apart (sago). Role calls (generator, judges) are the protocol's own account.
   */
  runs: RunResult[];
  /** Stopped by the signal: the store is consistent, and the same run again resumes. */
  aborted: boolean;
  /**
   * No cell of `runs` failed or is pending, nor one of the protocol's roles where it accounts for
   * them, and every model's metrics are complete (docs/decisions.md#e8-exit-codes). The coverage
   * threshold (minCoverage) only decides whether a model's metrics are shown as complete.
   */
  complete: boolean;
  /** The results rebuilt from the store; absent when the run stopped before they could be. */
  results?: Results;
}
