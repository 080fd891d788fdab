import { heatmap, intervalDots, type Row } from '../../report/html/chart-kit.js';
import type { HtmlKit } from '../../report/html/section.js';
import { cellBase, demoteHeadings } from '../../report/html/section-kit.js';
import type { EvalSummary, HeadlineFigure, SectionModule, TranscriptCell } from '../../report/report-data.js';
import type { Store } from '../../store/store.js';
import { paraphraseVerdicts } from './check.js';
import { ImportedTestMetaSchema } from './import/recorded.js';
import type { Estimate } from './metrics.js';
import { type LoadParaphraseOptions, loadParaphraseResults, type ParaphraseResults } from './results.js';
import type { ScoredCell } from './scored-cell.js';
import { ParaphraseTestMetaSchema } from './suite.js';
import { ITEMS_SUITE } from './suite-names.js';
import { formatParaphraseReport, paraphraseInOrder } from './tables.js';
import { paraphraseVarianceJson, paraphraseVarianceMarkdown } from './variance.js';

/**
 * The paraphrase section: the SAA vs raw-accuracy leaderboard with CIs, accuracy per phrasing,
 * run vs prompt instability, the flip matrix (item x phrasing) per model, and the tables of
 * paraphrase-tables.ts.
 */

/** Items shown in a flip matrix before it keeps only the items with a wrong answer. */
const MATRIX_ITEMS = 300;

export const paraphraseSection: SectionModule<ParaphraseResults> = {
  sectioned: true,
  claims: (suite) => suite.name === ITEMS_SUITE,

  load(store, suiteHash, ctx) {
    const config = ctx.runConfig(suiteHash) ?? {};
    const section = (config.paraphrase ?? {}) as { resamples?: unknown };
    const opts: LoadParaphraseOptions = {
      ...(typeof config.seed === 'number' && { seed: config.seed }),
      ...(typeof section.resamples === 'number' && { resamples: section.resamples }),
      ...(typeof config.minCoverage === 'number' && { minCoverage: config.minCoverage }),
    };
    return loadParaphraseResults(store, suiteHash, opts);
  },

  cells(store, suiteHash, results) {
    return paraphraseCells(store, suiteHash, results);
  },

  summary(results) {
    return paraphraseSummary(results);
  },

  inModelOrder(results, order) {
    return paraphraseInOrder(results, order);
  },

  html(results, kit) {
    return paraphraseHtml(results, kit);
  },

  markdown(results) {
    return demoteHeadings(sectionMarkdown(results), 3);
  },

  json(results) {
    return {
      ...JSON.parse(formatParaphraseReport(results, 'json', { comparison: false })),
      variance: paraphraseVarianceJson(results),
    };
  },

  verdicts(results) {
    return paraphraseVerdicts(results);
  },
};

/** The index's line (docs/report.md#index): each model's SAA with its item-bootstrap CI. */
function paraphraseSummary(r: ParaphraseResults): EvalSummary {
  const src = r.suite.datasetSource;
  const figure = (e: Estimate): HeadlineFigure => ({
    name: 'SAA',
    ...(e.value !== undefined && { value: e.value }),
    ...(e.low !== undefined && { low: e.low }),
    ...(e.high !== undefined && { high: e.high }),
    over: e.over,
    ...(e.value === undefined && { unavailable: e.unavailable ?? 'unavailable' }),
  });
  return {
    datasets: [
      src
        ? {
            name: r.suite.dataset,
            ...(src.licence !== undefined && { licence: src.licence }),
            ...(src.licenceNote !== undefined && { licenceNote: src.licenceNote }),
          }
        : { name: r.suite.dataset, ...(r.suite.dataset === 'builtin' && { licence: 'MIT' }) },
    ],
    models: r.models.map((m) => ({ label: m.label, figures: [figure(m.metrics.saa)] })),
    interval: `${Math.round(100 * r.settings.confidence)}% item bootstrap`,
  };
}

