import type { WaverConfig } from '../../config/schema.js';
import { ProviderError } from '../../models/errors.js';
import type { ModelProvider } from '../../models/types.js';
import { storeCached } from '../../run/call-path/store-cache.js';
import { plannedModels } from '../../run/plan.js';
import type { ProviderPool } from '../../run/provider-pool.js';
import type { Suite } from '../../run/types.js';
import type { Store, StoredCell } from '../../store/store.js';
import type { PooledOptions } from '../types.js';
import { computedAxes, type SagoEmbedderRecord, type SagoModelRecord } from './axes.js';
import type { SagoConfig } from './config.js';
import type { SagoAxis } from './constants.js';
import { activationStates, pooledEmbedding, wordPrefixEmbeddings } from './embeddings.js';
import { featureRow, featuresRequest, scoreRequest } from './features.js';
import {
  activationCosines,
  bertScores,
  groupTests,
  type PromptGroup,
  pooledCosines,
  promptRowRequest,
  writePromptRow,
} from './measures.js';
import { activationRequest } from './results.js';
import type { SagoTest } from './test-meta.js';

/**
 * SAGO's aux stage (docs/sago.md): after the responses, each model's hidden states, teacher-forced
 * scores and the embedder's embeddings of every response go into the aux cache, and then the
 * values each axis reads are written per prompt (measure rows, see measures.ts), so that the
 * results are rebuilt from the store without a call.
 */

/** What the stage is handed besides the suite: the embedder, what decides each model's axes, the command's pool. */
export interface AuxContext {
  embedder?: ModelProvider;
  embedderRecord?: SagoEmbedderRecord;
  axisCtx: Parameters<typeof computedAxes>[1];
  pool: ProviderPool;
}

/** Stores the embeddings and scores the axes read (activation, response embeddings, teacher-forced scores). */
export async function auxStage(
  store: Store,
  config: WaverConfig,
  settings: SagoConfig,
  suite: Suite<SagoTest>,
  models: readonly SagoModelRecord[],
  ctx: AuxContext,
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
      // Its scores through the store's cache: one the store holds makes no call (docs/decisions.md E45).
      if (spec) self = storeCached(store, await ctx.pool.get(spec));
    }
    const calls: AuxCalls = {
      store,
      settings,
      axes,
      ...(self && { self }),
      ...(ctx.embedder && { embedder: ctx.embedder }),
    };
    for (const cell of cells) {
      opts.signal?.throwIfAborted();
      const test = testsById.get(cell.testId);
      if (test) await cellAux(calls, test, cell.response?.text ?? '', opts.signal);
    }
    writeMeasureRows(store, settings, suite, m, cells, axes, ctx.embedderRecord);
  }
}

/** What a model's aux calls are made with. */
interface AuxCalls {
  store: Store;
  settings: SagoConfig;
  axes: ReadonlySet<SagoAxis>;
  /** The model itself, for its hidden states and teacher-forced scores. */
  self?: ModelProvider;
  embedder?: ModelProvider;
}

/** One response's aux values: hidden states, teacher-forced score, pooled and word-prefix embeddings. */
async function cellAux(c: AuxCalls, test: SagoTest, text: string, signal: AbortSignal | undefined) {
  const { store, settings, axes, self, embedder } = c;
  // A text the model cannot take (too long for its context...) leaves that value missing,
  // counted by the results, rather than stopping the run.
  if (self && axes.has('activation'))
    await tolerant(() =>
      activationStates(
        store,
        self,
        settings.activationInput === 'prompt' ? test.prompt : text,
        settings.activationLayers,
        signal,
      ),
    );
  if (
    self?.score &&
    settings.confidence === 'teacher-forced' &&
    (axes.has('logprob') || axes.has('entropy'))
  ) {
    const request = scoreRequest(test, text);
    const score = self.score.bind(self);
    await tolerant(() => score(request, { signal }));
  }
  if (embedder && axes.has('cosine')) await tolerant(() => pooledEmbedding(store, embedder, text, signal));
  if (embedder && axes.has('bertscore'))
    await tolerant(() => wordPrefixEmbeddings(store, embedder, text, signal));
}

/** The values the axes read, per prompt (measure rows, see measures.ts), in one transaction. */
function writeMeasureRows(
  store: Store,
  settings: SagoConfig,
  suite: Suite<SagoTest>,
  m: SagoModelRecord,
  cells: readonly StoredCell[],
  axes: ReadonlySet<SagoAxis>,
  embedder: SagoEmbedderRecord | undefined,
): void {
  const cellMap = new Map(cells.filter((c) => c.repeat === 0).map((c) => [c.testId, c]));
  // The second baseline samples (strength-zero Delta): appended to every measure row.
  const zeroMap = new Map(cells.filter((c) => c.repeat === 1).map((c) => [c.testId, c]));
  store.transaction(() => {
    for (const group of promptGroups(suite))
      promptMeasureRows(
        store,
        settings,
        suite.hash,
        m,
        group,
        cellMap,
        zeroMap.get(group.baseline.id),
        axes,
        embedder,
      );
  });
}

function promptMeasureRows(
  store: Store,
  settings: SagoConfig,
  suiteHash: string,
  m: SagoModelRecord,
  group: PromptGroup<SagoTest>,
  cellMap: ReadonlyMap<string, StoredCell>,
  zero: StoredCell | undefined,
  axes: ReadonlySet<SagoAxis>,
  e: SagoEmbedderRecord | undefined,
): void {
  const features = featureRow(store, m.identity, group, cellMap, settings, zero);
  if (!features) return;
  const row = (values: (number | null)[]) => ({
    fingerprint: features.fingerprint,
    columns: { value: values },
  });
  writePromptRow(store, m.identity, featuresRequest(m.identity, suiteHash, group, settings), features);
  const tests = groupTests(group);
  const texts = tests.map((t) => (cellMap.has(t.id) ? (cellMap.get(t.id)?.response?.text ?? '') : undefined));
  const prompts = tests.map((t, j) => (texts[j] === undefined ? undefined : t.prompt));
  if (settings.deltaBaseline === 'strength-zero') {
    const zeroText = zero?.status === 'done' ? (zero.response?.text ?? '') : undefined;
    texts.push(zeroText);
    prompts.push(zeroText === undefined ? undefined : group.baseline.prompt);
  }
  if (axes.has('activation')) {
    const inputs = settings.activationInput === 'prompt' ? prompts : texts;
    writePromptRow(
      store,
      m.identity,
      activationRequest(m.identity, suiteHash, group, settings),
      row(activationCosines(store, m.identity, inputs, settings.activationLayers)),
    );
  }
  if (e && axes.has('cosine'))
    writePromptRow(
      store,
      e.identity,
      promptRowRequest('embedding-cosine', m.identity, suiteHash, group),
      row(pooledCosines(store, e.identity, texts)),
    );
  if (e && axes.has('bertscore'))
    writePromptRow(
      store,
      e.identity,
      promptRowRequest('bertscore-f1', m.identity, suiteHash, group),
      row(bertScores(store, e.identity, texts)),
    );
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
