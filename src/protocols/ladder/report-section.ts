import type { ChartSpec } from '../../report/charts.js';
import { bandLines, type Row } from '../../report/html/chart-kit.js';
import type { HtmlKit } from '../../report/html/section.js';
import { cellBase, demoteHeadings, fmt3, legendHtml } from '../../report/html/section-kit.js';
import type { EvalSummary, HeadlineFigure, SectionModule, TranscriptCell } from '../../report/report-data.js';
import type { SuiteTest } from '../../run/types.js';
import type { Store } from '../../store/store.js';
import { type LadderAdmission, latestAdmission } from './admission-record.js';
import { LadderConfigSchema } from './config.js';
import type { Interval, SetMetrics } from './metrics.js';
import { type LadderResults, loadLadderResults, type ScoredCell } from './results.js';
import { LADDER_TESTS_SUITE } from './run.js';
import { answerTypeLine, formatLadderReport, ladderCaveats, ladderDatasets } from './tables.js';
import { ladderTestOf } from './test-meta.js';
import { type AnswerType, answerTypeOf, FAMILIES, FAMILY_NAMES, type LadderTest, LEVELS } from './types.js';

/**
 * The ladder's section: degradation curves (all families pooled, then per family) with their
 * bootstrap bands, the magnitude–stability quadrants with their thresholds, the Collapse Point's
 * bootstrap spread, and the paper's Tables 3, 4, 5 and KB by type from ladder-tables.ts.
 */

export interface LadderSectionData {
  results: LadderResults;
  tests: LadderTest[];
  /** The build's admission bookkeeping, when waver built the suite (admission-record.ts). */
  admission?: LadderAdmission;
}

const LEVEL_NAMES = ['L0', ...LEVELS.map((k) => `L${k}`)];
const CP_VALUES = ['L1', 'L2', 'L3', 'L4', 'L5', 'never', 'unavailable'];
const QUADRANT_FAMILIES = ['baseline', ...FAMILIES];
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

export const ladderSection: SectionModule<LadderSectionData> = {
  sectioned: true,
  claims: (suite) => suite.name === LADDER_TESTS_SUITE,

  load(store, suiteHash, ctx) {
    const config = ctx.runConfig(suiteHash) ?? {};
    const parsed = LadderConfigSchema.safeParse(config.ladder ?? {});
    const stored = store.suites.get(suiteHash);
    if (!stored) throw new Error(`suite ${suiteHash} is not in the store`);
    const results = loadLadderResults(store, suiteHash, {
      ...(parsed.success && { settings: parsed.data }),
      ...(typeof config.seed === 'number' && { seed: config.seed }),
      ...(typeof config.minCoverage === 'number' && { minCoverage: config.minCoverage }),
    });
    const admission = latestAdmission(store, suiteHash);
    return {
      results,
      tests: stored.tests.map((t) => ladderTestOf(stored, t)),
      ...(admission && { admission }),
    };
  },

  caveats(data) {
    return ladderCaveats(data);
  },

  summary(data) {
    return ladderSummary(data);
  },

  cells(store, suiteHash, data) {
    return ladderCells(store, suiteHash, data);
  },

  html(data, kit) {
    return ladderHtml(data, kit);
  },

  markdown(data) {
    return demoteHeadings(formatLadderReport(data, 'md'), 3);
  },

  json(data) {
    return JSON.parse(formatLadderReport(data, 'json'));
  },
};

// --- index ---------------------------------------------------------------------------------

/**
 * The index's line (docs/report.md#index): accuracy on the unperturbed baseline (L0) and at the
 * highest measured level any model has responses at, every family pooled (the two ends of the
 * paper's Figure 1 curve), each with its seed-bootstrap CI.
 */
