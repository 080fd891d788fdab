import { bandLines, heatmap, type Row } from '../../report/html/chart-kit.js';
import type { HtmlKit } from '../../report/html/section.js';
import { cellBase, demoteHeadings, legendHtml } from '../../report/html/section-kit.js';
import type { EvalSummary, HeadlineFigure, SectionModule, TranscriptCell } from '../../report/report-data.js';
import { tInterval } from '../../stats/student-t.js';
import type { Store } from '../../store/store.js';
import { AXIS_HEADING, AXIS_SCALE, SAGO_AXES, type SagoAxis } from './constants.js';
import type { AxisScore } from './metrics.js';
import {
  AXIS_PALETTE,
  type AxisColors,
  groupedBars,
  maxOf,
  radarSpec,
  strengthSpec,
} from './report-charts.js';
import { loadSagoResults, type SagoResults } from './results.js';
import { type SagoSignificance, sagoSignificance } from './significance.js';
import { RESPONSES_SUITE } from './suite-names.js';
import { sagoInOrder, sagoJson, sagoMarkdown } from './tables.js';
import { type SagoTestMeta, SagoTestMetaSchema } from './test-meta.js';

/**
 * The SAGO section: per-axis SGS heatmaps (model x dataset) with the significance markers at the
 * primary eps, a radar of the axes per model (total SGS), the ablations (prompt sample size,
 * position, strength), and the tables of sago-tables.ts.
 */

export const sagoSection: SectionModule<SagoResults> = {
  sectioned: true,
  claims: (suite) => suite.name === RESPONSES_SUITE,

  load(store, suiteHash, ctx) {
    return loadSagoResults(store, suiteHash, { ablations: ctx.ablations });
  },

  cells(store, suiteHash, results) {
    return sagoCells(store, suiteHash, results);
  },

  summary(results) {
    return sagoSummary(results);
  },

  inModelOrder(results, order) {
    return sagoInOrder(results, order);
  },

  html(results, kit) {
    return sagoHtml(results, kit);
  },

  markdown(results) {
    return demoteHeadings(sagoMarkdown(results), 3);
  },

  json(results) {
    return JSON.parse(JSON.stringify(sagoJson(results)));
  },
};

/**
 * The index's line (docs/report.md#index): each model's SGS over all prompts on the first axis
 * (in SAGO_AXES order) any model has a value on, with its 95% t interval over prompts (SGS is the
 * mean of the prompts' s(i); docs/sago.md#sgs) and its test's p adjusted as the tables' stars.
 */
function sagoSummary(r: SagoResults): EvalSummary {
  const sig = sagoSignificance(r);
  const total = (m: SagoResults['models'][number]) => m.scores.find((x) => x.scope === 'total');
  const axis = SAGO_AXES.find((a) =>
    r.models.some((m) => m.axes[a].available && total(m)?.axes[a]?.sgs !== undefined),
  );
  return {
    datasets: r.manifest.datasets.map((d) =>
      d.source
        ? {
            name: d.name,
            ...(d.source.licence !== undefined && { licence: d.source.licence }),
            ...(d.source.licenceNote !== undefined && { licenceNote: d.source.licenceNote }),
          }
        : { name: d.name, ...(d.name === 'builtin' && { licence: 'MIT' }) },
    ),
    models: r.models.map((m) => {
      const sc = axis && total(m)?.axes[axis];
      const name = axis ? `SGS ${AXIS_HEADING[axis]}` : 'SGS';
      const figure: HeadlineFigure =
        axis && m.axes[axis].available && sc && sc.sgs !== undefined
          ? {
              name,
              value: sc.sgs,
              ...sgsInterval(sc),
              over: `${sc.n} prompts`,
              test: sgsTest(
                sc,
                { identity: m.model.identity, axis, eps: r.manifest.settings.primaryEps },
                sig,
              ),
            }
          : {
              name,
              over: `${r.prompts} prompts`,
              unavailable: axis ? 'the axis is unavailable for this model' : 'no axis has a value',
            };
      return { label: m.model.label, figures: [figure] };
    }),
    interval: '95% t interval over prompts',
  };
}

/**
 * The p of the section's test on all prompts at the primary ε (docs/sago.md#sgs), adjusted over
 * the tables' family as their stars are (docs/sago.md#significance), or why there is none.
 */
