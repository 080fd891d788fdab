import { auxGet } from '../../../run/aux-cache.js';
import type { Coverage } from '../../../run/types.js';
import type { CellText, Store } from '../../../store/store.js';
import { type BleuMode, bleuPair } from '../../../text-measures/bleu.js';
import type { AxisStatus, SagoModelRecord } from '../axes.js';
import { AXIS_HEADING, SAGO_AXES, type SagoAxis } from '../constants.js';
import { DeltaTableBuilder } from '../delta-table.js';
import type { SagoManifest } from '../manifest.js';
import { type SagoDeltaTable, sagoScores, type VariationKey } from '../metrics.js';
import type { SagoModelResults, SagoTables } from '../result-types.js';
import { type SagoTest, type SagoTestMeta, sagoTests } from '../test-meta.js';
import type { NumericColumn } from './run-folders.js';
import { type RecordedRow, recordRequest } from './sago-runs.js';

/**
 * SAGO's numbers for a suite imported from the authors' runs (docs/sago.md#import). Every row of
 * their files is a pair — a variant and its own baseline response — with the pair's measures
 * recorded, so an axis' value X(row) is the pair's similarity (BLEU by waver from the two
 * responses, BERTScore as recorded), or the recorded difference (entropy_shift), or the recorded
 * mirroring verdict. Delta then follows the manifest's settings (docs/fidelity.md#sago):
 *
 * - `deltaBaseline: strength-zero` (the reference): X(row) - X(the style's baseline row: strength
 *   0, length 1.0, the interrogative form), which is what the `delta_*` columns hold;
 * - `self` (the paper): X(row) - X(the row's baseline response against itself): BLEU(y, y),
 *   BERTScore 1, no difference, no mirroring;
 * - `sentenceForm: imperative-vs-interrogative`: the imperative row minus the interrogative row;
 * - `zeroStrength: left-out` keeps the style baseline rows out of V, `in-set` keeps them in.
 */

/** How an axis reads a row's recorded values, and its value for a response against itself. */
interface AxisSource {
  column?: NumericColumn;
  self: number;
  method: string;
}

const SOURCES: Partial<Record<SagoAxis, AxisSource>> = {
  bleu: {
    self: Number.NaN, // BLEU(y, y) depends on y and the BLEU mode: computed per row
    method: 'BLEU of the recorded response pair, recomputed by waver',
  },
  bertscore: {
    column: 'bertscore_response',
    self: 1,
    method: "BERTScore-F1 of the pair as recorded (the authors' RoBERTa-large)",
  },
  activation: {
    column: 'activation_similarity',
    self: 1,
    method: 'activation cosine of the pair as recorded',
  },
  entropy: {
    column: 'entropy_shift',
    self: 0,
    method:
      "entropy shift of the pair as recorded (the authors' entropy: -sum p log p over the generated tokens' probabilities)",
  },
  mirroring: {
    column: 'mirroring_rate',
    self: 0,
    method:
      "mirroring verdict of the pair as recorded (the authors' rule detectors for noise, their judge for politeness)",
  },
};

const UNAVAILABLE: Partial<Record<SagoAxis, string>> = {
  logprob:
    'the runs record a mean token-probability difference (delta_log_prob), not a sequence log-prob; the paper has this axis unavailable for API models',
  cosine: 'not recorded in the runs (pooled-embedding cosine is a waver axis)',
};

/** The style baseline row of a variant: its strength is the style's baseline strength. */
function isStyleBaseline(meta: SagoTestMeta): boolean {
  if (meta.subtype === 'interrogative') return true;
  if (meta.subtype === 'imperative') return false;
  return meta.strength === (meta.subtype === 'length' ? 1 : 0);
}

interface Row {
  variant: SagoTest;
  meta: SagoTestMeta;
  record?: RecordedRow;
  text?: string;
  pairText?: string;
}

