/**
 * waver's library API (docs/library.md), what an embedding needs and no more:
 * - protocols: waver's five (`ladderProtocol`, `sagoProtocol`, `paraphraseProtocol`, `spreadProtocol`,
 *   `plainProtocol`), `PROTOCOLS`, `protocolNamed`; `defineProtocol` and `registerProtocol` for
 *   one of your own; their options (`onStage`, `onProgress`, `onNotice`) and outcomes;
 * - results: `readResults` (typed, versioned records), `openStore`, `mergeStores`;
 * - the config: `validateConfig`, `resolveConfig`, `loadConfigFile`, `configJsonSchema`,
 *   `configSchema`, `loadConfigProviders`, each following the registered protocols;
 * - models: `createProvider`, `registerProvider`, `ProviderRegistry`, specs, the provider types,
 *   `createProviderPool`; plain suites (`runSuite`, `estimateSuite`, `suiteOf`); `registerDataset`;
 *   `startOpenAIServer`;
 * - errors: `InputError`, `ProviderError`, `BudgetReached`, `CallsHalted`; `plan`; the version.
 * No command and no terminal: nothing here imports commander or writes to stdout or stderr
 * (src/library.test.ts); a protocol's adapters (commands, report section, check) are the CLI's.
 */
import type { WaverConfig as Config, WaverConfigInput } from './config/schema.js';
import {
  DESIGNS as DESIGNS_OF_NO_PROTOCOL,
  type PlanInput,
  type PlanResult,
  plan as planWith,
} from './plan/designs.js';
import * as registry from './protocols/index.js';
import type { LadderSectionData } from './protocols/ladder/report-section.js';
import type { ParaphraseResults } from './protocols/paraphrase/results.js';
import {
  type ReadResultsOptions,
  type ResultsRecord,
  readResults as readWith,
} from './protocols/read-results.js';
import type { SagoResults } from './protocols/sago/results.js';
import type { Protocol } from './protocols/types.js';
import type { Store } from './store/store.js';

export { loadConfigProviders } from './config/providers.js';
export type { NamedDataset } from './data/named-dataset.js';
export { registerDataset } from './data/registry.js';
export { InputError } from './errors.js';
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
export { defineProtocol, type ProtocolCode, type ProtocolDefinition } from './protocols/define.js';
export {
  ladderProtocol,
  paraphraseProtocol,
  plainProtocol,
  sagoProtocol,
  spreadProtocol,
} from './protocols/index.js';
export type { LadderPlan } from './protocols/ladder/protocol.js';
export type { LadderResults } from './protocols/ladder/results.js';
export type { ParaphraseOutcome } from './protocols/paraphrase/protocol.js';
export type { ParaphraseItems } from './protocols/paraphrase/run.js';
export {
  RESULTS_SCHEMA_VERSION,
  type ReadResultsOptions,
  type ResultsRecord,
} from './protocols/read-results.js';
export type { SagoPromptSets } from './protocols/sago/prompt-sets.js';
export type {
  PooledOptions,
  Protocol,
  ProtocolOptions,
  ProtocolSuites,
  RunOutcome,
} from './protocols/types.js';
export type { LoadContext } from './report/load-context.js';
export { BudgetReached } from './run/budget.js';
export { CallsHalted } from './run/call-path/middleware.js';
export type { EstimateRole, EstimateStage, ModelEstimate } from './run/estimate.js';
export { type CallDefaults, createProviderPool, type ProviderPool } from './run/provider-pool.js';
export { estimateSuite, type RunResult, type RunSuiteOptions, runSuite } from './run/run-suite.js';
export { suiteOf } from './run/suite.js';
export type { Cell, Coverage, Shard, Suite, SuiteTest } from './run/types.js';
export { startOpenAIServer } from './server/openai-server.js';
export { type MergedSource, type MergeOutcome, mergeStores } from './store/merge.js';
export { openStore, type Store } from './store/store.js';
export type { Notice, NoticeSink } from './util/notices.js';
export { WAVER_VERSION } from './version.js';
export type { LadderSectionData, ParaphraseResults, PlanInput, PlanResult, SagoResults, WaverConfigInput };

/** Every protocol, waver's own in report order, then those registered (the array grows with `registerProtocol`). */
export const PROTOCOLS: readonly Protocol[] = registry.PROTOCOLS;
export const { protocolNamed, registerProtocol } = registry;

/** The one typed config, from waver.yaml, flags or the library's object. */
export type WaverConfig = Config;

/** The config from an object, every field checked (an `InputError` naming the field), defaults filled. */
export function validateConfig(input: WaverConfigInput): Config {
  return registry.CONFIG.validate(input);
}
/** The config of a waver.yaml file, overridden by `overrides` (as the CLI's flags override it). */
export const resolveConfig: typeof registry.CONFIG.resolve = (...args) => registry.CONFIG.resolve(...args);
/** A waver.yaml file's content, checked (errors name the file and line). */
export const loadConfigFile: typeof registry.CONFIG.loadFile = (...args) => registry.CONFIG.loadFile(...args);
/** The JSON schema of waver.yaml (what `waver schema` prints). */
export function configJsonSchema(): ReturnType<typeof registry.CONFIG.jsonSchema> {
  return registry.CONFIG.jsonSchema();
}
/** The zod schema of the one typed config, as the registered protocols make it. */
export function configSchema(): typeof registry.CONFIG.schema {
  return registry.CONFIG.schema;
}

/** What each of waver's protocols' records hold in `results`. */
export interface ProtocolResults {
  ladder: LadderSectionData;
  sago: SagoResults;
  paraphrase: ParaphraseResults;
  run: undefined;
}

/**
 * The results in a store (a path, opened read-only, or an open store), one record per suite of the
 * systems under test, each rebuilt by its protocol (docs/library.md#results-records); like
 * inspect_ai's `read_eval_log`. Filtered by suite (name or hash prefix), protocol and model label.
 */
export function readResults<P extends keyof ProtocolResults>(
  store: string | Store,
  opts: ReadResultsOptions & { protocol: P },
): Promise<ResultsRecord<ProtocolResults[P]>[]>;
export function readResults(store: string | Store, opts?: ReadResultsOptions): Promise<ResultsRecord[]>;
export function readResults(store: string | Store, opts: ReadResultsOptions = {}): Promise<ResultsRecord[]> {
  return readWith(store, registry.PROTOCOLS, opts);
}

/** The designs of `plan`: those of no protocol, then each registered protocol's (docs/plan.md#designs). */
export function planDesigns(): string[] {
  return [
    ...DESIGNS_OF_NO_PROTOCOL,
    ...registry.PROTOCOLS.flatMap((p) => p.designs ?? []).map((d) => d.name),
  ];
}
/** What a claim needs (docs/plan.md), by any design of `planDesigns()`. */
export function plan(input: PlanInput): PlanResult {
  return planWith(
    input,
    registry.PROTOCOLS.flatMap((p) => p.designs ?? []),
  );
}
