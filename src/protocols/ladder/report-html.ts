import type { ChartSpec } from '../../report/charts.js';
import { bandLines, type Row } from '../../report/html/chart-kit.js';
import type { HtmlKit } from '../../report/html/section.js';
import { demoteHeadings, fmt3, legendHtml } from '../../report/html/section-kit.js';
import { familyCodes, familyName, keepsNoAnswer } from './families/roster.js';
import type { Interval } from './metrics.js';
import type { LadderResults } from './results.js';
import { answerTypeLine, formatLadderReport, type LadderReportInput } from './tables.js';
import { type Family, LEVELS } from './types.js';

/**
 * The ladder section's HTML: a lede, the degradation curves (all families pooled, then per family)
 * with their bootstrap bands, the magnitude–stability quadrants with their thresholds, the
 * Collapse Point's bootstrap spread, and the Markdown tables below them. The kit numbers charts in
 * the order they are made, so the parts are made in page order.
 */

const LEVEL_NAMES = ['L0', ...LEVELS.map((k) => `L${k}`)];
const CP_VALUES = ['L1', 'L2', 'L3', 'L4', 'L5', 'never', 'unavailable'];
/** The baseline's, then the families' in the roster's order, round again past the eighth. */
const QUADRANT_COLORS = [
  '#111827',
  '#4e79a7',
  '#f28e2b',
  '#e15759',
  '#76b7b2',
  '#59a14f',
  '#b07aa1',
  '#9c755f',
];
const CP_COLORS = ['#7f1d1d', '#b91c1c', '#ef4444', '#f97316', '#fbbf24', '#16a34a', '#9ca3af'];

/** What every chart of the section shares: the interval's wording and the models' colours. */
interface ChartContext {
  kit: HtmlKit;
  ci: string;
  color: { field: string; title: string } & HtmlKit['modelColors'];
}

export function ladderHtml(data: LadderReportInput, kit: HtmlKit): string {
  const r = data.results;
  const s = r.settings;
  const ci = `${Math.round(100 * s.confidence)}% percentile bootstrap CI (${s.resamples} resamples of seeds)`;
  const charts: ChartContext = { kit, ci, color: { field: 'model', title: 'model', ...kit.modelColors } };
  return [
    ...lede(r, kit, ci),
    degradationChart(r, charts),
    ...familyCurves(r, charts),
    ...quadrantCharts(r, kit),
    ...collapseCharts(r, kit),
    '<details open class="tables"><summary>Tables 3, 4, 5, accuracy by level, Knowledge Boundary by type, quadrants, every family × level</summary>',
    kit.md(demoteHeadings(formatLadderReport(data, 'md'), 3)),
    '</details>',
  ].join('\n');
}

function iv(x: Interval): { value: number | null; low: number | null; high: number | null } {
  return { value: x.value ?? null, low: x.low ?? null, high: x.high ?? null };
}

/** What the suite holds and how it is scored, and a warning for cut replies and incomplete models. */
function lede(r: LadderResults, kit: HtmlKit, ci: string): string[] {
  const s = r.settings;
  const baselines = r.suite.tests - r.suite.perturbed;
  const parts = [
    `<p class="lede">Suite <code>${kit.esc(r.suite.name)}</code> <code>${kit.esc(r.suite.hash.slice(0, 12))}</code>: ` +
      `${r.suite.seeds} seeds, ${r.suite.perturbed} perturbed tests and ${baselines} baseline tests (each asked ${s.baselineRepeats}x); ` +
      `${r.models.length} model${r.models.length === 1 ? '' : 's'}. ${kit.esc(ci)}.</p>`,
    `<p>${kit.esc(answerTypeLine(r))}</p>`,
  ];
  const cut = r.models.filter((m) => m.truncated.n > 0);
  if (cut.length > 0)
    parts.push(
      `<p class="warn">Replies cut at the output cap (finish_reason length): ${cut
        .map(
          (m) =>
            `${kit.esc(m.label)} ${m.truncated.n} (${m.truncated.wrong} scored wrong; cap ${m.asked.maxTokens.join(', ')})`,
        )
        .join('; ')}.</p>`,
    );
  const incomplete = r.models.filter((m) => !m.complete);
  if (incomplete.length > 0)
    parts.push(
      `<p class="warn">Incomplete: ${incomplete.map((m) => `${kit.esc(m.label)} (${kit.esc(m.incomplete ?? '')})`).join('; ')}.</p>`,
    );
  return parts;
}

