import type { WaverConfig } from '../../config/schema.js';
import { InputError } from '../../errors.js';
import { ProviderError } from '../../models/errors.js';
import { specLabel, toModelSpec } from '../../models/spec.js';
import type { Capabilities, ModelProvider, ScoreResult } from '../../models/types.js';
import { auxCall } from '../../run/aux-cache.js';
import type { ModelEstimate } from '../../run/estimate.js';
import { plannedModels } from '../../run/plan.js';
import type { ProviderPool } from '../../run/provider-pool.js';
import { runRole } from '../../run/roles.js';
import { estimateSuite, type RunResult, runSuite } from '../../run/run-suite.js';
import { suiteOf } from '../../run/suite.js';
import type { Suite, SuiteTest } from '../../run/types.js';
import { openStore, type Store } from '../../store/store.js';
import type { PooledOptions } from '../types.js';
import { checkRequestedAxes, computedAxes, type SagoEmbedderRecord, type SagoModelRecord } from './axes.js';
import { REFERENCE_MAX_TOKENS, type SagoConfig, sagoSettings } from './config.js';
import type { OpenDatasetSample } from './data/datasets.js';
import { activationStates, pooledEmbedding, tokenLevelEmbedder, wordPrefixEmbeddings } from './embeddings.js';
import { featureRow, featuresRequest, scoreRequest } from './features.js';
import { type RejectedVariant, type SagoDatasetRecord, type SagoManifest, saveManifest } from './manifest.js';
import {
  activationCosines,
  bertScores,
  groupTests,
  type PromptGroup,
  pooledCosines,
  promptRowRequest,
  writePromptRow,
} from './measures.js';
import { politenessJudgePrompt } from './mirroring.js';
import type { SagoPromptSets } from './prompt-sets.js';
import {
  activationRequest,
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
  let embedder: ModelProvider | undefined;
  let embedderRecord: SagoEmbedderRecord | undefined;
  if (config.embedder !== undefined) {
    const spec = toModelSpec(config.embedder, { field: 'embedder' });
    embedder = await pool.get(spec);
    if (!embedder.capabilities.embeddings || !embedder.embed)
      throw new InputError(`embedder ${specLabel(spec)} cannot embed (its provider gives no embeddings)`, {
        field: 'embedder',
      });
    embedderRecord = {
      label: specLabel(spec),
      identity: embedder.identity,
      provider: embedder.provider,
      tokenLevel: tokenLevelEmbedder(embedder, settings.bertscore),
    };
  }
  const axisCtx = { embedder: embedderRecord, judge: roles.judge?.label, settings };
  checkRequestedAxes(models, axisCtx);
  const plan = (suiteTests: number, rejected: number): SagoPlan => ({
    datasets: samples.map(datasetRecord),
    prompts: prompts.length,
    variations: new Set(sets.flatMap((s) => s.variants.map(variationKeyOf))).size,
    tests: suiteTests,
    rejected,
    models,
    ...(embedderRecord ? { embedder: embedderRecord } : {}),
  });

  // From here on the store is written.
  let generatorStage: { suiteHash: string; identity: string } | undefined;
  if (generatorOn) {
    opts.onStage?.('generator', `structural rewrites by ${roles.generator?.label}`);
    generatorStage = await generateStructural(config, settings, sets, {
      env: opts.env,
      fetch: opts.fetch,
      signal: opts.signal,
      onProgress: opts.onProgress,
      onRunEnd: opts.onRunEnd,
      pool,
    });
  }
  const store = openStore(config.store);
  try {
    if (embedder) {
      opts.onStage?.('meaning', `meaning filter with ${embedderRecord?.label}`);
      await filterMeaning(sets, settings, {
        store,
        embedder,
        embedderLabel: embedderRecord?.label,
        tokenLevel: embedderRecord?.tokenLevel ?? false,
        signal: opts.signal,
      });
    } else await filterMeaning(sets, settings, { store, tokenLevel: false });
    const suite = responsesSuite(sets, settings);
    const rejected = rejectedOf(sets);

    const runs: RunResult[] = [];
    let aborted = false;
    for (const m of models) {
      opts.onStage?.('responses', `${m.label}: ${suite.tests.length} prompts (baselines and variants)`);
      const r = await runSuite(sutConfig(config, m, settings), suite, {
        env: opts.env,
        fetch: opts.fetch,
        signal: opts.signal,
        onProgress: opts.onProgress,
        onRunEnd: opts.onRunEnd,
        pool,
      });
      runs.push(r);
      if (r.summary.aborted) {
        aborted = true;
        break;
      }
    }

    let judgeSuiteHash: string | undefined;
    if (!aborted && roles.judge && hasRegister) {
      const tests = judgeTests(store, suite, models);
      if (tests.length > 0) {
        opts.onStage?.('judge', `politeness of ${tests.length} responses by ${roles.judge.label}`);
        const judged = await runRole(
          config,
          'judge',
          JUDGE_SUITE,
          [{ temperature: 0, maxTokens: settings.judgeMaxTokens, tests }],
          {
            env: opts.env,
            fetch: opts.fetch,
            signal: opts.signal,
            onProgress: opts.onProgress,
            onRunEnd: opts.onRunEnd,
            pool,
          },
        );
        roles.judge.identity = judged.identity;
        judgeSuiteHash = suiteOf(JUDGE_SUITE, tests).hash;
      }
    }

    if (!aborted) {
      opts.onStage?.('embeddings', 'hidden states, response embeddings and scores (stored in aux_results)');
      const auxCtx = { embedder, embedderRecord, axisCtx, pool };
      await auxStage(store, config, settings, suite, models, auxCtx, opts);
    }

    const manifest: SagoManifest = {
      version: 1,
      responsesSuite: suite.hash,
      ...(generatorStage ? { generatorSuite: generatorStage.suiteHash } : {}),
      ...(generatorStage && roles.generator
        ? { generator: { label: roles.generator.label, identity: generatorStage.identity } }
        : {}),
      ...(judgeSuiteHash && roles.judge ? { judgeSuite: judgeSuiteHash, judge: roles.judge } : {}),
      ...(embedderRecord ? { embedder: embedderRecord } : {}),
      models,
      seed: config.seed,
      minCoverage: config.minCoverage,
      // The settings whole, with the structural rewrites as they were made.
      settings: { ...settings, structural: generatorOn ? 'generator' : 'rules' },
      datasets: samples.map(datasetRecord),
      rejected,
    };
    saveManifest(store, manifest);
    const results = aborted ? undefined : loadSagoResults(store, suite.hash, { manifest });
    return {
      plan: plan(suite.tests.length, rejected.length),
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

/**
 * `--dry-run`: what the responses stage would call, per model, for the rule variations (before the
 * generator's rewrites and the meaning filter). Writes nothing.
 */
export async function estimateSago(
  config: WaverConfig,
  { sets }: SagoPromptSets,
  opts: PooledOptions,
): Promise<ModelEstimate[]> {
  const settings = sagoSettings(config);
  const suite = responsesSuite(sets, settings);
  const estimate: ModelEstimate[] = [];
  for (const m of await describeModels(config, opts.pool))
    estimate.push(...(await estimateSuite(sutConfig(config, m, settings), suite, opts)));
  return estimate;
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
      maxTokens: settings.maxTokens ?? (settings.reference ? REFERENCE_MAX_TOKENS : params.maxTokens),
      logprobs,
      ...(logprobs && !caps.fullDistribution && caps.topLogprobs > 0
        ? { topLogprobs: Math.min(caps.topLogprobs, 20) }
        : {}),
    },
  };
}

async function describeModels(config: WaverConfig, pool: ProviderPool): Promise<SagoModelRecord[]> {
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

/** Judge tests for every response a register variant needs a verdict on (variant and baseline), deduplicated by text. */
function judgeTests(store: Store, suite: Suite<SagoTest>, models: readonly SagoModelRecord[]): SuiteTest[] {
  const needs = new Set<string>();
  const baselineOf = new Map<string, string>();
  for (const { id, meta } of suite.tests) {
    if (meta.role === 'baseline') baselineOf.set(`${meta.dataset}::${meta.promptId}`, id);
    else if (meta.family === 'register' && meta.strength !== 0) {
      needs.add(id);
      needs.add(`${meta.dataset}::${meta.promptId}::base`);
    }
  }
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

/** Stores the embeddings and scores the axes read (activation, response embeddings, teacher-forced scores). */
async function auxStage(
  store: Store,
  config: WaverConfig,
  settings: SagoConfig,
  suite: Suite<SagoTest>,
  models: readonly SagoModelRecord[],
  ctx: {
    embedder?: ModelProvider;
    embedderRecord?: SagoEmbedderRecord;
    axisCtx: Parameters<typeof computedAxes>[1];
    pool: ProviderPool;
  },
  opts: PooledOptions,
): Promise<void> {
  const testsById = new Map(suite.tests.map((t) => [t.id, t]));
  for (const m of models) {
    const axes = new Set(computedAxes(m, ctx.axisCtx));
    const needSelf =
      axes.has('activation') ||
      ((axes.has('logprob') || axes.has('entropy')) && settings.confidence === 'teacher-forced');
    const cells = [...store.cells.all({ suiteHash: suite.hash, modelIdentity: m.identity, status: 'done' })];
    let self: ModelProvider | undefined;
    if (needSelf) {
      const spec = plannedModels(config).find((p) => p.label === m.label)?.spec;
      if (spec) self = await ctx.pool.get(spec);
    }
    for (const cell of cells) {
      opts.signal?.throwIfAborted();
      const test = testsById.get(cell.testId);
      const text = cell.response?.text ?? '';
      if (!test) continue;
      // A text the model cannot take (too long for its context...) leaves that value missing,
      // counted by the results, rather than stopping the run.
      if (self && axes.has('activation'))
        await tolerant(() =>
          activationStates(
            store,
            self,
            settings.activationInput === 'prompt' ? test.prompt : text,
            settings.activationLayers,
            opts.signal,
          ),
        );
      if (
        self?.score &&
        settings.confidence === 'teacher-forced' &&
        (axes.has('logprob') || axes.has('entropy'))
      ) {
        const request = scoreRequest(test, text);
        const score = self.score.bind(self);
        await tolerant(() =>
          auxCall<ScoreResult>(
            store,
            'score',
            self.identity,
            request,
            () => score(request, { signal: opts.signal }),
            {
              signal: opts.signal,
            },
          ),
        );
      }
      const embedder = ctx.embedder;
      if (embedder && axes.has('cosine'))
        await tolerant(() => pooledEmbedding(store, embedder, text, opts.signal));
      if (embedder && axes.has('bertscore'))
        await tolerant(() => wordPrefixEmbeddings(store, embedder, text, opts.signal));
    }
    // The values the axes read, per prompt (measure rows, see measures.ts).
    const cellMap = new Map(cells.filter((c) => c.repeat === 0).map((c) => [c.testId, c]));
    // The second baseline samples (strength-zero Delta): appended to every measure row.
    const zeroMap = new Map(cells.filter((c) => c.repeat === 1).map((c) => [c.testId, c]));
    const withZero = settings.deltaBaseline === 'strength-zero';
    const e = ctx.embedderRecord;
    store.transaction(() => {
      for (const group of promptGroups(suite)) {
        const zero = zeroMap.get(group.baseline.id);
        const features = featureRow(store, m.identity, group, cellMap, settings, zero);
        if (!features) continue;
        const row = (values: (number | null)[]) => ({
          fingerprint: features.fingerprint,
          columns: { value: values },
        });
        writePromptRow(store, m.identity, featuresRequest(m.identity, suite.hash, group, settings), features);
        const tests = groupTests(group);
        const texts = tests.map((t) =>
          cellMap.has(t.id) ? (cellMap.get(t.id)?.response?.text ?? '') : undefined,
        );
        const prompts = tests.map((t, j) => (texts[j] === undefined ? undefined : t.prompt));
        if (withZero) {
          const zeroText = zero?.status === 'done' ? (zero.response?.text ?? '') : undefined;
          texts.push(zeroText);
          prompts.push(zeroText === undefined ? undefined : group.baseline.prompt);
        }
        if (axes.has('activation')) {
          const inputs = settings.activationInput === 'prompt' ? prompts : texts;
          writePromptRow(
            store,
            m.identity,
            activationRequest(m.identity, suite.hash, group, settings),
            row(activationCosines(store, m.identity, inputs, settings.activationLayers)),
          );
        }
        if (e && axes.has('cosine'))
          writePromptRow(
            store,
            e.identity,
            promptRowRequest('embedding-cosine', m.identity, suite.hash, group),
            row(pooledCosines(store, e.identity, texts)),
          );
        if (e && axes.has('bertscore'))
          writePromptRow(
            store,
            e.identity,
            promptRowRequest('bertscore-f1', m.identity, suite.hash, group),
            row(bertScores(store, e.identity, texts)),
          );
      }
    });
  }
}

/** The responses suite's tests grouped by prompt: the baseline and its variants. */
export function promptGroups(suite: Suite<SagoTest>): PromptGroup<SagoTest>[] {
  const groups = new Map<string, { baseline?: SagoTest; variants: SagoTest[] }>();
  for (const t of suite.tests) {
    const { meta } = t;
    const key = `${meta.dataset}::${meta.promptId}`;
    const g = groups.get(key) ?? { variants: [] };
    if (meta.role === 'baseline') g.baseline = t;
    else g.variants.push(t);
    groups.set(key, g);
  }
  return [...groups.values()].flatMap((g) =>
    g.baseline ? [{ baseline: g.baseline, variants: g.variants }] : [],
  );
}

/** Runs an aux call; a provider's refusal of one input (not a transient error, not an abort) leaves a gap. */
async function tolerant<T>(call: () => Promise<T>): Promise<T | undefined> {
  try {
    return await call();
  } catch (e) {
    if (e instanceof ProviderError && !e.retryable) return undefined;
    throw e;
  }
}
