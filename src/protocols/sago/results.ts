import { ResultsPending } from '../../report/results-pending.js';
import type { Coverage } from '../../run/types.js';
import type { CellText, Store, StoredCell } from '../../store/store.js';
import { sha256 } from '../../util/hash.js';
import { axisStatuses, type SagoModelRecord } from './axes.js';
import { SAGO_AXES, type SagoAxis } from './constants.js';
import { DeltaTableBuilder } from './delta-table.js';
import { featureRow, featuresRequest } from './features.js';
import { importedResults } from './import/imported-results.js';
import { latestManifest, normalizedManifest, type SagoManifest } from './manifest.js';
import {
  activationCosines,
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
  type SagoDeltaTable,
  sagoScores,
  sampleSizeAblations,
  sampleSizeDraws,
  strengthAblation,
  type VariationKey,
} from './metrics.js';
import { mirrorsPoliteness, type PolitenessVerdict, parsePolitenessVerdict } from './mirroring.js';
import type {
  LoadSagoOptions,
  SagoModelResults,
  SagoResults,
  SagoTables,
  SagoTestMeta,
} from './result-types.js';
import { type SagoTest, sagoTests } from './test-meta.js';

/**
 * Rebuilds every SAGO number from the store alone: the responses suite's tests (prompts and
 * variants with their coordinates), the stored responses, the aux results (embeddings, scores),
 * the judge's verdicts and the manifest. The command calls this after running; the report will too.
 * A suite imported from the SAGO authors' runs is read by import/imported-results.ts.
 */

export type * from './result-types.js';
export { JUDGE_SUITE, RESPONSES_SUITE } from './suite-names.js';

/** The row of activation cosines of a prompt (the model's own hidden states). */
export function activationRequest(
  model: string,
  suiteHash: string,
  group: PromptGroup,
  settings: Pick<SagoManifest['settings'], 'activationInput' | 'activationLayers'>,
) {
  return promptRowRequest('activation-cosine', model, suiteHash, group, {
    input: settings.activationInput,
    // The final layer's rows keep the key they had before the setting existed.
    ...(settings.activationLayers === 'mean' && { layers: 'mean' }),
  });
}

/** The judge test id of a response text (verdicts are about the text alone, shared by models). */
export function judgeTestId(text: string): string {
  return `politeness::${sha256(text).slice(0, 32)}`;
}

/**
 * What a responses suite without its manifest says (docs/sago.md#store): its run writes the
 * manifest last, after the responses, the judge's verdicts, hidden states and embeddings.
 */
function pendingNote(store: Store, suiteHash: string, models: number): string {
  const running = store.runs.list().some((r) => r.suiteHash === suiteHash && r.status === 'running');
  const known = `${models} model${models === 1 ? ' has' : 's have'} responses stored`;
  const when =
    'the SGS scores appear here when the run has stored every response, hidden state and embedding and written its manifest, its last step';
  return running
    ? `in progress: ${known} so far; ${when}`
    : `no SGS yet: ${known}, but no run has reached its last step (the manifest); ${when}. Run the same waver sago command again to finish it: stored responses are not asked again`;
}

/** Everything SAGO computed for a responses suite, from the store. */
export function loadSagoResults(store: Store, suiteHash: string, opts: LoadSagoOptions = {}): SagoResults {
  const stored = opts.manifest ?? latestManifest(store, suiteHash);
  if (!stored) {
    const models = store.suites.models(suiteHash);
    if (models.length === 0) throw new Error(`no sago manifest for suite ${suiteHash} in ${store.path}`);
    throw new ResultsPending(pendingNote(store, suiteHash, models.length));
  }
  const manifest = normalizedManifest(stored);
  const tables =
    manifest.source?.kind === 'sago-runs'
      ? importedResults(store, suiteHash, manifest)
      : ownRunResults(store, suiteHash, manifest);
  if (opts.ablations !== false) {
    const draws = sampleSizeDraws(
      tables.prompts,
      manifest.settings.ablation.sizes,
      manifest.settings.ablation.draws,
      manifest.seed,
    );
    for (const r of tables.models) {
      const axes = SAGO_AXES.filter((a) => r.table.deltas[a] !== undefined);
      r.ablations.sampleSize = sampleSizeAblations(r.table, axes, draws, manifest.settings.ablation.sizes);
      for (const axis of axes) {
        r.ablations.position[axis] = positionAblation(r.table, axis);
        r.ablations.strength[axis] = strengthAblation(r.table, axis);
      }
    }
  }
  return { manifest, suiteHash, ...tables };
}