function ladderSummary(data: LadderSectionData): EvalSummary {
  const { results } = data;
  const top = [...LEVELS].reverse().find((k) => results.models.some((m) => m.metrics.byLevel[k].n > 0));
  const figure = (name: string, s: SetMetrics): HeadlineFigure => ({
    name,
    ...(s.accuracy.value !== undefined && { value: s.accuracy.value }),
    ...(s.accuracy.low !== undefined && { low: s.accuracy.low }),
    ...(s.accuracy.high !== undefined && { high: s.accuracy.high }),
    over: `${s.n} response${s.n === 1 ? '' : 's'}, ${s.seeds} seed${s.seeds === 1 ? '' : 's'}`,
    ...(s.accuracy.value === undefined && { unavailable: s.accuracy.unavailable ?? 'no scored response' }),
  });
  const datasets = ladderDatasets(data).map((d) => ({
    name: d.name,
    ...(d.licence !== undefined && { licence: d.licence }),
    ...(d.licenceNote !== undefined && { licenceNote: d.licenceNote }),
  }));
  if (data.tests.some((t) => !t.dataset)) datasets.push({ name: 'builtin', licence: 'MIT' });
  return {
    datasets,
    models: results.models.map((m) => ({
      label: m.label,
      figures: [
        figure('accuracy at L0', m.metrics.baseline),
        ...(top !== undefined ? [figure(`accuracy at L${top}`, m.metrics.byLevel[top])] : []),
      ],
    })),
    interval: `${Math.round(100 * results.settings.confidence)}% seed bootstrap`,
  };
}

// --- transcript ------------------------------------------------------------------------------

function* ladderCells(
  store: Store,
  suiteHash: string,
  data: LadderSectionData | undefined,
): Generator<TranscriptCell> {
  const suite = store.suites.get(suiteHash);
  if (!suite) return;
  const tests = new Map<string, { suiteTest: SuiteTest; test: LadderTest | undefined }>();
  for (const t of suite.tests) {
    let test: LadderTest | undefined;
    try {
      test = ladderTestOf(suite, t);
    } catch {
      test = undefined;
    }
    tests.set(t.id, { suiteTest: t, test });
  }
  const threshold = data?.results.settings.kbRecognizeThreshold ?? 0.75;
  // Scored cells by model, test and repeat; a seed's baseline mean per model (for flips).
  const scored = new Map<string, Map<string, ScoredCell[]>>();
  const baseline = new Map<string, Map<string, { sum: number; n: number }>>();
  for (const m of data?.results.models ?? []) {
    const byTest = new Map<string, ScoredCell[]>();
    const bases = new Map<string, { sum: number; n: number }>();
    scored.set(m.identity, byTest);
    baseline.set(m.identity, bases);
    for (const c of m.cells) {
      let list = byTest.get(c.testId);
      if (!list) {
        list = [];
        byTest.set(c.testId, list);
      }
      list[c.repeat] = c;
      if (c.family === 'baseline' && c.score !== undefined) {
        const b = bases.get(c.seedId) ?? { sum: 0, n: 0 };
        b.sum += c.score;
        b.n++;
        bases.set(c.seedId, b);
      }
    }
  }
  for (const cell of store.cells.light(suiteHash)) {
    const entry = tests.get(cell.testId);
    if (entry && cell.repeat >= (entry.suiteTest.repeats ?? 1)) continue; // not part of the suite's design
    const base = cellBase('ladder', suiteHash, cell, entry?.suiteTest);
    const test = entry?.test;
    if (!test) {
      yield base;
      continue;
    }
    const s = scored.get(cell.modelIdentity)?.get(cell.testId)?.[cell.repeat];
    const score = s?.score;
    base.item = test.seedId;
    base.family = test.family;
    const level = test.family === 'baseline' ? 0 : test.measuredLevel;
    if (level !== undefined) base.level = `L${level}`;
    if (test.subtype !== undefined) base.variant = test.subtype;
    base.original = test.original;
    base.perturbed = test.text;
    base.gold = goldShown(test);
    if (s?.parsed !== undefined) base.parsed = String(s.parsed);
    if (score !== undefined) {
      base.score = score;
      base.correct = test.family === 'KB' ? score >= threshold : score >= 0.5;
    }
    // docs/report.md#flipped: wrong where the seed's baseline was mostly right (not KB: no baseline answer to keep).
    const b = baseline.get(cell.modelIdentity)?.get(test.seedId);
    base.flipped =
      test.family !== 'baseline' &&
      test.family !== 'KB' &&
      cell.status === 'done' &&
      score !== undefined &&
      b !== undefined &&
      b.sum / b.n >= 0.5 &&
      score < 0.5;
    const reason = s?.judge
      ? `judge (${s.judge.status}): ${s.judge.reason}`
      : s?.error
        ? s.error
        : s?.parsedVia !== undefined
          ? s.parsedVia === 'unparsed' || s.parsedVia === 'empty'
            ? UNPARSED[answerTypeOf(test)]
            : `parsed via ${s.parsedVia}`
          : undefined;
    if (reason !== undefined) base.reason = reason;
    yield base;
  }
}

