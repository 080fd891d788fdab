import type { WaverConfig } from '../../config/schema.js';
import { InputError } from '../../errors.js';
import { specLabel, toModelSpec } from '../../models/spec.js';
import type { Capabilities, ModelProvider } from '../../models/types.js';
import { plannedModels } from '../../run/plan.js';
import type { ProviderPool } from '../../run/provider-pool.js';
import { runRole } from '../../run/roles.js';
import { type RunResult, runSuite } from '../../run/run-suite.js';
import { suiteOf } from '../../run/suite.js';
import type { Suite, SuiteTest } from '../../run/types.js';
import { openStore, type Store } from '../../store/store.js';
import type { PooledOptions } from '../types.js';
import { auxStage } from './aux-stage.js';
import { checkRequestedAxes, type SagoEmbedderRecord, type SagoModelRecord } from './axes.js';
import { type SagoConfig, sagoSettings, sutMaxTokens } from './config.js';
import type { OpenDatasetSample } from './data/datasets.js';
import { tokenLevelEmbedder } from './embeddings.js';
import { type RejectedVariant, type SagoDatasetRecord, type SagoManifest, saveManifest } from './manifest.js';
import { politenessJudgePrompt } from './mirroring.js';
import type { SagoPromptSets } from './prompt-sets.js';
import {
  JUDGE_SUITE,
  judgeTestId,
  loadSagoResults,
  RESPONSES_SUITE,
  type SagoResults,
  type SagoTestMeta,
} from './results.js';
import type { SagoTest } from './test-meta.js';
import {
  filterMeaning,
  generateStructural,
  type PromptVariants,
  usesGenerator,
  keyOf as variationKeyOf,
} from './variants.js';

/**
 * `waver sago` as a library call (docs/sago.md): from the sampled prompts and their rule
 * variations (prompt-sets.ts), finish the variation set (generator rewrites, meaning filter), run
 * every system under test on the baseline and every variant (suite `sago/responses`), judge
 * politeness (suite `sago/politeness-judge`), store the embeddings and scores the axes need (aux
 * cache), save the manifest, and compute the results from the store. Bad input is found before
 * anything is written. The prompt sets are filled in place.
 */

export interface SagoPlan {
  datasets: SagoDatasetRecord[];
  prompts: number;
  /** Distinct variation keys in the set. */
  variations: number;
  /** Tests of the responses suite (baselines + variants kept). */
  tests: number;
  rejected: number;
  models: SagoModelRecord[];
  embedder?: SagoEmbedderRecord;
}

export interface SagoRunResult {
  plan: SagoPlan;
  store: string;
  suiteHash?: string;
  /** One per system under test (the responses stage). */
  runs: RunResult[];
  aborted: boolean;
  results?: SagoResults;
}

/** A sampled dataset as the plan and the manifest record it: sizes, and where it came from. */
function datasetRecord(s: OpenDatasetSample): SagoDatasetRecord {
  return { name: s.name, available: s.available, n: s.prompts.length, ...(s.source && { source: s.source }) };
}