export function importedResults(store: Store, suiteHash: string, manifest: SagoManifest): SagoTables {
  const suite = store.suites.get(suiteHash);
  if (!suite) throw new Error(`suite ${suiteHash} is not in ${store.path}`);
  const s = manifest.settings;
  const pairOf = new Map<string, SagoTest>();
  const variants: SagoTest[] = [];
  for (const t of sagoTests(suite)) {
    const { meta } = t;
    if (meta.role === 'pair-baseline' && meta.pairOf) pairOf.set(meta.pairOf, t);
    else if (meta.role === 'variant') variants.push(t);
  }
  const inV = (meta: SagoTestMeta) => {
    if (meta.subtype === 'interrogative') return s.sentenceForm === 'against-prompt';
    return !isStyleBaseline(meta) || s.zeroStrength === 'in-set';
  };
  // Prompts in order of first appearance, columns in order of first appearance.
  const prompts: { dataset: string; id: string }[] = [];
  const promptIndex = new Map<string, number>();
  const variations: VariationKey[] = [];
  const columnIndex = new Map<string, number>();
  for (const { meta } of variants) {
    const pk = `${meta.dataset}::${meta.promptId}`;
    if (!promptIndex.has(pk)) {
      promptIndex.set(pk, prompts.length);
      prompts.push({ dataset: meta.dataset, id: meta.promptId });
    }
    const key = `${meta.family}/${meta.subtype}/${meta.strength}/${meta.position}`;
    if (inV(meta) && !columnIndex.has(key)) {
      columnIndex.set(key, variations.length);
      variations.push({
        key,
        family: String(meta.family),
        subtype: String(meta.subtype),
        strength: meta.strength as number,
        position: String(meta.position),
      });
    }
  }
  const models = manifest.models.map((model) =>
    modelResults(store, suiteHash, manifest, model, {
      variants,
      pairOf,
      prompts,
      promptIndex,
      variations,
      columnIndex,
    }),
  );
  return {
    prompts: prompts.length,
    variations,
    variants: variants.filter((t) => inV(t.meta)).length,
    models,
  };
}

interface Layout {
  variants: SagoTest[];
  pairOf: Map<string, SagoTest>;
  prompts: { dataset: string; id: string }[];
  promptIndex: Map<string, number>;
  variations: VariationKey[];
  columnIndex: Map<string, number>;
}

function modelResults(
  store: Store,
  suiteHash: string,
  manifest: SagoManifest,
  model: SagoModelRecord,
  layout: Layout,
): SagoModelResults {
  const s = manifest.settings;
  const cells = new Map(store.cells.ofRepeat(suiteHash, model.identity, 0).map((c) => [c.testId, c]));
  const rows = recordedRows(store, suiteHash, model, layout, cells);
  const axes = importedAxes(rows, s.bleuMode);
  const computed = SAGO_AXES.filter((a) => axes[a].available && (!s.axes || s.axes.includes(a)));
  const builder = new DeltaTableBuilder(computed, layout.prompts.length * layout.variations.length);
  const baseRow = styleBaselines(rows);
  for (const r of rows) rowDeltas(builder, computed, r, layout, baseRow, s);
  const table: SagoDeltaTable = {
    prompts: layout.prompts,
    variations: layout.variations,
    deltas: builder.deltas,
  };
  // Two cells per row: the variant's response and its baseline's.
  const coverage: Coverage = {
    total: layout.variants.length * 2,
    done: 0,
    failed: 0,
    pending: 0,
    cached: 0,
    errorsByKind: {},
  };
  for (const c of cells.values()) if (c.status === 'done') coverage.done++;
  coverage.pending = coverage.total - coverage.done;
  return {
    model,
    coverage,
    complete: coverage.pending === 0,
    axes,
    table,
    scores: sagoScores(table, { epsilons: s.eps }),
    ablations: { sampleSize: {}, position: {}, strength: {} },
    missing: builder.missing,
  };
}

/** Each variant with its recorded measures and the two responses of its pair. */
function recordedRows(
  store: Store,
  suiteHash: string,
  model: SagoModelRecord,
  layout: Layout,
  cells: ReadonlyMap<string, CellText>,
): Row[] {
  return layout.variants.map((variant) => {
    const pair = layout.pairOf.get(variant.id);
    const c = cells.get(variant.id);
    const p = pair ? cells.get(pair.id) : undefined;
    const record = auxGet<RecordedRow>(
      store,
      'measure',
      model.identity,
      recordRequest(model.identity, suiteHash, variant.id),
    );
    return {
      variant,
      meta: variant.meta,
      ...(record && { record }),
      ...(c?.status === 'done' && { text: c.text ?? '' }),
      ...(p?.status === 'done' && { pairText: p.text ?? '' }),
    };
  });
}