function* paraphraseCells(
  store: Store,
  suiteHash: string,
  results: ParaphraseResults | undefined,
): Generator<TranscriptCell> {
  const suite = store.suites.get(suiteHash);
  if (!suite) return;
  const tests = new Map(suite.tests.map((t) => [t.id, t]));
  // A test whose meta is not paraphrase's is listed without its item, not an error: the report shows every cell.
  const metaOf = new Map(suite.tests.map((t) => [t.id, cellMeta(t.meta)]));
  // The item as first asked (canonical when it was asked) is the "original" every phrasing is diffed against.
  const originals = new Map<string, string>();
  for (const t of suite.tests) {
    const meta = metaOf.get(t.id);
    if (!meta) continue;
    if (meta.phrasing === 'canonical' || !originals.has(meta.item)) originals.set(meta.item, t.prompt);
  }
  const scored = new Map<string, ScoredCell>();
  const flips = new Set<string>();
  for (const m of results?.models ?? []) {
    for (const c of m.cells)
      scored.set(`${m.identity}\u0000${c.item}\u0000${c.phrasing}\u0000${c.repeat}`, c);
    for (const f of m.metrics.flips)
      flips.add(`${m.identity}\u0000${f.item}\u0000${f.phrasing}\u0000${f.repeat}`);
  }
  for (const cell of store.cells.light(suiteHash)) {
    const test = tests.get(cell.testId);
    if (test && cell.repeat >= (test.repeats ?? 1)) continue;
    const base = cellBase('paraphrase', suiteHash, cell, test);
    const meta = metaOf.get(cell.testId);
    if (!meta) {
      yield base;
      continue;
    }
    const key = `${cell.modelIdentity}\u0000${meta.item}\u0000${meta.phrasing}\u0000${cell.repeat}`;
    const s = scored.get(key);
    const parsed =
      s?.given !== undefined
        ? s.answer !== undefined && s.answer !== s.given
          ? `${s.given} (item's ${s.answer})`
          : s.given
        : undefined;
    const reason = s
      ? s.via === 'unparsed'
        ? `unparsed: ${s.reason ?? ''}`
        : s.via === 'error'
          ? undefined
          : `parsed via ${s.via}`
      : undefined;
    yield {
      ...base,
      item: meta.item,
      family: meta.phrasing,
      variant: meta.category,
      original: originals.get(meta.item) ?? test?.prompt ?? '',
      gold: meta.key === meta.itemKey ? meta.key : `${meta.key} (item's ${meta.itemKey})`,
      ...(parsed !== undefined && { parsed }),
      ...(s && s.status === 'done' && { score: s.correct ? 1 : 0, correct: s.correct }),
      ...(s && { flipped: flips.has(key) }),
      ...(reason !== undefined && { reason }),
    };
  }
}

/** What a transcript shows of a test: paraphrase's own, or an imported run's (its variant as the phrasing). */
function cellMeta(
  meta: unknown,
): { item: string; phrasing: string; category: string; key: string; itemKey: string } | undefined {
  const own = ParaphraseTestMetaSchema.safeParse(meta).data;
  if (own) return own;
  const imported = ImportedTestMetaSchema.safeParse(meta).data;
  return imported && { ...imported, phrasing: imported.variant, itemKey: imported.key };
}

function row(model: string, series: string, e: Estimate): Row {
  return { model, series, value: e.value ?? null, low: e.low ?? null, high: e.high ?? null, n: e.n };
}

type ModelResult = ParaphraseResults['models'][number];

/** The section's tables, then where each model's variance comes from. */
function sectionMarkdown(r: ParaphraseResults): string {
  return `${formatParaphraseReport(r, 'md', { comparison: false })}\n${paraphraseVarianceMarkdown(r)}`;
}