function sgsTest(
  sc: AxisScore,
  at: { identity: string; axis: SagoAxis; eps: number },
  sig: SagoSignificance,
): string {
  const { eps } = at;
  const t = sc.tests.find((x) => x.eps === eps);
  const adjusted = sig.at(at.identity, 'total', at.axis, eps);
  if (!t || !adjusted) return `no test at ε = ${eps}: ${sc.untested ?? 'not run'}`;
  const p = (x: number) => (x < 0.0001 ? '< 0.0001' : `= ${x.toFixed(4)}`);
  const value =
    sig.adjust === 'none'
      ? `p ${p(t.p)} (${sig.says})`
      : `p ${p(adjusted.pAdjusted)} ${sig.says} (raw p ${p(t.p)})`;
  return `${value}, one-sided t-test of H0: E[s] ≤ ε = ${eps} (t = ${Number.isFinite(t.t) ? t.t.toFixed(2) : 'infinite: every prompt alike'}, df ${t.df})`;
}

/** SGS's t interval over prompts, or a note that one prompt has none. */
function sgsInterval(sc: { sgs?: number; sd?: number; n: number }): Partial<HeadlineFigure> {
  const ci = sc.sgs === undefined ? undefined : tInterval(sc.sgs, sc.sd, sc.n);
  return ci ? { low: ci.low, high: ci.high } : { spread: 'no interval: one prompt' };
}

const keyOf = (m: Pick<SagoTestMeta, 'family' | 'subtype' | 'strength' | 'position'>) =>
  `${m.family}/${m.subtype}/${m.strength}/${m.position}`;

function* sagoCells(
  store: Store,
  suiteHash: string,
  results: SagoResults | undefined,
): Generator<TranscriptCell> {
  const suite = store.suites.get(suiteHash);
  if (!suite) return;
  // A test whose meta is not sago's is listed without its coordinates, not an error: the report shows every cell.
  const metaOf = new Map(suite.tests.map((t) => [t.id, SagoTestMetaSchema.safeParse(t.meta).data]));
  const tests = new Map(suite.tests.map((t) => [t.id, t]));
  const baselines = new Map<string, string>();
  for (const t of suite.tests) {
    const m = metaOf.get(t.id);
    // An imported run has no shared baseline test: each row's own (pair-baseline) holds the prompt.
    const key = `${m?.dataset}::${m?.promptId}`;
    if (m?.role === 'baseline' || (m?.role === 'pair-baseline' && !baselines.has(key)))
      baselines.set(key, t.prompt);
  }
  const rowOf = new Map<string, number>();
  const colOf = new Map<string, number>();
  if (results) {
    const table = results.models[0]?.table;
    for (const [i, p] of (table?.prompts ?? []).entries()) rowOf.set(`${p.dataset}::${p.id}`, i);
    for (const [j, v] of results.variations.entries()) colOf.set(v.key, j);
  }
  const byIdentity = new Map((results?.models ?? []).map((m) => [m.model.identity, m]));
  const V = results?.variations.length ?? 0;
  for (const cell of store.cells.light(suiteHash)) {
    if (cell.repeat !== 0) continue; // SAGO compares single responses
    const test = tests.get(cell.testId);
    const base = cellBase('sago', suiteHash, cell, test);
    const meta = metaOf.get(cell.testId);
    if (!meta) {
      yield base;
      continue;
    }
    const promptKey = `${meta.dataset}::${meta.promptId}`;
    const variant = meta.role === 'variant';
    let reason: string | undefined;
    if (variant) {
      const m = byIdentity.get(cell.modelIdentity);
      const i = rowOf.get(promptKey);
      const j = colOf.get(keyOf(meta));
      if (m && i !== undefined && j !== undefined) {
        const parts: string[] = [];
        for (const axis of SAGO_AXES) {
          const d = m.table.deltas[axis]?.[i * V + j];
          if (d !== undefined && !Number.isNaN(d)) parts.push(`${AXIS_HEADING[axis]} ${d.toFixed(3)}`);
        }
        if (parts.length > 0) reason = `deltas vs the baseline response: ${parts.join(' · ')}`;
      }
    }
    yield {
      ...base,
      item: promptKey,
      family: variant ? String(meta.family) : 'baseline',
      ...(variant && { variant: `${meta.subtype} s=${meta.strength} @${meta.position}` }),
      original: baselines.get(promptKey) ?? '',
      ...(reason !== undefined && { reason }),
    };
  }
}