/** Degradation curves, all families pooled (the paper's Figure 1). */
function degradationChart(r: LadderResults, { kit, ci, color }: ChartContext): string {
  const pooled: Row[] = [];
  for (const m of r.models)
    for (const [k, name] of LEVEL_NAMES.entries()) {
      const set = m.metrics.byLevel[k as 0 | 1 | 2 | 3 | 4 | 5];
      if (set.accuracy.value === undefined) continue;
      pooled.push({ model: m.label, level: name, n: set.n, ...iv(set.accuracy) });
    }
  const chart = kit.chart(
    bandLines({
      values: pooled,
      x: { field: 'level', title: 'measured level (L0 = unperturbed baseline)', sort: LEVEL_NAMES },
      y: { field: 'value', low: 'low', high: 'high', title: 'accuracy' },
      color,
    }),
    {
      title: 'Degradation: accuracy by measured level, every family pooled',
      caption: `Each point: mean correctness over the responses at that level (n in the table "Accuracy by measured level"); band: ${ci}. Levels without tests are left out.`,
    },
  );
  return `<div class="charts">${chart}</div>`;
}

/** One small curve per family with responses (L0 = the baseline, shared by every family). */
function familyCurves(r: LadderResults, charts: ChartContext): string[] {
  const families = familyCodes().filter((f) =>
    r.models.some((m) => m.metrics.families.find((x) => x.family === f)?.overall.n),
  );
  const small = families.map((f) => familyCurve(r, f, charts));
  if (small.length === 0) return [];
  return [
    '<h3>Per-family curves</h3>',
    legendHtml(charts.kit),
    `<div class="charts small">${small.join('')}</div>`,
  ];
}

function familyCurve(r: LadderResults, f: Family, { kit, ci, color }: ChartContext): string {
  const values: Row[] = [];
  // Levels with tests whose score cannot be computed (e.g. KB without judge verdicts): named in
  // the caption, never drawn as 0.
  const missing = new Map<string, string>();
  for (const m of r.models) {
    const fm = m.metrics.families.find((x) => x.family === f);
    if (!fm) continue;
    if (m.metrics.baseline.accuracy.value !== undefined)
      values.push({
        model: m.label,
        level: 'L0',
        n: m.metrics.baseline.n,
        ...iv(m.metrics.baseline.accuracy),
      });
    for (const k of LEVELS) {
      const set = fm.levels[k];
      if (set.accuracy.value === undefined) {
        if (set.n > 0) missing.set(`L${k}`, set.accuracy.unavailable ?? 'unavailable');
        continue;
      }
      values.push({ model: m.label, level: `L${k}`, n: set.n, ...iv(set.accuracy) });
    }
    if (fm.overall.n > 0 && LEVELS.every((k) => fm.levels[k].n === 0))
      missing.set('every level', 'no test has a measured level');
  }
  const title = `${familyName(f)} (${f})`;
  const boundary = keepsNoAnswer(f);
  const gaps =
    missing.size === 0
      ? ''
      : ` Not drawn: ${[...missing].map(([level, why]) => `${level} (${why})`).join('; ')}.`;
  if (!values.some((v) => v.level !== 'L0'))
    return `<figure class="chart unavailable"><figcaption><strong>${kit.esc(title)}</strong>Unavailable: no perturbed level has a score.${kit.esc(gaps)}</figcaption></figure>`;
  return kit.chart(
    bandLines({
      values,
      x: {
        field: 'level',
        title: boundary ? 'boundary type as level' : 'measured level',
        sort: LEVEL_NAMES,
      },
      y: { field: 'value', low: 'low', high: 'high', title: boundary ? 'rubric score' : 'accuracy' },
      color,
      width: 230,
      height: 150,
      legend: false,
    }),
    {
      title,
      caption:
        (boundary
          ? `Mean judge rubric score per boundary type (L1 missing information … L5 impossible premise); L0 = baseline accuracy. Band: ${ci}.`
          : `Accuracy per measured level; L0 = baseline accuracy. Band: ${ci}. n per cell in Table 5.`) +
        gaps,
    },
  );
}

