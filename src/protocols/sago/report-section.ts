import type { ChartSpec } from '../../report/charts.js';
import { bandLines, heatmap, type Row } from '../../report/html/chart-kit.js';
import type { HtmlKit } from '../../report/html/section.js';
import { cellBase, demoteHeadings, legendHtml } from '../../report/html/section-kit.js';
import type { EvalSummary, HeadlineFigure, SectionModule, TranscriptCell } from '../../report/report-data.js';
import type { Store } from '../../store/store.js';
import { AXIS_HEADING, AXIS_SCALE, SAGO_AXES } from './metrics.js';
import { loadSagoResults, type SagoResults } from './results.js';
import { RESPONSES_SUITE } from './suites.js';
import { formatSagoResults, sagoMarkdown } from './tables.js';
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

  html(results, kit) {
    return sagoHtml(results, kit);
  },

  markdown(results) {
    return demoteHeadings(sagoMarkdown(results), 3);
  },

  json(results) {
    return JSON.parse(formatSagoResults(results, 'json'));
  },
};

/**
 * The index's line (docs/report.md#index): each model's SGS over all prompts on the first axis
 * (in SAGO_AXES order) any model has a value on, with its standard deviation over prompts; SGS has
 * no interval of its own (docs/sago.md#sgs).
 */
function sagoSummary(r: SagoResults): EvalSummary {
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
              ...(sc.sd !== undefined && { spread: `sd ${sc.sd.toFixed(3)}` }),
              over: `${sc.n} prompts`,
            }
          : {
              name,
              over: `${r.prompts} prompts`,
              unavailable: axis ? 'the axis is unavailable for this model' : 'no axis has a value',
            };
      return { label: m.model.label, figures: [figure] };
    }),
  };
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

function fmt(x: number | undefined): string {
  return x === undefined || Number.isNaN(x) ? 'n/a' : x.toFixed(3);
}