export async function runSago(
  config: WaverConfig,
  { samples, prompts, sets }: SagoPromptSets,
  opts: PooledOptions,
): Promise<SagoRunResult> {
  const settings = sagoSettings(config);
  const hasStructural = sets.some((s) => s.variants.some((v) => v.family === 'structural'));
  const generatorOn = hasStructural && usesGenerator(config, settings);
  const hasRegister = sets.some((s) => s.variants.some((v) => v.family === 'register' && v.strength !== 0));

  // Every model is created (and so checked: spec, key, file) before the store is opened, once for
  // the whole command: the responses, the roles, the embedder and the model's own scores and hidden
  // states share one instance per model, and its limits.
  const { pool } = opts;
  const models = await describeModels(config, pool);
  const roles = await checkRoles(config, { generator: generatorOn, judge: hasRegister }, pool);
  const embedder =
    config.embedder === undefined ? undefined : await openEmbedder(config.embedder, settings, pool);
  const axisCtx = { embedder: embedder?.record, judge: roles.judge?.label, settings };
  checkRequestedAxes(models, axisCtx);

  // From here on the store is written.
  let generatorStage: { suiteHash: string; identity: string } | undefined;
  if (generatorOn) {
    opts.onStage?.('generator', `structural rewrites by ${roles.generator?.label}`);
    generatorStage = await generateStructural(config, settings, sets, runOptions(opts));
  }
  const store = openStore(config.store);
  try {
    await meaningFilter(store, sets, settings, embedder, opts);
    const suite = responsesSuite(sets, settings);
    const rejected = rejectedOf(sets);
    const { runs, aborted } = await responsesStage(config, settings, suite, models, opts);
    const judgeSuiteHash =
      !aborted && roles.judge && hasRegister
        ? await judgeStage(store, config, settings, suite, models, roles.judge, opts)
        : undefined;
    if (!aborted) {
      opts.onStage?.('embeddings', 'hidden states, response embeddings and scores (stored in aux_results)');
      const auxCtx = { embedder: embedder?.provider, embedderRecord: embedder?.record, axisCtx, pool };
      await auxStage(store, config, settings, suite, models, auxCtx, opts);
    }

    const manifest = manifestOf(config, settings, {
      suite,
      models,
      roles,
      generatorStage,
      judgeSuiteHash,
      embedder: embedder?.record,
      samples,
      rejected,
      generatorOn,
    });
    saveManifest(store, manifest);
    const results = aborted ? undefined : loadSagoResults(store, suite.hash, { manifest });
    return {
      plan: {
        datasets: samples.map(datasetRecord),
        prompts: prompts.length,
        variations: new Set(sets.flatMap((s) => s.variants.map(variationKeyOf))).size,
        tests: suite.tests.length,
        rejected: rejected.length,
        models,
        ...(embedder ? { embedder: embedder.record } : {}),
      },
      store: config.store,
      suiteHash: suite.hash,
      runs,
      aborted,
      ...(results ? { results } : {}),
    };
  } finally {
    store.close();
  }
}

/** What a run made, as its manifest records it. */
interface RunRecord {
  suite: Suite<SagoTest>;
  models: SagoModelRecord[];
  roles: { generator?: RoleRecord; judge?: RoleRecord };
  generatorStage?: { suiteHash: string; identity: string };
  judgeSuiteHash?: string;
  embedder?: SagoEmbedderRecord;
  samples: readonly OpenDatasetSample[];
  rejected: RejectedVariant[];
  /** The structural rewrites were the generator's (else the rules'). */
  generatorOn: boolean;
}

/** The manifest: the suites, models, roles and settings of the run, so its results can be rebuilt. */
function manifestOf(config: WaverConfig, settings: SagoConfig, run: RunRecord): SagoManifest {
  const { generatorStage, judgeSuiteHash, roles } = run;
  return {
    version: 1,
    responsesSuite: run.suite.hash,
    ...(generatorStage ? { generatorSuite: generatorStage.suiteHash } : {}),
    ...(generatorStage && roles.generator
      ? { generator: { label: roles.generator.label, identity: generatorStage.identity } }
      : {}),
    ...(judgeSuiteHash && roles.judge ? { judgeSuite: judgeSuiteHash, judge: roles.judge } : {}),
    ...(run.embedder ? { embedder: run.embedder } : {}),
    models: run.models,
    seed: config.seed,
    minCoverage: config.minCoverage,
    // The settings whole, with the structural rewrites as they were made and the cap every response was asked with.
    settings: {
      ...settings,
      maxTokens: sutMaxTokens(config, settings),
      structural: run.generatorOn ? 'generator' : 'rules',
    },
    datasets: run.samples.map(datasetRecord),
    rejected: run.rejected,
  };
}

/** What each stage's runner is handed: the command's pool and its signal, progress and accounting. */
function runOptions(opts: PooledOptions) {
  return {
    env: opts.env,
    fetch: opts.fetch,
    signal: opts.signal,
    onProgress: opts.onProgress,
    onRunEnd: opts.onRunEnd,
    pool: opts.pool,
  };
}