function paraphraseHtml(r: ParaphraseResults, kit: HtmlKit): string {
  const s = r.suite;
  // The eval's order (docs/report.md#model-order), in every chart as in the tables.
  const order = r.models;
  const ci = `${Math.round(100 * r.settings.confidence)}% percentile bootstrap CI over items (${r.settings.resamples} resamples)`;
  const charts = [
    leaderboardChart(r, order, ci, kit),
    perPhrasingChart(r, order, ci, kit),
    instabilityChart(r, order, ci, kit),
  ];
  return [
    `<p class="lede">Dataset <code>${kit.esc(s.dataset)}</code>: ${s.items} items × ${s.phrasings.length} phrasings (${kit.esc(
      s.phrasings.join(', '),
    )}) × ${s.repeats} repeats; suite <code>${kit.esc(s.hash.slice(0, 12))}</code>. ${kit.esc(ci)}.</p>`,
    `<div class="charts">${charts.join('')}</div>`,
    '<h3>Flip matrices (item × phrasing)</h3>',
    `<div class="charts">${order.map((m) => flipMatrix(r, m, kit)).join('')}</div>`,
    '<details open class="tables"><summary>Leaderboard, accuracy and parse rate per phrasing, instability, flips, failed cells</summary>',
    kit.md(demoteHeadings(sectionMarkdown(r), 3)),
    '</details>',
  ].join('\n');
}

/** A model's name on the charts that rank: incomplete models are marked, not ranked. */
function rankedName(r: ParaphraseResults, m: ModelResult): string {
  return r.leaderboard.incomplete.includes(m.identity) ? `${m.label} (incomplete)` : m.label;
}

/** One horizontal chart of two of each model's metrics, in the eval's order. */
function twoMetricChart(
  r: ParaphraseResults,
  order: readonly ModelResult[],
  kit: HtmlKit,
  chart: {
    metrics: readonly [string, (m: ModelResult) => Estimate][];
    colors: readonly [string, string];
    valueTitle: string;
    seriesTitle: string;
    title: string;
    caption: string;
  },
): string {
  return kit.chart(
    intervalDots({
      values: order.flatMap((m) => chart.metrics.map(([name, of]) => row(rankedName(r, m), name, of(m)))),
      category: { field: 'model', title: null, sort: order.map((m) => rankedName(r, m)) },
      series: {
        field: 'series',
        title: chart.seriesTitle,
        domain: chart.metrics.map(([name]) => name),
        range: [...chart.colors],
      },
      value: { field: 'value', low: 'low', high: 'high', title: chart.valueTitle },
      horizontal: true,
    }),
    { title: chart.title, caption: chart.caption },
  );
}

function leaderboardChart(
  r: ParaphraseResults,
  order: readonly ModelResult[],
  ci: string,
  kit: HtmlKit,
): string {
  const s = r.suite;
  return twoMetricChart(r, order, kit, {
    metrics: [
      ['SAA', (m) => m.metrics.saa],
      ['raw accuracy', (m) => m.metrics.rawAccuracy],
    ],
    colors: ['#4e79a7', '#bab0ac'],
    seriesTitle: 'metric',
    valueTitle: 'share',
    title: 'Leaderboard: Stability-Adjusted Accuracy vs raw accuracy',
    caption: `SAA: items answered correctly in every phrasing × repeat, over items whose cells all finished; raw accuracy: correct cells over all ${s.items * s.phrasings.length * s.repeats} expected cells per model. Bars: ${ci}. Models in the eval's order, as every table; incomplete models (coverage below ${Math.round(100 * r.settings.minCoverage)}%) are marked.`,
  });
}

function perPhrasingChart(
  r: ParaphraseResults,
  order: readonly ModelResult[],
  ci: string,
  kit: HtmlKit,
): string {
  const s = r.suite;
  const modelColors = { domain: order.map((m) => m.label), range: order.map((m) => rangeOf(kit, m.label)) };
  return kit.chart(
    intervalDots({
      values: order.flatMap((m) =>
        m.metrics.perPhrasing.map((p) => ({ ...row(m.label, m.label, p.accuracy), phrasing: p.phrasing })),
      ),
      category: { field: 'phrasing', title: 'phrasing', sort: s.phrasings },
      series: { field: 'model', title: 'model', ...modelColors },
      value: { field: 'value', low: 'low', high: 'high', title: 'accuracy' },
    }),
    {
      title: 'Accuracy per phrasing',
      caption: `Each point over ${s.items * s.repeats} cells (${s.items} items × ${s.repeats} repeats) of one phrasing; a failed or unparsed cell counts as wrong. Bars: ${ci}.`,
    },
  );
}