function sagoHtml(r: SagoResults, kit: HtmlKit): string {
  const s = r.manifest.settings;
  const eps = s.primaryEps;
  const axes = SAGO_AXES.filter((a) => r.models.some((m) => m.axes[a].available && m.table.deltas[a]));
  const ds = r.manifest.datasets.map((d) => `${d.name} (${d.n} of ${d.available})`).join(', ');
  const parts: string[] = [
    `<p class="lede">${r.prompts} prompts (${kit.esc(ds)}), ${r.variations.length} variations, ${r.variants} variants run, ${
      r.manifest.rejected.length
    } dropped; seed ${r.manifest.seed}; ${r.models.length} model${r.models.length === 1 ? '' : 's'}. SGS = mean over prompts of the RMS of Δ/R over a prompt's variants; markers: one-sided t-test of H0: E[s] ≤ ε at ε = ${eps} (* p &lt; .05, ** p &lt; .01, † p &lt; .001).</p>`,
  ];
  const unavailable = r.models.flatMap((m) =>
    SAGO_AXES.filter((a) => !m.axes[a].available).map(
      (a) => `${m.model.label}: ${AXIS_HEADING[a]} — ${m.axes[a].reason ?? ''}`,
    ),
  );
  if (unavailable.length > 0)
    parts.push(
      `<details class="notes"><summary>Axes unavailable for some models (${unavailable.length})</summary><ul>${unavailable
        .map((u) => `<li>${kit.esc(u)}</li>`)
        .join('')}</ul></details>`,
    );

  // Heatmaps: per axis, model x dataset (and total).
  const scopes = [...new Set(r.models.flatMap((m) => m.scores.map((x) => x.scope)))];
  const models = r.models.map((m) => m.model.label);
  const maps: string[] = [];
  for (const axis of axes) {
    const values: Row[] = [];
    for (const m of r.models)
      for (const scope of scopes) {
        const sc = m.scores.find((x) => x.scope === scope)?.axes[axis];
        const available = m.axes[axis].available && m.table.deltas[axis] !== undefined;
        const marker = sc?.tests.find((t) => t.eps === eps)?.marker ?? '';
        values.push({
          model: m.model.label,
          scope: scope === 'total' ? 'total (all prompts)' : scope,
          sgs: available && sc?.sgs !== undefined ? sc.sgs : null,
          label: !available ? '—' : sc?.sgs === undefined ? 'n/a' : `${sc.sgs.toFixed(3)}${marker}`,
        });
      }
    maps.push(
      kit.chart(
        heatmap({
          values,
          x: {
            field: 'scope',
            title: 'dataset',
            sort: scopes.map((x) => (x === 'total' ? 'total (all prompts)' : x)),
          },
          y: { field: 'model', title: null, sort: models },
          value: { field: 'sgs', title: 'SGS' },
          text: 'label',
          cell: { width: 96, height: 24 },
        }),
        {
          title: `${AXIS_HEADING[axis]} (${axis}): SGS by model and dataset`,
          caption: `SGS over the prompts of each dataset (n prompts per cell in the tables), Δ normalised by R = ${AXIS_SCALE[axis]}; marker at ε = ${eps}. "—": the axis is unavailable for the model; "n/a": no prompt had a value.`,
        },
      ),
    );
  }
  if (maps.length > 0) parts.push('<h3>SGS heatmaps</h3>', `<div class="charts">${maps.join('')}</div>`);

  // Radar: total SGS per axis, one polygon per model.
  const radarRows: Row[] = [];
  for (const m of r.models) {
    const total = m.scores.find((x) => x.scope === 'total');
    for (const axis of axes) {
      const v = total?.axes[axis]?.sgs;
      if (v !== undefined && m.table.deltas[axis])
        radarRows.push({ model: m.model.label, axis: AXIS_HEADING[axis], value: v });
    }
  }
  if (axes.length >= 3 && radarRows.length > 0)
    parts.push(
      '<h3>Axes per model</h3>',
      legendHtml(kit),
      `<div class="charts">${kit.chart(
        radarSpec(
          radarRows,
          axes.map((a) => AXIS_HEADING[a]),
          kit,
        ),
        {
          title: 'Total SGS per axis',
          caption:
            'Radius (square-root scale, to the largest value): total SGS over all prompts, each axis normalised by its R. Colours as in the key above. A model without an axis has no vertex there (its polygon skips it); values per axis are in the tables.',
        },
      )}</div>`,
    );

  // Ablations.
  const abl: string[] = [];
  const axisColors = {
    domain: axes.map((a) => AXIS_HEADING[a]),
    range: axes.map((_, i) => AXIS_PALETTE[i % AXIS_PALETTE.length] as string),
  };
  for (const m of r.models) {
    const sampleRows: Row[] = [];
    for (const axis of axes)
      for (const p of m.ablations.sampleSize[axis] ?? [])
        if (p.p50 !== undefined)
          sampleRows.push({
            axis: AXIS_HEADING[axis],
            n: p.n,
            value: p.p50,
            low: p.p10 ?? null,
            high: p.p90 ?? null,
          });
    if (sampleRows.length > 0)
      abl.push(
        kit.chart(
          bandLines({
            values: sampleRows,
            x: {
              field: 'n',
              title: 'prompts drawn (N)',
              type: 'quantitative',
              scale: { type: 'log', base: 2 },
              axisValues: s.ablation.sizes,
            },
            y: {
              field: 'value',
              low: 'low',
              high: 'high',
              title: 'sd across variation groups',
              domain: [0, maxOf(sampleRows, 'high')],
            },
            color: { field: 'axis', title: 'axis', ...axisColors },
            width: 300,
            height: 200,
          }),
          {
            title: `Prompt sample size: ${m.model.label}`,
            caption: `For each N, ${s.ablation.draws} draws of N prompts without replacement; statistic: sd across variation groups (F, u, s, p) of the group mean |Δ/R|. Line: P50; band: P10–P90 over the draws.`,
          },
        ),
      );
    const posRows: Row[] = [];
    for (const axis of axes)
      for (const sl of m.ablations.position[axis] ?? [])
        if (sl.sgs !== undefined)
          posRows.push({ axis: AXIS_HEADING[axis], position: sl.label, sgs: sl.sgs, n: sl.n });
    if (posRows.length > 0)
      abl.push(
        kit.chart(groupedBars(posRows, 'position', 'position', axisColors), {
          title: `By position: ${m.model.label}`,
          caption:
            'SGS restricted to the variations inserted at each position (over the prompts with a value there; n in the tables).',
        }),
      );
    const strRows: Row[] = [];
    for (const axis of axes)
      for (const sub of m.ablations.strength[axis] ?? [])
        for (const sl of sub.slices)
          if (sl.sgs !== undefined)
            strRows.push({
              axis: AXIS_HEADING[axis],
              step: `${sub.subtype} ${sl.label}`,
              subtype: sub.subtype,
              sgs: sl.sgs,
              n: sl.n,
            });
    if (strRows.length > 0)
      abl.push(
        kit.chart(strengthSpec(strRows, axisColors), {
          title: `By strength: ${m.model.label}`,
          caption:
            'SGS restricted to the variations of one subtype at one strength (register: −10 rude … 10 polite; spacing: spaces inserted; punctuation: marks inserted; casing: % of letters uppercased). Lines join the strengths of a subtype.',
        }),
      );
  }
  if (abl.length > 0) parts.push('<h3>Ablations</h3>', `<div class="charts">${abl.join('')}</div>`);

  parts.push(
    '<details open class="tables"><summary>Per-dataset SGS, tolerance robustness, significance counts, ablation tables</summary>',
    kit.md(demoteHeadings(sagoMarkdown(r), 3)),
    '</details>',
  );
  return parts.join('\n');
}

const AXIS_PALETTE = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1'];

function maxOf(rows: Row[], field: string): number {
  const xs = rows.map((r) => Number(r[field] ?? 0)).filter((x) => Number.isFinite(x));
  return Math.max(1e-6, ...xs) * 1.1;
}

