/**
 * waver's library API: the protocols the CLI runs, with the same typed config the CLI and
 * waver.yaml use (every protocol's section, validated by the same composed schema).
 */
import type { WaverConfig as Config } from './config/schema.js';
import {
  DESIGNS as PLAN_DESIGNS,
  type PlanInput,
  type PlanResult,
  plan as planWith,
} from './plan/designs.js';
import * as registry from './protocols/index.js';
import type { ProtocolModule } from './protocols/types.js';

const { CONFIG } = registry;

export const { loadFile: loadConfigFile, resolve: resolveConfig, validate: validateConfig } = CONFIG;
/** The JSON schema of waver.yaml (what `waver schema` prints). */
export const configJsonSchema = CONFIG.jsonSchema;
/** The schema of the one typed config: the base fields and every protocol's section. */
export const WaverConfig = CONFIG.schema;
export type WaverConfig = Config;
export type { ConfigContext } from './config/load.js';
export { loadConfigProviders } from './config/providers.js';
export type { WaverConfigInput } from './config/schema.js';
export { InputError } from './errors.js';
export { agreement, type RatedItem, type TaskAgreement } from './judge/agreement.js';
export { type CorrectedFigure, correctedEstimates } from './judge/corrected.js';
export { judgeReports, setReport } from './judge/report.js';
export { sampleJudged } from './judge/sample.js';
export type { JudgedItem, JudgeVerdict, Rubric, RubricLabel } from './judge/types.js';
export { ProviderError, type ProviderErrorKind } from './models/errors.js';
export {
  type CreateProviderOptions,
  createProvider,
  type ProviderDescriptor,
  type ProviderFactory,
  ProviderRegistry,
  registerProvider,
  withProviders,
} from './models/registry.js';
export { type ModelSpec, parseModelSpec, toModelSpec } from './models/spec.js';
export type { SpecShape, SpecStringParts } from './models/spec-shape.js';
export type * from './models/types.js';
export {
  defineProtocol,
  type ProtocolCode,
  type ProtocolCommand,
  type ProtocolDefinition,
  withPool,
} from './protocols/define.js';
export type { PlanInput, PlanResult };
export { CONFIG };

/** The designs every protocol hands in to `waver plan` (docs/plan.md#designs). */
const HANDED_DESIGNS = registry.PROTOCOLS.flatMap((p) => p.designs ?? []);
/** The designs of `waver plan`: those of no protocol, then each protocol's. */
export const DESIGNS: readonly string[] = [...PLAN_DESIGNS, ...HANDED_DESIGNS.map((d) => d.name)];
/** What a claim needs (docs/plan.md), by any design of `waver plan`, the protocols' included. */
export function plan(input: PlanInput): PlanResult {
  return planWith(input, HANDED_DESIGNS);
}

/**
 * A protocol as the library offers it: build a plan, estimate it, run it, print a run's summary as
 * its command does, load stored results.
 * Its CLI commands, report section and check stay inside waver (they are not a stable API).
 */
export type LibraryProtocol<M extends ProtocolModule = ProtocolModule> = Pick<
  M,
  'name' | 'title' | 'config' | 'suites' | 'build' | 'estimate' | 'run' | 'summary' | 'load'
>;
export const ladderProtocol: LibraryProtocol<typeof registry.ladderProtocol> = registry.ladderProtocol;
export const sagoProtocol: LibraryProtocol<typeof registry.sagoProtocol> = registry.sagoProtocol;
export const paraphraseProtocol: LibraryProtocol<typeof registry.paraphraseProtocol> =
  registry.paraphraseProtocol;
export const plainProtocol: LibraryProtocol<typeof registry.plainProtocol> = registry.plainProtocol;
/** Every protocol, in report order. */
export const PROTOCOLS: readonly LibraryProtocol[] = registry.PROTOCOLS;
export function protocolNamed(name: string): LibraryProtocol | undefined {
  return registry.protocolNamed(name);
}
export type { LadderPlan } from './protocols/ladder/protocol.js';
export type { LadderSectionData } from './protocols/ladder/report-section.js';
export type { LadderResults } from './protocols/ladder/results.js';
export type { ParaphraseOutcome } from './protocols/paraphrase/protocol.js';
export type { ParaphraseResults } from './protocols/paraphrase/results.js';
export type { ParaphraseItems } from './protocols/paraphrase/run.js';
export { loadPlainSuite } from './protocols/plain/suite-file.js';
export type { SagoPromptSets } from './protocols/sago/prompt-sets.js';
export type { SagoResults } from './protocols/sago/results.js';
export type {
  CommandContext,
  PooledOptions,
  ProtocolOptions,
  ProtocolSuites,
  RunOutcome,
} from './protocols/types.js';
export type { LoadContext } from './report/report-data.js';
export { type BudgetLimits, BudgetReached, CallBudget } from './run/budget.js';
export { type CallClock, type CallLimits, callPath } from './run/call-path/call-path.js';
export {
  type CallKind,
  CallsHalted,
  type PathCallOptions,
  type ProviderCall,
  type ProviderMiddleware,
} from './run/call-path/middleware.js';
export { wrapProvider } from './run/call-path/wrap-provider.js';
export type { EstimateRole, EstimateStage, ModelEstimate } from './run/estimate.js';
export { exportTranscripts } from './run/export.js';
export { type CallDefaults, createProviderPool, type ProviderPool } from './run/provider-pool.js';
export { estimateSuite, type RunResult, type RunSuiteOptions, runSuite } from './run/run-suite.js';
export { suiteOf } from './run/suite.js';
export type { Cell, Coverage, Shard, Suite, SuiteTest } from './run/types.js';
export { startOpenAIServer } from './server/openai-server.js';
export { type MergedSource, type MergeOutcome, mergeStores } from './store/merge.js';
export { openStore, Store } from './store/store.js';
export { WAVER_VERSION } from './version.js';