/** The gold as a reader checks it: a choice key with its option, a short answer with how many aliases it has. */
function goldShown(test: LadderTest): string {
  const option = test.options?.find((o) => o.letter === test.gold);
  if (option) return `${test.gold}. ${option.text}`;
  const n = test.aliases?.length ?? 0;
  return n > 0 ? `${test.gold} (or ${n} alias${n === 1 ? '' : 'es'})` : String(test.gold);
}

/** "parsed via unparsed" says nothing: a response with no answer of its type in it is named as such. */
const UNPARSED: Record<AnswerType, string> = {
  number: 'no number found in the response (scored wrong)',
  choice: 'no single option letter or option text found in the response (scored wrong)',
  text: 'empty response (scored wrong)',
};

// --- HTML ------------------------------------------------------------------------------------

function iv(x: Interval): { value: number | null; low: number | null; high: number | null } {
  return { value: x.value ?? null, low: x.low ?? null, high: x.high ?? null };
}

function ladderHtml(data: LadderSectionData, kit: HtmlKit): string {
  const r = data.results;
  const s = r.settings;
  const ci = `${Math.round(100 * s.confidence)}% percentile bootstrap CI (${s.resamples} resamples of seeds)`;
  const parts: string[] = [];
  const color = { field: 'model', title: 'model', ...kit.modelColors };
  const baselines = r.suite.tests - r.suite.perturbed;
  parts.push(
    `<p class="lede">Suite <code>${kit.esc(r.suite.name)}</code> <code>${kit.esc(r.suite.hash.slice(0, 12))}</code>: ` +
      `${r.suite.seeds} seeds, ${r.suite.perturbed} perturbed tests and ${baselines} baseline tests (each asked ${s.baselineRepeats}x); ` +
      `${r.models.length} model${r.models.length === 1 ? '' : 's'}. ${kit.esc(ci)}.</p>`,
    `<p>${kit.esc(answerTypeLine(r))}</p>`,
  );
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

  // Degradation curves, all families pooled (the paper's Figure 1).
  const pooled: Row[] = [];
  for (const m of r.models)
    for (const [k, name] of LEVEL_NAMES.entries()) {
      const set = m.metrics.byLevel[k as 0 | 1 | 2 | 3 | 4 | 5];
      if (set.accuracy.value === undefined) continue;
      pooled.push({ model: m.label, level: name, n: set.n, ...iv(set.accuracy) });
    }
  const charts: string[] = [];
  charts.push(
    kit.chart(
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
    ),
  );
  parts.push(`<div class="charts">${charts.join('')}</div>`);

  // Per-family curves (L0 = the baseline, shared by every family).
  const families = FAMILIES.filter((f) =>
    r.models.some((m) => m.metrics.families.find((x) => x.family === f)?.overall.n),
  );
  const small: string[] = [];
  for (const f of families) {
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
    const title = `${FAMILY_NAMES[f]} (${f})`;
    const gaps =
      missing.size === 0
        ? ''
        : ` Not drawn: ${[...missing].map(([level, why]) => `${level} (${why})`).join('; ')}.`;
    if (!values.some((v) => v.level !== 'L0')) {
      small.push(
        `<figure class="chart unavailable"><figcaption><strong>${kit.esc(title)}</strong>Unavailable: no perturbed level has a score.${kit.esc(gaps)}</figcaption></figure>`,
      );
      continue;
    }
    small.push(
      kit.chart(
        bandLines({
          values,
          x: {
            field: 'level',
            title: f === 'KB' ? 'boundary type as level' : 'measured level',
            sort: LEVEL_NAMES,
          },
          y: { field: 'value', low: 'low', high: 'high', title: f === 'KB' ? 'rubric score' : 'accuracy' },
          color,
          width: 230,
          height: 150,
          legend: false,
        }),
        {
          title,
          caption:
            (f === 'KB'
              ? `Mean judge rubric score per boundary type (L1 missing information … L5 impossible premise); L0 = baseline accuracy. Band: ${ci}.`
              : `Accuracy per measured level; L0 = baseline accuracy. Band: ${ci}. n per cell in Table 5.`) +
            gaps,
        },
      ),
    );
  }
  if (small.length > 0) {
    parts.push(
      '<h3>Per-family curves</h3>',
      legendHtml(kit),
      `<div class="charts small">${small.join('')}</div>`,
    );
  }

  // Quadrants (the paper's Figure 2), one plot per model: thresholds drawn.
  const quads: string[] = [];
  for (const m of r.models) {
    const q = m.metrics.quadrant;
    const points: Row[] = q.points
      .filter((p) => p.x !== undefined && p.y !== undefined)
      .map((p) => ({ family: p.family, x: p.x ?? null, y: p.y ?? null, quadrant: p.quadrant ?? null }));
    if (q.baseline) points.push({ family: 'baseline', x: q.baseline.x, y: q.baseline.y, quadrant: null });
    if (points.length === 0) {
      quads.push(
        `<figure class="chart unavailable"><figcaption><strong>${kit.esc(m.label)}</strong>: quadrant plot unavailable (${kit.esc(
          q.points[0]?.unavailable ?? 'no family has a Stability',
        )})</figcaption></figure>`,
      );
      continue;
    }
    const caption =
      q.mode === 'waver'
        ? `One point per family: x = mean perturbation magnitude (1 − SIM), y = Stability (Σ correct × magnitude / Σ magnitude over the answered responses), as in the paper's Figure 2. Thresholds: x = ${fmt3(q.xThreshold)} (mean of the family magnitudes), y = ${fmt3(q.yThreshold)}.`
        : `One point per family and one for the baseline: x = mean perturbation magnitude (1 − SIM), y = mean score, both over the answered, scored responses, as the reference code plots it (ladder.quadrant: reference). Thresholds: x = ${fmt3(q.xThreshold)} (mean of the points' x, the baseline's 0 included), y = ${fmt3(q.yThreshold)}.`;
    quads.push(
      kit.chart(
        quadrantSpec(points, q.xThreshold, q.yThreshold, q.mode === 'waver' ? 'Stability' : 'mean score'),
        {
          title: `Magnitude vs ${q.mode === 'waver' ? 'Stability' : 'mean score'}: ${m.label}`,
          caption,
        },
      ),
    );
  }
  parts.push('<h3>Magnitude–stability quadrants</h3>', `<div class="charts">${quads.join('')}</div>`);

  // Collapse Point: point estimate in Table 5; here the share of resamples per value.
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
  if (cpRows.length > 0) {
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
    parts.push('<h3>Collapse Point</h3>', `<div class="charts">${cps.join('')}</div>`);
  }

  parts.push(
    '<details open class="tables"><summary>Tables 3, 4, 5, accuracy by level, Knowledge Boundary by type, quadrants, every family × level</summary>',
    kit.md(demoteHeadings(formatLadderReport(data, 'md'), 3)),
    '</details>',
  );
  return parts.join('\n');
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
  const shown = QUADRANT_FAMILIES.filter((f) => points.some((p) => p.family === f));
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
          scale: { domain: shown, range: shown.map((f) => QUADRANT_COLORS[QUADRANT_FAMILIES.indexOf(f)]) },
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