/** An axis is available when the runs record it on some row (BLEU always: waver computes it). */
function importedAxes(rows: readonly Row[], bleuMode: BleuMode): Record<SagoAxis, AxisStatus> {
  const recorded = (axis: SagoAxis) => {
    const column = SOURCES[axis]?.column;
    return column !== undefined && rows.some((r) => typeof r.record?.values[column] === 'number');
  };
  const axes = {} as Record<SagoAxis, AxisStatus>;
  for (const axis of SAGO_AXES) {
    const source = SOURCES[axis];
    const available = axis === 'bleu' || (source !== undefined && recorded(axis));
    axes[axis] = {
      axis,
      heading: AXIS_HEADING[axis],
      available,
      ...(available
        ? { method: axis === 'bleu' ? `${source?.method} (${bleuMode})` : source?.method }
        : { reason: UNAVAILABLE[axis] ?? 'not recorded in the imported runs' }),
    };
  }
  return axes;
}

/** X(row) of an axis: BLEU of the pair by waver, else the recorded column. */
function rowValue(axis: SagoAxis, r: Row, bleuMode: BleuMode): number | undefined {
  if (axis === 'bleu')
    return r.text === undefined || r.pairText === undefined
      ? undefined
      : bleuPair(r.text, r.pairText, bleuMode).score;
  const column = SOURCES[axis]?.column;
  const v = column === undefined ? undefined : r.record?.values[column];
  return typeof v === 'number' ? v : undefined;
}

/** X of the row's baseline response against itself. */
function rowSelfValue(axis: SagoAxis, r: Row, bleuMode: BleuMode): number | undefined {
  if (axis === 'bleu')
    return r.pairText === undefined ? undefined : bleuPair(r.pairText, r.pairText, bleuMode).score;
  return SOURCES[axis]?.self;
}

/** The style a row varies: sentence form (interrogative and imperative together), or its subtype. */
function styleOf(m: SagoTestMeta): string {
  return m.subtype === 'interrogative' || m.subtype === 'imperative' ? 'form' : String(m.subtype);
}

function styleKey(m: SagoTestMeta): string {
  return `${m.dataset}::${m.promptId}::${styleOf(m)}::${m.position}`;
}

/** The style baseline row of each (prompt, style, place): the Delta reference. */
function styleBaselines(rows: readonly Row[]): Map<string, Row> {
  const baseRow = new Map<string, Row>();
  for (const r of rows) if (isStyleBaseline(r.meta)) baseRow.set(styleKey(r.meta), r);
  return baseRow;
}

/** One row's cell of the table on every computed axis: X(row) minus its reference, or why not. */
function rowDeltas(
  builder: DeltaTableBuilder,
  computed: readonly SagoAxis[],
  r: Row,
  layout: Layout,
  baseRow: ReadonlyMap<string, Row>,
  s: SagoManifest['settings'],
): void {
  const key = `${r.meta.family}/${r.meta.subtype}/${r.meta.strength}/${r.meta.position}`;
  const col = layout.columnIndex.get(key);
  if (col === undefined) return;
  const i = layout.promptIndex.get(`${r.meta.dataset}::${r.meta.promptId}`) as number;
  const versusRow =
    (s.sentenceForm === 'imperative-vs-interrogative' && r.meta.subtype === 'imperative') ||
    s.deltaBaseline === 'strength-zero';
  const ref = versusRow ? baseRow.get(styleKey(r.meta)) : undefined;
  for (const axis of computed) {
    // The authors' aggregation leaves mirroring out for sentence form and length.
    if (axis === 'mirroring' && (styleOf(r.meta) === 'form' || r.meta.subtype === 'length')) {
      builder.miss(
        axis,
        `no mirroring for ${styleOf(r.meta) === 'form' ? 'sentence form' : 'length'} in the authors' runs`,
      );
      continue;
    }
    const x = rowValue(axis, r, s.bleuMode);
    if (x === undefined) {
      builder.miss(axis, r.text === undefined ? 'response not imported' : 'not recorded for this row');
      continue;
    }
    let b: number | undefined;
    if (versusRow) {
      if (!ref) {
        builder.miss(axis, "the style's baseline row is missing");
        continue;
      }
      b = rowValue(axis, ref, s.bleuMode);
    } else b = rowSelfValue(axis, r, s.bleuMode);
    if (b === undefined) {
      builder.miss(axis, 'no reference value');
      continue;
    }
    builder.set(axis, i * layout.variations.length + col, x - b);
  }
}