/** The embedder from the pool, refused at once when its provider gives no embeddings. */
export async function openEmbedder(
  spec: NonNullable<WaverConfig['embedder']>,
  settings: SagoConfig,
  pool: ProviderPool,
): Promise<{ provider: ModelProvider; record: SagoEmbedderRecord }> {
  const model = toModelSpec(spec, { field: 'embedder' });
  const provider = await pool.get(model);
  if (!provider.capabilities.embeddings || !provider.embed)
    throw new InputError(`embedder ${specLabel(model)} cannot embed (its provider gives no embeddings)`, {
      field: 'embedder',
    });
  return {
    provider,
    record: {
      label: specLabel(model),
      identity: provider.identity,
      provider: provider.provider,
      tokenLevel: tokenLevelEmbedder(provider, settings.bertscore),
    },
  };
}

/** Drops the variants whose meaning moved (by the embedder's cosine where there is one). */
async function meaningFilter(
  store: Store,
  sets: PromptVariants[],
  settings: SagoConfig,
  embedder: { provider: ModelProvider; record: SagoEmbedderRecord } | undefined,
  opts: PooledOptions,
): Promise<void> {
  if (!embedder) return filterMeaning(sets, settings, { store, tokenLevel: false });
  opts.onStage?.('meaning', `meaning filter with ${embedder.record.label}`);
  await filterMeaning(sets, settings, {
    store,
    embedder: embedder.provider,
    embedderLabel: embedder.record.label,
    tokenLevel: embedder.record.tokenLevel,
    signal: opts.signal,
  });
}

/** Each system under test on every baseline and variant, one after another until one is stopped. */
async function responsesStage(
  config: WaverConfig,
  settings: SagoConfig,
  suite: Suite<SagoTest>,
  models: readonly SagoModelRecord[],
  opts: PooledOptions,
): Promise<{ runs: RunResult[]; aborted: boolean }> {
  const runs: RunResult[] = [];
  for (const m of models) {
    opts.onStage?.('responses', `${m.label}: ${suite.tests.length} prompts (baselines and variants)`);
    const r = await runSuite(sutConfig(config, m, settings), suite, runOptions(opts));
    runs.push(r);
    if (r.summary.aborted) return { runs, aborted: true };
  }
  return { runs, aborted: false };
}

/** The judge's politeness verdicts on the responses register variants need; the judge suite's hash, when it had any. */
async function judgeStage(
  store: Store,
  config: WaverConfig,
  settings: SagoConfig,
  suite: Suite<SagoTest>,
  models: readonly SagoModelRecord[],
  judge: RoleRecord,
  opts: PooledOptions,
): Promise<string | undefined> {
  const tests = judgeTests(store, suite, models);
  if (tests.length === 0) return undefined;
  opts.onStage?.('judge', `politeness of ${tests.length} responses by ${judge.label}`);
  const judged = await runRole(
    config,
    'judge',
    JUDGE_SUITE,
    [{ temperature: 0, maxTokens: settings.judgeMaxTokens, tests }],
    runOptions(opts),
  );
  judge.identity = judged.identity;
  return suiteOf(JUDGE_SUITE, tests).hash;
}

/**
 * The responses suite: per prompt its baseline, then every kept variant. With `deltaBaseline:
 * strength-zero` the baseline is asked twice: repeat 1 is the second, separately sampled baseline
 * response the reference code subtracts (docs/fidelity.md#sago).
 */
export function responsesSuite(
  sets: readonly PromptVariants[],
  settings: Pick<SagoConfig, 'deltaBaseline'> = { deltaBaseline: 'self' },
): Suite<SagoTest> {
  const tests: SagoTest[] = [];
  const repeats = settings.deltaBaseline === 'strength-zero' ? { repeats: 2 } : {};
  for (const { prompt, variants } of sets) {
    const base: SagoTestMeta = {
      dataset: prompt.prompt.dataset,
      promptId: prompt.prompt.id,
      role: 'baseline',
    };
    tests.push({ id: `${prompt.key}::base`, prompt: prompt.prompt.text, ...repeats, meta: { ...base } });
    for (const v of variants) {
      const meta: SagoTestMeta = {
        ...base,
        role: 'variant',
        family: v.family,
        subtype: v.subtype,
        strength: v.strength,
        position: v.position,
        generator: v.generator,
        ...(v.achievedRatio !== undefined ? { achievedRatio: v.achievedRatio } : {}),
        ...(v.meaningCheck ? { meaningCheck: v.meaningCheck } : {}),
      };
      tests.push({ id: `${prompt.key}::${variationKeyOf(v)}`, prompt: v.text, meta: { ...meta } });
    }
  }
  return suiteOf(RESPONSES_SUITE, tests);
}