function instabilityChart(
  r: ParaphraseResults,
  order: readonly ModelResult[],
  ci: string,
  kit: HtmlKit,
): string {
  const s = r.suite;
  return twoMetricChart(r, order, kit, {
    metrics: [
      ['run instability', (m) => m.metrics.runInstability],
      ['prompt instability', (m) => m.metrics.promptInstability],
    ],
    colors: ['#59a14f', '#e15759'],
    seriesTitle: 'instability',
    valueTitle: 'share that disagrees',
    title: 'Run vs prompt instability',
    caption: `Run instability: share of (item, phrasing) pairs whose ${s.repeats} repeats gave different answers (same prompt asked again). Prompt instability: share of (item, repeat) pairs whose answers differ across the ${s.phrasings.length} phrasings. Over the pairs whose cells all finished (the tables give n). Bars: ${ci}.`,
  });
}

/** Repeats answered correctly, done and failed, of one (item, phrasing). */
interface MatrixCell {
  correct: number;
  done: number;
  failed: number;
}

/** A model's item x phrasing matrix of the share of repeats answered correctly. */
function flipMatrix(r: ParaphraseResults, m: ModelResult, kit: HtmlKit): string {
  const s = r.suite;
  const cells = new Map<string, MatrixCell>();
  for (const c of m.cells) {
    const k = `${c.item}\u0000${c.phrasing}`;
    const e = cells.get(k) ?? { correct: 0, done: 0, failed: 0 };
    if (c.status === 'failed') e.failed++;
    else {
      e.done++;
      if (c.correct) e.correct++;
    }
    cells.set(k, e);
  }
  const { items, note } = matrixItems(s, cells);
  const values: Row[] = [];
  for (const it of items)
    for (const p of s.phrasings) {
      const e = cells.get(`${it}\u0000${p}`);
      const share = e && e.done + e.failed > 0 ? e.correct / (e.done + e.failed) : null;
      values.push({
        item: it,
        phrasing: p,
        share,
        label: e ? `${e.correct}/${e.done + e.failed}${e.failed ? '!' : ''}` : '–',
      });
    }
  return kit.chart(
    heatmap({
      values,
      x: { field: 'phrasing', title: 'phrasing', sort: s.phrasings },
      y: { field: 'item', title: 'item', sort: items },
      value: { field: 'share', title: 'correct share', domain: [0, 1], scheme: 'redyellowgreen' },
      ...(items.length <= 60 && { text: 'label' }),
      cell: { width: 64, height: items.length <= 60 ? 16 : 6 },
    }),
    {
      title: `Flip matrix: ${m.label}`,
      caption: `Cell: repeats answered correctly out of ${s.repeats} for that item and phrasing ("!" = a failed call, counted wrong; grey = not asked or pending). A row that mixes green and red is an item the model gets right in one phrasing and wrong in another.${note}`,
    },
  );
}

/** The matrix's rows: every item, or past MATRIX_ITEMS only those with a wrong, failed or missing cell. */
function matrixItems(
  s: ParaphraseResults['suite'],
  cells: ReadonlyMap<string, MatrixCell>,
): { items: string[]; note: string } {
  if (s.itemIds.length <= MATRIX_ITEMS) return { items: s.itemIds, note: '' };
  const items = s.itemIds.filter((it) =>
    s.phrasings.some((p) => {
      const e = cells.get(`${it}\u0000${p}`);
      return !e || e.correct < e.done || e.failed > 0;
    }),
  );
  return {
    items: items.slice(0, MATRIX_ITEMS),
    note: ` Only the ${items.length} items with a wrong, failed or missing cell are drawn (of ${s.items}).`,
  };
}

function rangeOf(kit: HtmlKit, label: string): string {
  const i = kit.modelColors.domain.indexOf(label);
  return kit.modelColors.range[i] ?? '#6b7280';
}