function sagoHtml(r: SagoResults, kit: HtmlKit): string {
  const axes = SAGO_AXES.filter((a) => r.models.some((m) => m.axes[a].available && m.table.deltas[a]));
  const sig = sagoSignificance(r);
  // Charts in the order the page numbers them: heatmaps, radar, then each model's ablations.
  return [
    lede(r, kit, sig),
    ...unavailableAxes(r, kit),
    ...heatmaps(r, axes, kit, sig),
    ...radar(r, axes, kit),
    ...ablations(r, axes, kit),
    '<details open class="tables"><summary>Per-dataset SGS, tolerance robustness, significance counts, ablation tables</summary>',
    kit.md(demoteHeadings(sagoMarkdown(r), 3)),
    '</details>',
  ].join('\n');
}

function lede(r: SagoResults, kit: HtmlKit, sig: SagoSignificance): string {
  const eps = r.manifest.settings.primaryEps;
  const ds = r.manifest.datasets.map((d) => `${d.name} (${d.n} of ${d.available})`).join(', ');
  return `<p class="lede">${r.prompts} prompts (${kit.esc(ds)}), ${r.variations.length} variations, ${r.variants} variants run, ${
    r.manifest.rejected.length
  } dropped; seed ${r.manifest.seed}; ${r.models.length} model${r.models.length === 1 ? '' : 's'}. SGS = mean over prompts of the RMS of Δ/R over a prompt's variants; markers: one-sided t-test of H0: E[s] ≤ ε at ε = ${eps}; ${kit.esc(sig.note)}.</p>`;
}

/** The axes a model cannot give, with the reason, collapsed. */
function unavailableAxes(r: SagoResults, kit: HtmlKit): string[] {
  const unavailable = r.models.flatMap((m) =>
    SAGO_AXES.filter((a) => !m.axes[a].available).map(
      (a) => `${m.model.label}: ${AXIS_HEADING[a]} — ${m.axes[a].reason ?? ''}`,
    ),
  );
  if (unavailable.length === 0) return [];
  return [
    `<details class="notes"><summary>Axes unavailable for some models (${unavailable.length})</summary><ul>${unavailable
      .map((u) => `<li>${kit.esc(u)}</li>`)
      .join('')}</ul></details>`,
  ];
}

/** Per axis, SGS by model and dataset (and over all prompts), marked at the primary eps. */
function heatmaps(r: SagoResults, axes: readonly SagoAxis[], kit: HtmlKit, sig: SagoSignificance): string[] {
  const eps = r.manifest.settings.primaryEps;
  const scopes = [...new Set(r.models.flatMap((m) => m.scores.map((x) => x.scope)))];
  const scopeName = (scope: string) => (scope === 'total' ? 'total (all prompts)' : scope);
  const models = r.models.map((m) => m.model.label);
  const maps = axes.map((axis) => {
    const values: Row[] = [];
    for (const m of r.models)
      for (const scope of scopes) {
        const sc = m.scores.find((x) => x.scope === scope)?.axes[axis];
        const available = m.axes[axis].available && m.table.deltas[axis] !== undefined;
        const marker = sig.at(m.model.identity, scope, axis, eps)?.marker ?? '';
        values.push({
          model: m.model.label,
          scope: scopeName(scope),
          sgs: available && sc?.sgs !== undefined ? sc.sgs : null,
          label: !available ? '—' : sc?.sgs === undefined ? 'n/a' : `${sc.sgs.toFixed(3)}${marker}`,
        });
      }
    return kit.chart(
      heatmap({
        values,
        x: { field: 'scope', title: 'dataset', sort: scopes.map(scopeName) },
        y: { field: 'model', title: null, sort: models },
        value: { field: 'sgs', title: 'SGS' },
        text: 'label',
        cell: { width: 96, height: 24 },
      }),
      {
        title: `${AXIS_HEADING[axis]} (${axis}): SGS by model and dataset`,
        caption: `SGS over the prompts of each dataset (n prompts per cell in the tables), Δ normalised by R = ${AXIS_SCALE[axis]}; marker at ε = ${eps}, of the p ${sig.says}. "—": the axis is unavailable for the model; "n/a": no prompt had a value.`,
      },
    );
  });
  return maps.length > 0 ? ['<h3>SGS heatmaps</h3>', `<div class="charts">${maps.join('')}</div>`] : [];
}

/** Total SGS per axis, one polygon per model: drawn from three axes on. */
function radar(r: SagoResults, axes: readonly SagoAxis[], kit: HtmlKit): string[] {
  const rows: Row[] = [];
  for (const m of r.models) {
    const total = m.scores.find((x) => x.scope === 'total');
    for (const axis of axes) {
      const v = total?.axes[axis]?.sgs;
      if (v !== undefined && m.table.deltas[axis])
        rows.push({ model: m.model.label, axis: AXIS_HEADING[axis], value: v });
    }
  }
  if (axes.length < 3 || rows.length === 0) return [];
  const chart = kit.chart(
    radarSpec(
      rows,
      axes.map((a) => AXIS_HEADING[a]),
      kit.modelColors,
    ),
    {
      title: 'Total SGS per axis',
      caption:
        'Radius (square-root scale, to the largest value): total SGS over all prompts, each axis normalised by its R. Colours as in the key above. A model without an axis has no vertex there (its polygon skips it); values per axis are in the tables.',
    },
  );
  return ['<h3>Axes per model</h3>', legendHtml(kit), `<div class="charts">${chart}</div>`];
}

