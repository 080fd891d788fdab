import type { Coverage, SuiteTest } from '../../run/types.js';
import type { Store, StoredCell } from '../../store/store.js';
import { sha256 } from '../../util/hash.js';
import { type AxisStatus, axisStatuses, type SagoModelRecord } from './axes.js';
import { featureRow, featuresRequest } from './features.js';
import { latestManifest, type SagoManifest } from './manifest.js';
import {
  bertScores,
  fingerprintOf,
  groupTests,
  type PromptRow as MeasureRow,
  type PromptGroup,
  pooledCosines,
  promptRowRequest,
  readPromptRow,
} from './measures.js';
import {
  positionAblation,
  SAGO_AXES,
  type SagoAxis,
  type SagoDeltaTable,
  type SampleSizePoint,
  type ScopeScores,
  type SliceScore,
  type StrengthAblation,
  sagoScores,
  sampleSizeAblations,
  sampleSizeDraws,
  strengthAblation,
  type VariationKey,
} from './metrics.js';
import { mirrorsPoliteness, type PolitenessVerdict, parsePolitenessVerdict } from './mirroring.js';
import type { Variation } from './variations/types.js';

/**
 * Rebuilds every SAGO number from the store alone: the responses suite's tests (prompts and
 * variants with their coordinates), the stored responses, the aux results (embeddings, scores),
 * the judge's verdicts and the manifest. The command calls this after running; the report will too.
 */

export { JUDGE_SUITE, RESPONSES_SUITE } from './suites.js';

/** Test meta of the responses suite. */
export interface SagoTestMeta {
  dataset: string;
  promptId: string;
  role: 'baseline' | 'variant';
  /** Variants only. */
  family?: Variation['family'];
  subtype?: Variation['subtype'];
  strength?: number;
  position?: Variation['position'];
  generator?: string;
  achievedRatio?: number;
  meaningCheck?: Variation['meaningCheck'];
}

/** The row of activation cosines of a prompt (the model's own hidden states). */
export function activationRequest(
  model: string,
  suiteHash: string,
  group: PromptGroup,
  settings: Pick<SagoManifest['settings'], 'activationInput'>,
) {
  return promptRowRequest('activation-cosine', model, suiteHash, group, { input: settings.activationInput });
}

/** The judge test id of a response text (verdicts are about the text alone, shared by models). */
export function judgeTestId(text: string): string {
  return `politeness::${sha256(text).slice(0, 32)}`;
}

/** The axes computed for a model; unavailable ones keep their reason. */
export interface SagoModelResults {
  model: SagoModelRecord;
  coverage: Coverage;
  complete: boolean;
  axes: Record<SagoAxis, AxisStatus>;
  table: SagoDeltaTable;
  scores: ScopeScores[];
  ablations: {
    sampleSize: Partial<Record<SagoAxis, SampleSizePoint[]>>;
    position: Partial<Record<SagoAxis, SliceScore[]>>;
    strength: Partial<Record<SagoAxis, StrengthAblation[]>>;
  };
  /** Values that could not be computed, by axis and reason (failed cells, missing embeddings...). */
  missing: Partial<Record<SagoAxis, Record<string, number>>>;
}

export interface SagoResults {
  manifest: SagoManifest;
  suiteHash: string;
  prompts: number;
  variations: VariationKey[];
  /** Variants kept per prompt, summed. */
  variants: number;
  models: SagoModelResults[];
}

export interface LoadSagoOptions {
  /** Use this manifest instead of the newest one stored for the suite. */
  manifest?: SagoManifest;
  /** Skip the ablations (they are the slowest part). */
  ablations?: boolean;
}

interface PromptRow {
  dataset: string;
  id: string;
  baseline: SuiteTest;
  /** Column index -> variant test. */
  variants: Map<number, SuiteTest>;
}