/** Quadrants (the paper's Figure 2), one plot per model: thresholds drawn. */
function quadrantCharts(r: LadderResults, kit: HtmlKit): string[] {
  const quads = r.models.map((m) => quadrantChart(m, kit));
  return ['<h3>Magnitude–stability quadrants</h3>', `<div class="charts">${quads.join('')}</div>`];
}

function quadrantChart(m: LadderResults['models'][number], kit: HtmlKit): string {
  const q = m.metrics.quadrant;
  const points: Row[] = q.points
    .filter((p) => p.x !== undefined && p.y !== undefined)
    .map((p) => ({ family: p.family, x: p.x ?? null, y: p.y ?? null, quadrant: p.quadrant ?? null }));
  if (q.baseline) points.push({ family: 'baseline', x: q.baseline.x, y: q.baseline.y, quadrant: null });
  if (points.length === 0)
    return `<figure class="chart unavailable"><figcaption><strong>${kit.esc(m.label)}</strong>: quadrant plot unavailable (${kit.esc(
      q.points[0]?.unavailable ?? 'no family has a Stability',
    )})</figcaption></figure>`;
  const caption =
    q.mode === 'waver'
      ? `One point per family: x = mean perturbation magnitude (1 − SIM), y = Stability (Σ correct × magnitude / Σ magnitude over the answered responses), as in the paper's Figure 2. Thresholds: x = ${fmt3(q.xThreshold)} (mean of the family magnitudes), y = ${fmt3(q.yThreshold)}.`
      : `One point per family and one for the baseline: x = mean perturbation magnitude (1 − SIM), y = mean score, both over the answered, scored responses, as the reference code plots it (ladder.quadrant: reference). Thresholds: x = ${fmt3(q.xThreshold)} (mean of the points' x, the baseline's 0 included), y = ${fmt3(q.yThreshold)}.`;
  return kit.chart(
    quadrantSpec(points, q.xThreshold, q.yThreshold, q.mode === 'waver' ? 'Stability' : 'mean score'),
    {
      title: `Magnitude vs ${q.mode === 'waver' ? 'Stability' : 'mean score'}: ${m.label}`,
      caption,
    },
  );
}

/** Collapse Point: the point estimate is in Table 5; here the share of resamples per value, one chart per model. */
function collapseCharts(r: LadderResults, kit: HtmlKit): string[] {
  const s = r.settings;
  const cpRows: Row[] = [];
  for (const m of r.models)
    for (const f of m.metrics.families) {
      if (f.overall.n === 0) continue;
      const est = f.collapse.status === 'collapsed' ? `L${f.collapse.level}` : f.collapse.status;
      for (const d of f.collapse.distribution)
        cpRows.push({
          model: m.label,
          family: `${f.family} (CP ${est})`,
          value: d.value,
          share: d.share,
          order: CP_VALUES.indexOf(d.value),
        });
    }
  if (cpRows.length === 0) return [];
  const cps: string[] = [];
  for (const m of r.models) {
    const values = cpRows.filter((x) => x.model === m.label);
    if (values.length === 0) continue;
    cps.push(
      kit.chart(collapseSpec(values), {
        title: `Collapse Point bootstrap spread: ${m.label}`,
        caption: `Share of the ${s.resamples} bootstrap resamples (seeds resampled) in which each level is the Collapse Point: the lowest level k with acc(Lk) < ${s.collapseRatio} × acc(L0). The point estimate is in brackets and in Table 5.`,
      }),
    );
  }
  return ['<h3>Collapse Point</h3>', `<div class="charts">${cps.join('')}</div>`];
}

