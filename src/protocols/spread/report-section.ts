import { intervalDots } from '../../report/html/chart-kit.js';
import type { HtmlKit } from '../../report/html/section.js';
import { cellBase, demoteHeadings } from '../../report/html/section-kit.js';
import type { EvalSummary, SectionModule, TranscriptCell } from '../../report/report-data.js';
import type { Store } from '../../store/store.js';
import { spreadVerdicts } from './check.js';
import { SPREAD_ESTIMATORS, type SpreadEstimator } from './estimators/names.js';
import { loadSpreadResults, type ScoredSpreadCell, type SpreadResults } from './results.js';
import { SpreadTestMetaSchema } from './suite.js';
import { CELLS_SUITE } from './suite-names.js';
import { spreadJson, spreadMarkdown } from './tables.js';

/**
 * The spread section (docs/spread.md#report): per model the distribution of accuracy over
 * templates (quantiles with intervals), the best and worst template quoted, the spread, the calls
 * spent, and the comparison of models paired by template; every cell in the transcript browser.
 */
export const spreadSection: SectionModule<SpreadResults> = {
  sectioned: true,
  claims: (suite) => suite.name === CELLS_SUITE,
  load(store, suiteHash, ctx) {
    const config = ctx.runConfig(suiteHash) ?? {};
    // The estimator the run was made with, so the report shows the figures the run printed.
    const estimator = (config.spread as { estimator?: unknown } | undefined)?.estimator;
    return loadSpreadResults(store, suiteHash, {
      ...(typeof config.seed === 'number' && { seed: config.seed }),
      ...(SPREAD_ESTIMATORS.includes(estimator as SpreadEstimator) && {
        estimator: estimator as SpreadEstimator,
      }),
    });
  },
  cells: (store, suiteHash, results) => spreadCells(store, suiteHash, results),
  summary: spreadSummary,
  inModelOrder: (results, order) => ({ ...results, models: order.sort(results.models, (m) => m) }),
  html: (results, kit) => spreadHtml(results, kit),
  markdown: (results) => demoteHeadings(spreadMarkdown(results), 3),
  json: (results) => spreadJson(results),
  verdicts: (results) => spreadVerdicts(results),
};

/** The index's line: each model's median template accuracy and its spread, with intervals. */
function spreadSummary(r: SpreadResults): EvalSummary {
  return {
    datasets: [
      {
        name: r.suite.dataset,
        ...(r.suite.datasetSource?.licence !== undefined && { licence: r.suite.datasetSource.licence }),
      },
    ],
    models: r.models.map((m) => {
      const e = m.estimate;
      const median = e?.quantiles.find((q) => q.q === 0.5);
      const over = `${r.suite.templates} templates`;
      const none = { unavailable: 'no cell was answered' };
      return {
        label: m.label,
        figures: [
          {
            name: 'median template',
            over,
            ...(median ? { value: median.value, low: median.lo, high: median.hi } : none),
          },
          {
            name: 'spread',
            over,
            ...(e ? { value: e.spread.value, low: e.spread.lo, high: e.spread.hi } : none),
          },
        ],
      };
    }),
    interval: '95% item bootstrap',
  };
}

function spreadHtml(r: SpreadResults, kit: HtmlKit): string {
  const s = r.suite;
  return [
    quantileChart(r, kit),
    `<p class="lede">Dataset <code>${kit.esc(s.dataset)}</code>: ${s.templates} templates × ${s.items} items; ${s.planned} cells asked of each model; suite <code>${kit.esc(s.hash.slice(0, 12))}</code>. 95% percentile bootstrap intervals over items.</p>`,
    '<details open class="tables"><summary>Distribution over templates, best and worst templates, paired comparison</summary>',
    kit.md(demoteHeadings(spreadMarkdown(r), 3)),
    '</details>',
  ].join('\n');
}

/** Each model's quantiles over templates, with their intervals: the distribution at a glance. */
function quantileChart(r: SpreadResults, kit: HtmlKit): string {
  const models = r.models.filter((m) => m.estimate);
  if (models.length === 0) return '';
  const names = ['5th', '25th', 'median', '75th', '95th'];
  const colorOf = (label: string) =>
    kit.modelColors.range[kit.modelColors.domain.indexOf(label)] ?? '#6b7280';
  return kit.chart(
    intervalDots({
      values: models.flatMap((m) =>
        (m.estimate?.quantiles ?? []).map((q, k) => ({
          model: m.label,
          quantile: names[k] ?? String(q.q),
          value: q.value,
          low: q.lo,
          high: q.hi,
        })),
      ),
      category: { field: 'quantile', title: 'quantile over templates', sort: names },
      series: {
        field: 'model',
        title: 'model',
        domain: models.map((m) => m.label),
        range: models.map((m) => colorOf(m.label)),
      },
      value: { field: 'value', low: 'low', high: 'high', title: 'accuracy' },
    }),
    {
      title: 'Accuracy over templates',
      caption: `The 5th, 25th, 50th, 75th and 95th percentile of the per-template accuracy over ${r.suite.templates} templates (estimator: ${models[0]?.estimate?.method}). Bars: 95% percentile bootstrap over items.`,
    },
  );
}

function* spreadCells(
  store: Store,
  suiteHash: string,
  results: SpreadResults | undefined,
): Generator<TranscriptCell> {
  const suite = store.suites.get(suiteHash);
  if (!suite) return;
  const tests = new Map(suite.tests.map((t) => [t.id, t]));
  const scored = new Map<string, ScoredSpreadCell>();
  for (const m of results?.models ?? [])
    for (const c of m.cells) scored.set(`${m.identity}\u0000${c.testId}`, c);
  for (const cell of store.cells.light(suiteHash)) {
    const test = tests.get(cell.testId);
    const base = cellBase('spread', suiteHash, cell, test);
    const meta = SpreadTestMetaSchema.safeParse(test?.meta).data;
    if (!meta) {
      yield base;
      continue;
    }
    const s = scored.get(`${cell.modelIdentity}\u0000${cell.testId}`);
    yield {
      ...base,
      item: meta.item.id,
      family: meta.template.id,
      gold: meta.labels[meta.key] ?? String(meta.key),
      ...(s?.choice !== undefined && { parsed: meta.labels[s.choice] ?? String(s.choice) }),
      ...(s &&
        s.status === 'done' && { score: s.correct ? 1 : 0, correct: s.correct, reason: `read via ${s.via}` }),
    };
  }
}