/** Everything SAGO computed for a responses suite, from the store. */
export function loadSagoResults(store: Store, suiteHash: string, opts: LoadSagoOptions = {}): SagoResults {
  const manifest = opts.manifest ?? latestManifest(store, suiteHash);
  if (!manifest) throw new Error(`no sago manifest for suite ${suiteHash} in ${store.path}`);
  const suite = store.getSuite(suiteHash);
  if (!suite) throw new Error(`suite ${suiteHash} is not in ${store.path}`);
  const { rows, variations } = layout(suite.tests);
  const verdicts = judgeVerdicts(store, manifest);
  const drawsCache = new Map<number, Map<number, Uint32Array[]>>();
  const models = manifest.models.map((model) => {
    const r = modelResults(store, suiteHash, manifest, model, rows, variations, verdicts);
    if (opts.ablations !== false) {
      const P = rows.length;
      let draws = drawsCache.get(P);
      if (!draws) {
        draws = sampleSizeDraws(
          P,
          manifest.settings.ablation.sizes,
          manifest.settings.ablation.draws,
          manifest.seed,
        );
        drawsCache.set(P, draws);
      }
      const axes = SAGO_AXES.filter((a) => r.table.deltas[a] !== undefined);
      r.ablations.sampleSize = sampleSizeAblations(r.table, axes, draws, manifest.settings.ablation.sizes);
      for (const axis of axes) {
        r.ablations.position[axis] = positionAblation(r.table, axis);
        r.ablations.strength[axis] = strengthAblation(r.table, axis);
      }
    }
    return r;
  });
  return {
    manifest,
    suiteHash,
    prompts: rows.length,
    variations,
    variants: rows.reduce((n, r) => n + r.variants.size, 0),
    models,
  };
}

/** Prompts (rows) and variation keys (columns) from the suite's tests, in suite order. */
function layout(tests: readonly SuiteTest[]): { rows: PromptRow[]; variations: VariationKey[] } {
  const rows: PromptRow[] = [];
  const byPrompt = new Map<string, PromptRow>();
  const columns = new Map<string, number>();
  const variations: VariationKey[] = [];
  const pending: { promptKey: string; test: SuiteTest; meta: SagoTestMeta }[] = [];
  for (const test of tests) {
    const meta = test.meta as unknown as SagoTestMeta;
    const promptKey = `${meta.dataset}::${meta.promptId}`;
    if (meta.role === 'baseline') {
      const row: PromptRow = {
        dataset: meta.dataset,
        id: meta.promptId,
        baseline: test,
        variants: new Map(),
      };
      byPrompt.set(promptKey, row);
      rows.push(row);
    } else pending.push({ promptKey, test, meta });
  }
  for (const { promptKey, test, meta } of pending) {
    const row = byPrompt.get(promptKey);
    if (!row) continue;
    const key = `${meta.family}/${meta.subtype}/${meta.strength}/${meta.position}`;
    let col = columns.get(key);
    if (col === undefined) {
      col = variations.length;
      columns.set(key, col);
      variations.push({
        key,
        family: meta.family as string,
        subtype: meta.subtype as string,
        strength: meta.strength as number,
        position: meta.position as string,
      });
    }
    row.variants.set(col, test);
  }
  return { rows, variations };
}

function judgeVerdicts(store: Store, manifest: SagoManifest): Map<string, PolitenessVerdict | undefined> {
  const out = new Map<string, PolitenessVerdict | undefined>();
  if (!manifest.judgeSuite || !manifest.judge) return out;
  for (const c of store.firstRepeatCells(manifest.judgeSuite, manifest.judge.identity))
    out.set(
      c.testId,
      c.status === 'done' && c.text !== undefined ? parsePolitenessVerdict(c.text) : undefined,
    );
  return out;
}

/** A cell as the loader needs it: status and text, without parsing its tokens. */
interface CellLite {
  status: 'done' | 'failed';
  errorKind?: string;
  responseKey?: string;
  attempts: number;
  text: string;
}

/** Status, response key and text of a model's cells in one query (tokens stay unparsed). */
function liteCells(store: Store, suiteHash: string, identity: string): Map<string, CellLite> {
  const out = new Map<string, CellLite>();
  for (const c of store.firstRepeatCells(suiteHash, identity))
    out.set(c.testId, {
      status: c.status,
      ...(c.errorKind !== undefined ? { errorKind: c.errorKind } : {}),
      ...(c.responseKey !== undefined ? { responseKey: c.responseKey } : {}),
      attempts: c.attempts,
      text: c.text ?? '',
    });
  return out;
}