interface PromptRow {
  dataset: string;
  id: string;
  baseline: SagoTest;
  /** Every variant test of the prompt, in suite order (the order of its measure rows). */
  variants: SagoTest[];
  /** Per variant, its column in V; undefined for a variant that is only a Delta reference. */
  columns: (number | undefined)[];
}

/** A waver run's results: prompts, their variants and each model's deltas. */
function ownRunResults(store: Store, suiteHash: string, manifest: SagoManifest): SagoTables {
  const suite = store.suites.get(suiteHash);
  if (!suite) throw new Error(`suite ${suiteHash} is not in ${store.path}`);
  const { rows, variations } = layout(sagoTests(suite), manifest.settings);
  const verdicts = judgeVerdicts(store, manifest);
  return {
    prompts: rows.length,
    variations,
    variants: rows.reduce((n, r) => n + r.columns.filter((c) => c !== undefined).length, 0),
    models: manifest.models.map((model) =>
      modelResults(store, suiteHash, manifest, model, rows, variations, verdicts),
    ),
  };
}

const isImperativeVsInterrogative = (s: Pick<SagoManifest['settings'], 'sentenceForm'>) =>
  s.sentenceForm === 'imperative-vs-interrogative';

/**
 * Prompts (rows) and variation keys (columns) from the suite's tests, in suite order. With
 * `sentenceForm: imperative-vs-interrogative` the interrogative rewrite is the imperative's Delta
 * reference, not a column of V (docs/fidelity.md#sago).
 */
function layout(
  tests: readonly SagoTest[],
  settings: Pick<SagoManifest['settings'], 'sentenceForm'>,
): { rows: PromptRow[]; variations: VariationKey[] } {
  const rows: PromptRow[] = [];
  const byPrompt = new Map<string, PromptRow>();
  const columns = new Map<string, number>();
  const variations: VariationKey[] = [];
  const pending: { promptKey: string; test: SagoTest; meta: SagoTestMeta }[] = [];
  for (const test of tests) {
    const { meta } = test;
    const promptKey = `${meta.dataset}::${meta.promptId}`;
    if (meta.role === 'baseline') {
      const row: PromptRow = {
        dataset: meta.dataset,
        id: meta.promptId,
        baseline: test,
        variants: [],
        columns: [],
      };
      byPrompt.set(promptKey, row);
      rows.push(row);
    } else pending.push({ promptKey, test, meta });
  }
  for (const { promptKey, test, meta } of pending) {
    const row = byPrompt.get(promptKey);
    if (!row) continue;
    row.variants.push(test);
    if (isImperativeVsInterrogative(settings) && meta.subtype === 'interrogative') {
      row.columns.push(undefined);
      continue;
    }
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
    row.columns.push(col);
  }
  return { rows, variations };
}