function quadrantSpec(
  points: Row[],
  xThreshold: number | undefined,
  yThreshold: number,
  yTitle: string,
): ChartSpec {
  // x starts at 0 and ends past the largest magnitude or threshold (vega's nice domain).
  const x = {
    field: 'x',
    type: 'quantitative',
    title: 'mean magnitude (1 − SIM)',
    scale: { zero: true, nice: true },
  };
  const y = { field: 'y', type: 'quantitative', title: yTitle, scale: { domain: [0, 1] } };
  // The same colour and shape for a family in every model's plot; the legend lists those present.
  const everyFamily = ['baseline', ...familyCodes()];
  const shown = everyFamily.filter((f) => points.some((p) => p.family === f));
  const colorOf = (f: string) => QUADRANT_COLORS[everyFamily.indexOf(f) % QUADRANT_COLORS.length];
  const corners = [
    { label: 'stable', x: 4, y: 4, align: 'left', baseline: 'top' },
    { label: 'robust', x: 'width', dx: -4, y: 4, align: 'right', baseline: 'top' },
    { label: 'unstable', x: 4, y: 'height', dy: -4, align: 'left', baseline: 'bottom' },
    { label: 'failure', x: 'width', dx: -4, y: 'height', dy: -4, align: 'right', baseline: 'bottom' },
  ];
  const layer: Record<string, unknown>[] = [
    {
      data: { name: 'xrule' },
      mark: { type: 'rule', strokeDash: [4, 3], color: '#6b7280' },
      encoding: { x },
    },
    {
      data: { name: 'yrule' },
      mark: { type: 'rule', strokeDash: [4, 3], color: '#6b7280' },
      encoding: { y },
    },
    ...corners.map((c) => ({
      data: { values: [{}] },
      mark: {
        type: 'text',
        align: c.align,
        baseline: c.baseline,
        color: '#9ca3af',
        fontSize: 11,
        ...(c.dx !== undefined && { dx: c.dx }),
        ...(c.dy !== undefined && { dy: c.dy }),
      },
      encoding: { x: { value: c.x }, y: { value: c.y }, text: { value: c.label } },
    })),
    {
      // Families are told apart by colour and shape in a legend: text beside each point collides
      // when families sit close together (docs/report.md#charts).
      data: { name: 'points' },
      mark: { type: 'point', filled: true, size: 80, opacity: 0.9 },
      encoding: {
        x,
        y,
        color: {
          field: 'family',
          type: 'nominal',
          title: 'family',
          scale: { domain: shown, range: shown.map(colorOf) },
        },
        shape: { field: 'family', type: 'nominal', title: 'family', scale: { domain: shown } },
      },
    },
  ];
  return {
    vegaLite: { width: 300, height: 240, layer },
    data: { points, xrule: xThreshold === undefined ? [] : [{ x: xThreshold }], yrule: [{ y: yThreshold }] },
  };
}

function collapseSpec(values: Row[]): ChartSpec {
  return {
    data: { table: values },
    vegaLite: {
      width: 300,
      height: { step: 18 },
      data: { name: 'table' },
      mark: { type: 'bar' },
      encoding: {
        y: { field: 'family', type: 'nominal', title: null },
        x: {
          field: 'share',
          type: 'quantitative',
          title: 'share of bootstrap resamples',
          scale: { domain: [0, 1] },
          axis: { format: '%' },
        },
        color: {
          field: 'value',
          type: 'nominal',
          title: 'Collapse Point',
          scale: { domain: CP_VALUES, range: CP_COLORS },
        },
        order: { field: 'order', type: 'quantitative' },
      },
    },
  };
}