/** Coverage of the suite's tests (one call each) from the cells already read. */
function coverageOf(tests: number, cells: Map<string, CellLite>): Coverage {
  const cov: Coverage = { total: tests, done: 0, failed: 0, pending: 0, cached: 0, errorsByKind: {} };
  for (const c of cells.values()) {
    if (c.status === 'done') {
      cov.done++;
      if (c.attempts === 0) cov.cached++;
    } else {
      cov.failed++;
      const kind = c.errorKind ?? 'unknown';
      cov.errorsByKind[kind] = (cov.errorsByKind[kind] ?? 0) + 1;
    }
  }
  cov.pending = cov.total - cov.done - cov.failed;
  return cov;
}

function modelResults(
  store: Store,
  suiteHash: string,
  manifest: SagoManifest,
  model: SagoModelRecord,
  rows: readonly PromptRow[],
  variations: readonly VariationKey[],
  verdicts: Map<string, PolitenessVerdict | undefined>,
): SagoModelResults {
  const settings = manifest.settings;
  const axes = axisStatuses(model, {
    embedder: manifest.embedder,
    judge: manifest.judge?.label,
    settings,
  });
  const computed = SAGO_AXES.filter(
    (a) => axes[a].available && (!settings.axes || settings.axes.includes(a)),
  );
  const cells = liteCells(store, suiteHash, model.identity);
  // Full cells (with tokens) only when a prompt's stored features are missing or stale.
  let full: Map<string, StoredCell> | undefined;
  const fullCells = () => {
    if (!full) {
      full = new Map();
      for (const c of store.cells({ suiteHash, modelIdentity: model.identity }))
        if (c.repeat === 0) full.set(c.testId, c);
    }
    return full;
  };

  const P = rows.length;
  const V = variations.length;
  const deltas: Partial<Record<SagoAxis, Float64Array>> = {};
  for (const axis of computed) deltas[axis] = new Float64Array(P * V).fill(Number.NaN);
  const missing: Partial<Record<SagoAxis, Record<string, number>>> = {};
  const miss = (axis: SagoAxis, why: string) => {
    const m = missing[axis] ?? {};
    m[why] = (m[why] ?? 0) + 1;
    missing[axis] = m;
  };
  const has = (axis: SagoAxis) => deltas[axis] !== undefined;
  const embedder = manifest.embedder;

  rows.forEach((row, i) => {
    const baseCell = cells.get(row.baseline.id);
    if (baseCell?.status !== 'done') {
      for (const axis of computed)
        for (let k = 0; k < row.variants.size; k++) miss(axis, 'baseline response missing');
      return;
    }
    const group: PromptGroup = { baseline: row.baseline, variants: [...row.variants.values()] };
    const tests = groupTests(group);
    const lite = tests.map((t) => {
      const c = cells.get(t.id);
      return c?.status === 'done' ? c : undefined;
    });
    const texts = lite.map((c) => c?.text);
    const fingerprint = fingerprintOf(lite.map((c) => c?.responseKey));
    const fresh = (r: MeasureRow | undefined) => (r && r.fingerprint === fingerprint ? r : undefined);
    let features = fresh(
      readPromptRow(store, model.identity, featuresRequest(model.identity, suiteHash, group, settings)),
    );
    if (!features && (has('bleu') || has('logprob') || has('entropy') || has('mirroring')))
      features = featureRow(store, model.identity, group, fullCells(), settings);
    const column = (r: MeasureRow | undefined, name: string) => r?.columns[name];
    const actTexts =
      settings.activationInput === 'prompt' ? tests.map((t, j) => (lite[j] ? t.prompt : undefined)) : texts;
    const act = has('activation')
      ? (fresh(
          readPromptRow(store, model.identity, activationRequest(model.identity, suiteHash, group, settings)),
        )?.columns.value ?? pooledCosines(store, model.identity, actTexts))
      : undefined;
    const cos =
      has('cosine') && embedder
        ? (fresh(
            readPromptRow(
              store,
              embedder.identity,
              promptRowRequest('embedding-cosine', model.identity, suiteHash, group),
            ),
          )?.columns.value ?? pooledCosines(store, embedder.identity, texts))
        : undefined;
    const bert =
      has('bertscore') && embedder
        ? (fresh(
            readPromptRow(
              store,
              embedder.identity,
              promptRowRequest('bertscore-f1', model.identity, suiteHash, group),
            ),
          )?.columns.value ?? bertScores(store, embedder.identity, texts))
        : undefined;
    const baseVerdict = verdicts.get(judgeTestId(baseCell.text));
    const bleu = column(features, 'bleu');
    const logprob = column(features, 'logprob');
    const entropy = column(features, 'entropy');
    const mirrorVariant = column(features, 'mirrorVariant');
    const mirrorBaseline = column(features, 'mirrorBaseline');

    let j = 0;
    for (const [col, test] of row.variants) {
      j++;
      const at = i * V + col;
      const cell = lite[j];
      if (!cell) {
        const c = cells.get(test.id);
        for (const axis of computed)
          miss(axis, c ? `variant call failed (${c.errorKind ?? 'error'})` : 'variant response missing');
        continue;
      }
      const put = (axis: SagoAxis, value: number | undefined, why: string) => {
        const arr = deltas[axis];
        if (!arr) return;
        if (value === undefined || !Number.isFinite(value)) miss(axis, why);
        else arr[at] = value;
      };
      // Delta = X(variant) - X(baseline); for a similarity the baseline's X is its self-similarity.
      const delta = (values: readonly (number | null)[] | undefined) => {
        const a = values?.[j];
        const b = values?.[0];
        return a === undefined || a === null || b === undefined || b === null ? undefined : a - b;
      };
      if (has('bleu')) put('bleu', delta(bleu), 'no BLEU');
      if (has('logprob')) put('logprob', delta(logprob), 'no token log-probs stored');
      if (has('entropy'))
        put('entropy', delta(entropy), 'no token entropy (empty response or no distribution stored)');
      if (has('activation'))
        put('activation', delta(act), 'no hidden state stored (empty text or not embedded)');
      if (has('cosine'))
        put('cosine', delta(cos), 'no response embedding stored (empty response or not embedded)');
      if (has('bertscore'))
        put('bertscore', delta(bert), 'no token embeddings stored (empty response or not embedded)');
      if (has('mirroring')) {
        const meta = test.meta as unknown as SagoTestMeta;
        let value: number | undefined;
        if (meta.subtype === 'politeness') {
          const strength = meta.strength ?? 0;
          const mv = mirrorsPoliteness(verdicts.get(judgeTestId(cell.text)), strength).mirrored;
          const mb = mirrorsPoliteness(baseVerdict, strength).mirrored;
          value = mv === undefined || mb === undefined ? undefined : Number(mv) - Number(mb);
        } else {
          const mv = mirrorVariant?.[j];
          const mb = mirrorBaseline?.[j];
          value = mv === undefined || mv === null || mb === undefined || mb === null ? undefined : mv - mb;
        }
        if (value === undefined) miss('mirroring', mirroringGap(meta, manifest));
        else put('mirroring', value, 'no mirroring value');
      }
    }
  });

  const table: SagoDeltaTable = {
    prompts: rows.map((r) => ({ dataset: r.dataset, id: r.id })),
    variations,
    deltas,
  };
  const coverage = coverageOf(rows.length + rows.reduce((n, r) => n + r.variants.size, 0), cells);
  const share = coverage.total === 0 ? 1 : coverage.done / coverage.total;
  return {
    model,
    coverage,
    complete: share >= manifest.minCoverage && coverage.pending === 0,
    axes,
    table,
    scores: sagoScores(table, { epsilons: settings.eps }),
    ablations: { sampleSize: {}, position: {}, strength: {} },
    missing,
  };
}

function mirroringGap(meta: SagoTestMeta, manifest: SagoManifest): string {
  if (meta.subtype === 'interrogative' || meta.subtype === 'imperative')
    return 'no detector for sentence form';
  if (meta.subtype === 'politeness')
    return manifest.judge ? 'politeness judge verdict missing or unparsable' : 'no judge for politeness';
  if (meta.subtype === 'length') return 'baseline response has no words (length ratio undefined)';
  return 'detector undecided';
}