function groupedBars(
  values: Row[],
  field: string,
  title: string,
  colors: { domain: string[]; range: string[] },
): ChartSpec {
  return {
    data: { table: values },
    vegaLite: {
      // With an xOffset the step is one bar's (vega-lite sizes the offset band), not a group's.
      width: { step: 16 },
      height: 200,
      data: { name: 'table' },
      mark: { type: 'bar' },
      encoding: {
        x: { field, type: 'nominal', title, axis: { labelAngle: 0 } },
        xOffset: { field: 'axis', type: 'nominal', scale: { domain: colors.domain } },
        y: { field: 'sgs', type: 'quantitative', title: 'SGS' },
        color: { field: 'axis', type: 'nominal', title: 'axis', scale: colors },
      },
    },
  };
}

function strengthSpec(values: Row[], colors: { domain: string[]; range: string[] }): ChartSpec {
  const steps = [...new Set(values.map((v) => String(v.step)))];
  const x = {
    field: 'step',
    type: 'ordinal',
    title: 'subtype and strength',
    sort: steps,
    axis: { labelAngle: -45 },
  };
  return {
    data: { table: values },
    vegaLite: {
      width: { step: 22 },
      height: 200,
      data: { name: 'table' },
      layer: [
        {
          mark: { type: 'line', opacity: 0.7 },
          encoding: {
            x,
            y: { field: 'sgs', type: 'quantitative', title: 'SGS' },
            color: { field: 'axis', type: 'nominal', title: 'axis', scale: colors },
            detail: { field: 'subtype', type: 'nominal' },
          },
        },
        {
          mark: { type: 'point', filled: true },
          encoding: {
            x,
            y: { field: 'sgs', type: 'quantitative' },
            color: { field: 'axis', type: 'nominal', scale: colors },
          },
        },
      ],
    },
  };
}

/** A radar (vega, after its radar example): one closed line per model over the axes. */
function radarSpec(values: Row[], keys: string[], kit: HtmlKit): ChartSpec {
  const max = maxOf(values, 'value');
  const models = [...new Set(values.map((v) => String(v.model)))];
  const range = models.map((m) => kit.modelColors.range[kit.modelColors.domain.indexOf(m)] ?? '#6b7280');
  return {
    vega: {
      width: 300,
      height: 300,
      padding: 50,
      autosize: { type: 'none', contains: 'padding' },
      signals: [{ name: 'radius', update: 'width / 2' }],
      data: [
        { name: 'table', values },
        { name: 'keys', values: keys.map((k) => ({ key: k })) },
      ],
      scales: [
        { name: 'angular', type: 'point', range: { signal: '[-PI, PI]' }, padding: 0.5, domain: keys },
        // Square root: SGS differ by orders of magnitude across axes; linear radii hide the small ones.
        {
          name: 'radial',
          type: 'sqrt',
          range: { signal: '[0, radius]' },
          zero: true,
          nice: false,
          domain: [0, max],
        },
        { name: 'color', type: 'ordinal', domain: models, range },
      ],
      encode: { enter: { x: { signal: 'radius' }, y: { signal: 'radius' } } },
      marks: [
        {
          type: 'group',
          name: 'categories',
          zindex: 1,
          from: { facet: { data: 'table', name: 'facet', groupby: ['model'] } },
          marks: [
            {
              type: 'line',
              name: 'category-line',
              from: { data: 'facet' },
              encode: {
                enter: {
                  interpolate: { value: 'linear-closed' },
                  x: { signal: "scale('radial', datum.value) * cos(scale('angular', datum.axis))" },
                  y: { signal: "scale('radial', datum.value) * sin(scale('angular', datum.axis))" },
                  stroke: { scale: 'color', field: 'model' },
                  strokeWidth: { value: 2 },
                  fill: { scale: 'color', field: 'model' },
                  fillOpacity: { value: 0.1 },
                },
              },
            },
          ],
        },
        {
          type: 'rule',
          name: 'radial-grid',
          from: { data: 'keys' },
          zindex: 0,
          encode: {
            enter: {
              x: { value: 0 },
              y: { value: 0 },
              x2: { signal: "radius * cos(scale('angular', datum.key))" },
              y2: { signal: "radius * sin(scale('angular', datum.key))" },
              stroke: { value: '#d1d5db' },
              strokeWidth: { value: 1 },
            },
          },
        },
        {
          type: 'text',
          name: 'key-label',
          from: { data: 'keys' },
          zindex: 1,
          encode: {
            enter: {
              x: { signal: "(radius + 8) * cos(scale('angular', datum.key))" },
              y: { signal: "(radius + 8) * sin(scale('angular', datum.key))" },
              text: { field: 'key' },
              align: [
                { test: "abs(scale('angular', datum.key)) > PI / 2", value: 'right' },
                { value: 'left' },
              ],
              baseline: [
                { test: "scale('angular', datum.key) > 0", value: 'top' },
                { test: "scale('angular', datum.key) == 0", value: 'middle' },
                { value: 'bottom' },
              ],
              fill: { value: '#111827' },
              fontSize: { value: 11 },
            },
          },
        },
        {
          type: 'text',
          name: 'scale-label',
          encode: {
            enter: {
              x: { value: 2 },
              y: { signal: '-radius' },
              text: { value: `max ${fmt(max)}` },
              fill: { value: '#6b7280' },
              fontSize: { value: 10 },
            },
          },
        },
      ],
    },
  };
}
