import type { Coverage } from '../../run/types.js';
import type { CellText, Store, StoredCell } from '../../store/store.js';
import { sha256 } from '../../util/hash.js';
import { axisStatuses, type SagoModelRecord } from './axes.js';
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
  SAGO_AXES,
  type SagoAxis,
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
export { JUDGE_SUITE, RESPONSES_SUITE } from './suites.js';

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

/** Everything SAGO computed for a responses suite, from the store. */
export function loadSagoResults(store: Store, suiteHash: string, opts: LoadSagoOptions = {}): SagoResults {
  const stored = opts.manifest ?? latestManifest(store, suiteHash);
  if (!stored) throw new Error(`no sago manifest for suite ${suiteHash} in ${store.path}`);
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
  const cells = liteCells(store, suiteHash, model.identity, 0);
  // The second baseline sample (repeat 1 of each baseline test) of `deltaBaseline: strength-zero`.
  const withZero = settings.deltaBaseline === 'strength-zero';
  const zeros = withZero ? liteCells(store, suiteHash, model.identity, 1) : new Map<string, CellLite>();
  // Full cells (with tokens) only when a prompt's stored features are missing or stale.
  let full: { first: Map<string, StoredCell>; second: Map<string, StoredCell> } | undefined;
  const fullCells = () => {
    if (!full) {
      full = { first: new Map(), second: new Map() };
      for (const c of store.cells.all({ suiteHash, modelIdentity: model.identity }))
        if (c.repeat === 0) full.first.set(c.testId, c);
        else if (c.repeat === 1) full.second.set(c.testId, c);
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
    const inV = row.columns.filter((c) => c !== undefined).length;
    if (baseCell?.status !== 'done') {
      for (const axis of computed) for (let k = 0; k < inV; k++) miss(axis, 'baseline response missing');
      return;
    }
    const group: PromptGroup<SagoTest> = { baseline: row.baseline, variants: row.variants };
    const tests = groupTests(group);
    const done = tests.map((t) => {
      const c = cells.get(t.id);
      return c?.status === 'done' ? c : undefined;
    });
    const zeroCell = zeros.get(row.baseline.id);
    const zero = zeroCell?.status === 'done' ? zeroCell : undefined;
    // Index Z of the second baseline sample in every column of the prompt's measure rows.
    const Z = tests.length;
    const keys = done.map((c) => c?.responseKey);
    const texts = done.map((c) => c?.text);
    const prompts = tests.map((t, j) => (done[j] ? t.prompt : undefined));
    if (withZero) {
      keys.push(zero?.responseKey);
      texts.push(zero?.text);
      prompts.push(zero ? row.baseline.prompt : undefined);
    }
    const fingerprint = fingerprintOf(keys);
    const fresh = (r: MeasureRow | undefined) => (r && r.fingerprint === fingerprint ? r : undefined);
    let features = fresh(
      readPromptRow(store, model.identity, featuresRequest(model.identity, suiteHash, group, settings)),
    );
    if (!features && (has('bleu') || has('logprob') || has('entropy') || has('mirroring'))) {
      const f = fullCells();
      features = featureRow(store, model.identity, group, f.first, settings, f.second.get(row.baseline.id));
    }
    const column = (r: MeasureRow | undefined, name: string) => r?.columns[name];
    const actTexts = settings.activationInput === 'prompt' ? prompts : texts;
    const act = has('activation')
      ? (fresh(
          readPromptRow(store, model.identity, activationRequest(model.identity, suiteHash, group, settings)),
        )?.columns.value ?? activationCosines(store, model.identity, actTexts, settings.activationLayers))
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
    const mirrorZero = column(features, 'mirrorZero');
    const interrogative = tests.findIndex((t) => t.meta.subtype === 'interrogative');

    row.variants.forEach((test, v) => {
      const j = v + 1;
      const col = row.columns[v];
      if (col === undefined) return;
      const at = i * V + col;
      const cell = done[j];
      if (!cell) {
        const c = cells.get(test.id);
        for (const axis of computed)
          miss(axis, c ? `variant call failed (${c.errorKind ?? 'error'})` : 'variant response missing');
        return;
      }
      const { meta } = test;
      // What the variant is compared with (docs/fidelity.md#sago): the baseline's own value (paper),
      // the second baseline sample (strength-zero), or the interrogative rewrite (sentence form).
      let r = 0;
      let noReference: string | undefined;
      if (isImperativeVsInterrogative(settings) && meta.subtype === 'imperative') {
        r = interrogative;
        if (r < 0 || !done[r]) noReference = 'no interrogative response to compare the imperative with';
      } else if (withZero) {
        r = Z;
        if (!zero) noReference = 'second baseline sample missing (strength-zero Delta)';
      }
      if (noReference !== undefined) {
        for (const axis of computed) miss(axis, noReference);
        return;
      }
      const put = (axis: SagoAxis, value: number | undefined, why: string) => {
        const arr = deltas[axis];
        if (!arr) return;
        if (value === undefined || !Number.isFinite(value)) miss(axis, why);
        else arr[at] = value;
      };
      // Delta = X(variant) - X(reference); for a similarity the baseline's X is its self-similarity.
      const delta = (values: readonly (number | null)[] | undefined) => {
        const a = values?.[j];
        const b = values?.[r];
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
        let value: number | undefined;
        if (meta.subtype === 'politeness') {
          const strength = meta.strength ?? 0;
          const mv = mirrorsPoliteness(verdicts.get(judgeTestId(cell.text)), strength).mirrored;
          // The strength-0 row targets no register: it never mirrors.
          const mb = r === Z ? false : mirrorsPoliteness(baseVerdict, strength).mirrored;
          value = mv === undefined || mb === undefined ? undefined : Number(mv) - Number(mb);
        } else {
          const mv = mirrorVariant?.[j];
          const mb = r === Z ? mirrorZero?.[j] : r === 0 ? mirrorBaseline?.[j] : undefined;
          value = mv === undefined || mv === null || mb === undefined || mb === null ? undefined : mv - mb;
        }
        if (value === undefined) miss('mirroring', mirroringGap(meta, manifest));
        else put('mirroring', value, 'no mirroring value');
      }
    });
  });

  const table: SagoDeltaTable = {
    prompts: rows.map((r) => ({ dataset: r.dataset, id: r.id })),
    variations,
    deltas,
  };
  const expected = rows.length * (withZero ? 2 : 1) + rows.reduce((n, r) => n + r.variants.length, 0);
  const coverage = coverageOf(expected, [...cells.values(), ...zeros.values()]);
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