function judgeVerdicts(store: Store, manifest: SagoManifest): Map<string, PolitenessVerdict | undefined> {
  const out = new Map<string, PolitenessVerdict | undefined>();
  if (!manifest.judgeSuite || !manifest.judge) return out;
  for (const c of store.cells.ofRepeat(manifest.judgeSuite, manifest.judge.identity, 0))
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

function lite(c: CellText): CellLite {
  return {
    status: c.status,
    ...(c.errorKind !== undefined ? { errorKind: c.errorKind } : {}),
    ...(c.responseKey !== undefined ? { responseKey: c.responseKey } : {}),
    attempts: c.attempts,
    text: c.text ?? '',
  };
}

/** Status, response key and text of a model's cells of one repeat in one query (tokens stay unparsed). */
function liteCells(store: Store, suiteHash: string, identity: string, repeat: number): Map<string, CellLite> {
  return new Map(store.cells.ofRepeat(suiteHash, identity, repeat).map((c) => [c.testId, lite(c)]));
}

/** Coverage of the suite's expected cells from the cells already read. */
function coverageOf(total: number, cells: Iterable<CellLite>): Coverage {
  const cov: Coverage = { total, done: 0, failed: 0, pending: 0, cached: 0, errorsByKind: {} };
  for (const c of cells) {
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

/** A model's stored responses as the loader reads them: status and text, tokens left unparsed. */
class ModelResponses {
  readonly cells: Map<string, CellLite>;
  /** The second baseline sample (repeat 1 of each baseline test) of `deltaBaseline: strength-zero`. */
  readonly zeros: Map<string, CellLite>;
  #full: { first: Map<string, StoredCell>; second: Map<string, StoredCell> } | undefined;

  constructor(
    private readonly store: Store,
    private readonly suiteHash: string,
    private readonly identity: string,
    readonly withZero: boolean,
  ) {
    this.cells = liteCells(store, suiteHash, identity, 0);
    this.zeros = withZero ? liteCells(store, suiteHash, identity, 1) : new Map<string, CellLite>();
  }

  /** Full cells (with tokens), read only when a prompt's stored features are missing or stale. */
  full(): { first: Map<string, StoredCell>; second: Map<string, StoredCell> } {
    if (!this.#full) {
      const full = { first: new Map<string, StoredCell>(), second: new Map<string, StoredCell>() };
      for (const c of this.store.cells.all({ suiteHash: this.suiteHash, modelIdentity: this.identity }))
        if (c.repeat === 0) full.first.set(c.testId, c);
        else if (c.repeat === 1) full.second.set(c.testId, c);
      this.#full = full;
    }
    return this.#full;
  }
}

/** What every prompt of one model's table is computed with. */
interface ModelContext {
  store: Store;
  suiteHash: string;
  manifest: SagoManifest;
  model: SagoModelRecord;
  verdicts: Map<string, PolitenessVerdict | undefined>;
  responses: ModelResponses;
  /** The axes computed for the model, in SAGO_AXES order. */
  computed: readonly SagoAxis[];
  table: DeltaTableBuilder;
  /** Columns of the table (variation keys). */
  V: number;
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
  const withZero = settings.deltaBaseline === 'strength-zero';
  const responses = new ModelResponses(store, suiteHash, model.identity, withZero);
  const builder = new DeltaTableBuilder(computed, rows.length * variations.length);
  const ctx: ModelContext = {
    store,
    suiteHash,
    manifest,
    model,
    verdicts,
    responses,
    computed,
    table: builder,
    V: variations.length,
  };
  for (const [i, row] of rows.entries()) promptDeltas(ctx, row, i);

  const table: SagoDeltaTable = {
    prompts: rows.map((r) => ({ dataset: r.dataset, id: r.id })),
    variations,
    deltas: builder.deltas,
  };
  const expected = rows.length * (withZero ? 2 : 1) + rows.reduce((n, r) => n + r.variants.length, 0);
  const coverage = coverageOf(expected, [...responses.cells.values(), ...responses.zeros.values()]);
  const share = coverage.total === 0 ? 1 : coverage.done / coverage.total;
  return {
    model,
    coverage,
    complete: share >= manifest.minCoverage && coverage.pending === 0,
    axes,
    table,
    scores: sagoScores(table, { epsilons: settings.eps }),
    ablations: { sampleSize: {}, position: {}, strength: {} },
    missing: builder.missing,
  };
}

/** One prompt's row of the table: every variant in V against its reference, or why it has no value. */
function promptDeltas(ctx: ModelContext, row: PromptRow, i: number): void {
  const baseCell = ctx.responses.cells.get(row.baseline.id);
  if (baseCell?.status !== 'done') {
    const inV = row.columns.filter((c) => c !== undefined).length;
    for (const axis of ctx.computed)
      for (let k = 0; k < inV; k++) ctx.table.miss(axis, 'baseline response missing');
    return;
  }
  const measures = promptMeasures(ctx, row, baseCell);
  row.variants.forEach((test, v) => {
    const col = row.columns[v];
    if (col !== undefined) variantDeltas(ctx, measures, test, i * ctx.V + col, v + 1);
  });
}

/** A prompt's values, one per test in measure-row order (the baseline, its variants, then Z). */
interface PromptMeasures {
  /** Each test's response, when done. */
  done: (CellLite | undefined)[];
  /** The second baseline sample (strength-zero), when done. */
  zero: CellLite | undefined;
  /** Index Z of the second baseline sample in every column of the prompt's measure rows. */
  Z: number;
  /** Index of the interrogative rewrite among the prompt's tests (-1: none). */
  interrogative: number;
  baseVerdict: PolitenessVerdict | undefined;
  /** X per test of the axes whose Delta is X(variant) - X(reference). */
  values: Partial<Record<SagoAxis, readonly (number | null)[] | undefined>>;
  /** The noise detectors' mirroring of each variant, and of its references. */
  mirror: { variant?: (number | null)[]; baseline?: (number | null)[]; zero?: (number | null)[] };
}

/**
 * A prompt's measures: its stored measure rows when they are of these very responses (their
 * fingerprint), else computed again from the store's cells, embeddings and hidden states.
 */
function promptMeasures(ctx: ModelContext, row: PromptRow, baseCell: CellLite): PromptMeasures {
  const { store, suiteHash, model, responses, table } = ctx;
  const settings = ctx.manifest.settings;
  const embedder = ctx.manifest.embedder;
  const group: PromptGroup<SagoTest> = { baseline: row.baseline, variants: row.variants };
  const tests = groupTests(group);
  const done = tests.map((t) => {
    const c = responses.cells.get(t.id);
    return c?.status === 'done' ? c : undefined;
  });
  const zeroCell = responses.zeros.get(row.baseline.id);
  const zero = zeroCell?.status === 'done' ? zeroCell : undefined;
  const keys = done.map((c) => c?.responseKey);
  const texts = done.map((c) => c?.text);
  const prompts = tests.map((t, j) => (done[j] ? t.prompt : undefined));
  if (responses.withZero) {
    keys.push(zero?.responseKey);
    texts.push(zero?.text);
    prompts.push(zero ? row.baseline.prompt : undefined);
  }
  const fingerprint = fingerprintOf(keys);
  const fresh = (r: MeasureRow | undefined) => (r && r.fingerprint === fingerprint ? r : undefined);
  const stored = (identity: string, request: Parameters<typeof readPromptRow>[2]) =>
    fresh(readPromptRow(store, identity, request))?.columns.value;
  let features = fresh(
    readPromptRow(store, model.identity, featuresRequest(model.identity, suiteHash, group, settings)),
  );
  if (
    !features &&
    (table.has('bleu') || table.has('logprob') || table.has('entropy') || table.has('mirroring'))
  ) {
    const f = responses.full();
    features = featureRow(store, model.identity, group, f.first, settings, f.second.get(row.baseline.id));
  }
  const column = (name: string) => features?.columns[name];
  const actTexts = settings.activationInput === 'prompt' ? prompts : texts;
  const act = table.has('activation')
    ? (stored(model.identity, activationRequest(model.identity, suiteHash, group, settings)) ??
      activationCosines(store, model.identity, actTexts, settings.activationLayers))
    : undefined;
  const cos =
    table.has('cosine') && embedder
      ? (stored(embedder.identity, promptRowRequest('embedding-cosine', model.identity, suiteHash, group)) ??
        pooledCosines(store, embedder.identity, texts))
      : undefined;
  const bert =
    table.has('bertscore') && embedder
      ? (stored(embedder.identity, promptRowRequest('bertscore-f1', model.identity, suiteHash, group)) ??
        bertScores(store, embedder.identity, texts))
      : undefined;
  return {
    done,
    zero,
    Z: tests.length,
    interrogative: tests.findIndex((t) => t.meta.subtype === 'interrogative'),
    baseVerdict: ctx.verdicts.get(judgeTestId(baseCell.text)),
    values: {
      bleu: column('bleu'),
      logprob: column('logprob'),
      entropy: column('entropy'),
      activation: act,
      cosine: cos,
      bertscore: bert,
    },
    mirror: {
      variant: column('mirrorVariant'),
      baseline: column('mirrorBaseline'),
      zero: column('mirrorZero'),
    },
  };
}

/** The axes whose Delta is a difference of values, in the order their gaps are counted, each with why a value is missing. */
const VALUE_AXES: readonly [SagoAxis, string][] = [
  ['bleu', 'no BLEU'],
  ['logprob', 'no token log-probs stored'],
  ['entropy', 'no token entropy (empty response or no distribution stored)'],
  ['activation', 'no hidden state stored (empty text or not embedded)'],
  ['cosine', 'no response embedding stored (empty response or not embedded)'],
  ['bertscore', 'no token embeddings stored (empty response or not embedded)'],
];

/** One variant's cell of the table (`at`; `j`: its index in the prompt's measure rows) on every computed axis. */
function variantDeltas(ctx: ModelContext, m: PromptMeasures, test: SagoTest, at: number, j: number): void {
  const { table, computed } = ctx;
  const cell = m.done[j];
  if (!cell) {
    const c = ctx.responses.cells.get(test.id);
    for (const axis of computed)
      table.miss(axis, c ? `variant call failed (${c.errorKind ?? 'error'})` : 'variant response missing');
    return;
  }
  const reference = referenceOf(ctx.manifest.settings, test.meta, m);
  if (typeof reference === 'string') {
    for (const axis of computed) table.miss(axis, reference);
    return;
  }
  const r = reference;
  // Delta = X(variant) - X(reference); for a similarity the baseline's X is its self-similarity.
  const delta = (values: readonly (number | null)[] | undefined) => {
    const a = values?.[j];
    const b = values?.[r];
    return a === undefined || a === null || b === undefined || b === null ? undefined : a - b;
  };
  for (const [axis, why] of VALUE_AXES) if (table.has(axis)) table.put(axis, at, delta(m.values[axis]), why);
  if (table.has('mirroring')) {
    const value = mirroringDelta(ctx, m, test.meta, cell, j, r);
    if (value === undefined) table.miss('mirroring', mirroringGap(test.meta, ctx.manifest));
    else table.put('mirroring', at, value, 'no mirroring value');
  }
}

/**
 * What the variant is compared with (docs/fidelity.md#sago), as its index in the measure rows: the
 * baseline's own value (paper), the second baseline sample (strength-zero), or the interrogative
 * rewrite (sentence form); or why there is none.
 */
function referenceOf(
  settings: SagoManifest['settings'],
  meta: SagoTestMeta,
  m: PromptMeasures,
): number | string {
  if (isImperativeVsInterrogative(settings) && meta.subtype === 'imperative')
    return m.interrogative < 0 || !m.done[m.interrogative]
      ? 'no interrogative response to compare the imperative with'
      : m.interrogative;
  if (settings.deltaBaseline === 'strength-zero')
    return m.zero ? m.Z : 'second baseline sample missing (strength-zero Delta)';
  return 0;
}

/** The variant's mirroring minus its reference's: the judge's verdicts for politeness, the detectors' otherwise. */
function mirroringDelta(
  ctx: ModelContext,
  m: PromptMeasures,
  meta: SagoTestMeta,
  cell: CellLite,
  j: number,
  r: number,
): number | undefined {
  if (meta.subtype === 'politeness') {
    const strength = meta.strength ?? 0;
    const mv = mirrorsPoliteness(ctx.verdicts.get(judgeTestId(cell.text)), strength).mirrored;
    // The strength-0 row targets no register: it never mirrors.
    const mb = r === m.Z ? false : mirrorsPoliteness(m.baseVerdict, strength).mirrored;
    return mv === undefined || mb === undefined ? undefined : Number(mv) - Number(mb);
  }
  const mv = m.mirror.variant?.[j];
  const mb = r === m.Z ? m.mirror.zero?.[j] : r === 0 ? m.mirror.baseline?.[j] : undefined;
  return mv === undefined || mv === null || mb === undefined || mb === null ? undefined : mv - mb;
}

function mirroringGap(meta: SagoTestMeta, manifest: SagoManifest): string {
  if (meta.subtype === 'interrogative' || meta.subtype === 'imperative')
    return 'no detector for sentence form';
  if (meta.subtype === 'politeness')
    return manifest.judge ? 'politeness judge verdict missing or unparsable' : 'no judge for politeness';
  if (meta.subtype === 'length') return 'baseline response has no words (length ratio undefined)';
  return 'detector undecided';
}