function rejectedOf(sets: readonly PromptVariants[]): RejectedVariant[] {
  return sets.flatMap(({ prompt, rejected }) =>
    rejected.map(({ variation: v, reason }) => ({
      dataset: prompt.prompt.dataset,
      promptId: prompt.prompt.id,
      key: variationKeyOf(v),
      family: v.family,
      subtype: v.subtype,
      strength: v.strength,
      position: v.position,
      generator: v.generator,
      reason,
      ...(v.meaningCheck ? { meaningCheck: v.meaningCheck } : {}),
    })),
  );
}

/**
 * One system under test's config: log-probs asked for where the provider gives them (top-k
 * alternatives where it has no full distribution, for the entropy approximation), one call per
 * test (SAGO compares single temperature-0 responses).
 */
export function sutConfig(config: WaverConfig, model: SagoModelRecord, settings: SagoConfig): WaverConfig {
  const caps = model.capabilities;
  const spec = plannedModels(config).find((m) => m.label === model.label)?.spec;
  const logprobs = settings.confidence === 'generation' && caps.tokenLogprobs;
  const { topLogprobs: _drop, ...params } = config.params;
  return {
    ...config,
    models: spec ? [spec] : [],
    repeats: 1,
    params: {
      ...params,
      maxTokens: sutMaxTokens(config, settings),
      logprobs,
      ...(logprobs && !caps.fullDistribution && caps.topLogprobs > 0
        ? { topLogprobs: Math.min(caps.topLogprobs, 20) }
        : {}),
    },
  };
}

export async function describeModels(config: WaverConfig, pool: ProviderPool): Promise<SagoModelRecord[]> {
  const out: SagoModelRecord[] = [];
  for (const m of plannedModels(config)) {
    const provider = await pool.get(m.spec);
    out.push({
      label: m.label,
      identity: provider.identity,
      provider: provider.provider,
      capabilities: { ...provider.capabilities } as Capabilities,
    });
  }
  return out;
}

interface RoleRecord {
  label: string;
  identity: string;
}

/** Creates the generator and judge when they will be used, so a bad spec fails before any write. */
async function checkRoles(
  config: WaverConfig,
  needed: { generator: boolean; judge: boolean },
  pool: ProviderPool,
): Promise<{ generator?: RoleRecord; judge?: RoleRecord }> {
  const out: { generator?: RoleRecord; judge?: RoleRecord } = {};
  for (const role of ['generator', 'judge'] as const) {
    if (!needed[role] || config[role] === undefined) continue;
    const spec = toModelSpec(config[role], { field: role });
    const provider = await pool.get(spec);
    out[role] = { label: specLabel(spec), identity: provider.identity };
  }
  return out;
}

/** The tests whose responses the politeness judge reads: register variants (strength not 0) and their baselines. */
export function judgedTestIds(suite: Suite<SagoTest>): Set<string> {
  const needs = new Set<string>();
  for (const { id, meta } of suite.tests)
    if (meta.role === 'variant' && meta.family === 'register' && meta.strength !== 0) {
      needs.add(id);
      needs.add(`${meta.dataset}::${meta.promptId}::base`);
    }
  return needs;
}

/** Judge tests for every response a register variant needs a verdict on (variant and baseline), deduplicated by text. */
function judgeTests(store: Store, suite: Suite<SagoTest>, models: readonly SagoModelRecord[]): SuiteTest[] {
  const needs = judgedTestIds(suite);
  const texts = new Map<string, string>();
  for (const m of models)
    for (const cell of store.cells.all({
      suiteHash: suite.hash,
      modelIdentity: m.identity,
      status: 'done',
    })) {
      if (!needs.has(cell.testId) || !cell.response) continue;
      const text = cell.response.text;
      texts.set(judgeTestId(text), text);
    }
  return [...texts].map(([id, text]) => ({ id, prompt: politenessJudgePrompt(text) }));
}