/** Per model, SGS as the prompt sample grows, by position and by strength (Appendix D and E). */
function ablations(r: SagoResults, axes: readonly SagoAxis[], kit: HtmlKit): string[] {
  const colors: AxisColors = {
    domain: axes.map((a) => AXIS_HEADING[a]),
    range: axes.map((_, i) => AXIS_PALETTE[i % AXIS_PALETTE.length] as string),
  };
  const charts = r.models.flatMap((m) =>
    [
      sampleSizeChart(r, m, axes, colors, kit),
      positionChart(m, axes, colors, kit),
      strengthChart(m, axes, colors, kit),
    ].filter((c) => c !== undefined),
  );
  return charts.length > 0 ? ['<h3>Ablations</h3>', `<div class="charts">${charts.join('')}</div>`] : [];
}

type ModelResults = SagoResults['models'][number];

function sampleSizeChart(
  r: SagoResults,
  m: ModelResults,
  axes: readonly SagoAxis[],
  colors: AxisColors,
  kit: HtmlKit,
): string | undefined {
  const { ablation } = r.manifest.settings;
  const rows: Row[] = [];
  for (const axis of axes)
    for (const p of m.ablations.sampleSize[axis] ?? [])
      if (p.p50 !== undefined)
        rows.push({
          axis: AXIS_HEADING[axis],
          n: p.n,
          value: p.p50,
          low: p.p10 ?? null,
          high: p.p90 ?? null,
        });
  if (rows.length === 0) return undefined;
  return kit.chart(
    bandLines({
      values: rows,
      x: {
        field: 'n',
        title: 'prompts drawn (N)',
        type: 'quantitative',
        scale: { type: 'log', base: 2 },
        axisValues: ablation.sizes,
      },
      y: {
        field: 'value',
        low: 'low',
        high: 'high',
        title: 'sd across variation groups',
        domain: [0, maxOf(rows, 'high')],
      },
      color: { field: 'axis', title: 'axis', ...colors },
      width: 300,
      height: 200,
    }),
    {
      title: `Prompt sample size: ${m.model.label}`,
      caption: `For each N, ${ablation.draws} draws of N prompts without replacement; statistic: sd across variation groups (F, u, s, p) of the group mean |Δ/R|. Line: P50; band: P10–P90 over the draws.`,
    },
  );
}

function positionChart(
  m: ModelResults,
  axes: readonly SagoAxis[],
  colors: AxisColors,
  kit: HtmlKit,
): string | undefined {
  const rows: Row[] = [];
  for (const axis of axes)
    for (const sl of m.ablations.position[axis] ?? [])
      if (sl.sgs !== undefined)
        rows.push({ axis: AXIS_HEADING[axis], position: sl.label, sgs: sl.sgs, n: sl.n });
  if (rows.length === 0) return undefined;
  return kit.chart(groupedBars(rows, 'position', 'position', colors), {
    title: `By position: ${m.model.label}`,
    caption:
      'SGS restricted to the variations inserted at each position (over the prompts with a value there; n in the tables).',
  });
}

function strengthChart(
  m: ModelResults,
  axes: readonly SagoAxis[],
  colors: AxisColors,
  kit: HtmlKit,
): string | undefined {
  const rows: Row[] = [];
  for (const axis of axes)
    for (const sub of m.ablations.strength[axis] ?? [])
      for (const sl of sub.slices)
        if (sl.sgs !== undefined)
          rows.push({
            axis: AXIS_HEADING[axis],
            step: `${sub.subtype} ${sl.label}`,
            subtype: sub.subtype,
            sgs: sl.sgs,
            n: sl.n,
          });
  if (rows.length === 0) return undefined;
  return kit.chart(strengthSpec(rows, colors), {
    title: `By strength: ${m.model.label}`,
    caption:
      'SGS restricted to the variations of one subtype at one strength (register: −10 rude … 10 polite; spacing: spaces inserted; punctuation: marks inserted; casing: % of letters uppercased). Lines join the strengths of a subtype.',
  });
}
