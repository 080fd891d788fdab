import { compareEvalModels, comparisonMarkdown, type EvalComparison } from '../../check/eval-comparison.js';
import { type DatasetSource, describeDatasetSource, distinctSources } from '../../data/provenance.js';
import { type ModelOrder, modelOrder } from '../../report/model-order.js';
import { type AdmissionContext, formatAdmissionTable, meaningJson } from './admission-table.js';
import { ladderVerdicts } from './check.js';
import { familyCodes, familyName } from './families/roster.js';
import { type MeaningCheck, meaningCaveat, meaningCheck } from './meaning-check.js';
import type { CollapsePoint, Interval, SetMetrics } from './metrics.js';
import { familyLabel, modelMarkdown, row } from './model-tables.js';
import { scoringSettingsJson } from './report-settings.js';
import type { LadderModelResults, LadderResults } from './results.js';
import { type AdmissionRow, type AnswerType, type LadderTest, LEVELS } from './types.js';

/**
 * The ladder's report: the paper's Table 3 (admission), and for each model Table 4 (Stability per
 * family), Table 5 (accuracy by measured level and the Collapse Point, with its bootstrap
 * distribution), accuracy by level over all families (Figure 1's data), Knowledge Boundary by
 * boundary type, the quadrant coordinates (Figure 2's data) and every family x level cell. Each
 * number says what it is over (n, seeds) and carries its 95% CI; what cannot be computed is shown
 * as unavailable with the reason, never as 0.
 */

export interface LadderReportInput {
  results: LadderResults;
  /** Admission rows when waver built the suite (the full Table 3). */
  admission?: { rows: AdmissionRow[]; context?: AdmissionContext };
  /** The suite's tests, for an admitted-only Table 3 when the suite came from a file. */
  tests?: readonly LadderTest[];
  /**
   * End on the models' comparison (a run's output; default). The report passes false: its eval
   * page opens on the same comparison (docs/report.md#comparison).
   */
  comparison?: boolean;
}

/** The models ranked and compared with `check --compare`'s test, when the output ends on it and there are two. */
function comparisonOf(input: LadderReportInput): EvalComparison | undefined {
  if (input.comparison === false) return undefined;
  return compareEvalModels(ladderVerdicts(input.results), { suiteHash: input.results.suite.hash });
}

/** Whether the suite's meaning gates ran: from its tests, else from the build's admission context. */
function meaningOf(input: LadderReportInput): MeaningCheck | undefined {
  return input.tests ? meaningCheck(input.tests) : input.admission?.context?.meaning;
}

/**
 * The datasets the suite's seeds came from, each with its licence (docs/datasets.md#licences);
 * empty for the built-in seeds, or when the report has no tests to read them from.
 */
export function ladderDatasets(input: LadderReportInput): DatasetSource[] {
  return distinctSources((input.tests ?? []).map((t) => t.dataset));
}

/** The line saying where the seeds came from and under which licence. */
function datasetLine(input: LadderReportInput): string | undefined {
  if (!input.tests) return undefined;
  const sources = ladderDatasets(input);
  const builtin = input.tests.some((t) => !t.dataset);
  const lines = sources.map((s) => describeDatasetSource(s));
  if (builtin) lines.push("`builtin`: waver's own seeds (licence: MIT, as waver)");
  return `Dataset: ${lines.join('; ')}.`;
}

/** The report header's line when the suite's meaning was not checked (docs/ladder-suite.md#meaning-not-verified). */
export function ladderCaveats(input: LadderReportInput): string[] {
  const m = meaningOf(input);
  const caveat = m && meaningCaveat(m);
  return caveat === undefined ? [] : [caveat];
}

/**
 * A run's output ends on the comparison and lists the models as it ranks them; the report hands
 * its input already in the eval's order (docs/report.md#model-order) and asks for no comparison.
 */
export function formatLadderReport(input: LadderReportInput, format: 'md' | 'json'): string {
  const ordered = input.comparison === false ? input : ladderInOrder(input, modelOrder(comparisonOf(input)));
  return format === 'json'
    ? `${JSON.stringify(ladderReportJson(ordered), null, 2)}\n`
    : ladderMarkdown(ordered);
}

/** The input with its models in `order`: every per-model table and chart lists them so. */
export function ladderInOrder<T extends LadderReportInput>(input: T, order: ModelOrder): T {
  return { ...input, results: { ...input.results, models: order.sort(input.results.models, (m) => m) } };
}

// --- JSON ------------------------------------------------------------------------------------

interface IntervalJson {
  value: number | null;
  low: number | null;
  high: number | null;
  unavailable?: string;
}

function intervalJson(iv: Interval): IntervalJson {
  return {
    value: iv.value ?? null,
    low: iv.low ?? null,
    high: iv.high ?? null,
    ...(iv.unavailable !== undefined && { unavailable: iv.unavailable }),
  };
}

function setJson(s: SetMetrics) {
  return {
    n: s.n,
    scored: s.scored,
    errors: s.errors,
    seeds: s.seeds,
    accuracy: intervalJson(s.accuracy),
    magnitude: intervalJson(s.magnitude),
    stability: intervalJson(s.stability),
    ...(s.recognise && { recognise: intervalJson(s.recognise) }),
  };
}

function collapseJson(c: CollapsePoint) {
  return {
    value: c.status === 'collapsed' ? `L${c.level}` : c.status === 'never' ? 'never' : null,
    status: c.status,
    ...(c.reason !== undefined && { unavailable: c.reason }),
    threshold: c.threshold ?? null,
    bootstrap: { resamples: c.resamples, distribution: c.distribution },
  };
}

export function ladderReportJson(input: LadderReportInput) {
  const { results } = input;
  const meaning = meaningOf(input);
  return {
    table: 'ladder',
    suite: results.suite,
    ...(input.tests && { datasets: ladderDatasets(input) }),
    settings: {
      ...scoringSettingsJson(results.settings),
      bootstrap: { clusters: 'seed', seed: results.seed },
      ...buildSettingsJson(input),
    },
    ...(meaning && meaningJson(meaning)),
    admission: admissionJson(input),
    models: results.models.map((m) => modelJson(m)),
    ...withComparison(comparisonOf(input)),
  };
}

function withComparison(comparison: EvalComparison | undefined): { comparison?: EvalComparison } {
  return comparison ? { comparison } : {};
}

/** The settings the suite was built with, when waver built it and recorded them; else why not. */
function buildSettingsJson(input: LadderReportInput) {
  const build = input.admission?.context?.settings;
  if (build) return { build };
  const why = input.admission
    ? 'the suite was built before its build settings were recorded'
    : 'the suite was read from a suite file, built elsewhere';
  return { build: null, buildUnrecorded: why };
}

function admissionJson(input: LadderReportInput): unknown {
  if (input.admission)
    return JSON.parse(formatAdmissionTable(input.admission.rows, 'json', input.admission.context));
  if (input.tests) {
    const rows = admittedRows(input.tests);
    return {
      table: 'ladder-admitted',
      note: 'from a suite file: candidate and rejection counts are recorded only when waver builds the suite',
      families: rows.map((r) => ({
        family: r.family,
        name: familyName(r.family),
        admitted: r.admitted,
        byMeasuredLevel: r.byLevel,
      })),
      total: rows.reduce((n, r) => n + r.admitted, 0),
    };
  }
  return null;
}

function modelJson(m: LadderModelResults) {
  const x = m.metrics;
  return {
    label: m.label,
    identity: m.identity,
    complete: m.complete,
    ...(m.incomplete && { incomplete: m.incomplete }),
    coverage: m.coverage,
    asked: m.asked,
    truncated: m.truncated,
    kbJudge: m.judge,
    answerJudge: m.answerJudge,
    baseline: setJson(x.baseline),
    families: x.families.map((f) => ({
      family: f.family,
      name: familyName(f.family),
      overall: setJson(f.overall),
      levels: Object.fromEntries(LEVELS.map((k) => [`L${k}`, setJson(f.levels[k])])),
      collapsePoint: collapseJson(f.collapse),
    })),
    accuracyByLevel: Object.fromEntries(
      ([0, ...LEVELS] as const).map((k) => [`L${k}`, setJson(x.byLevel[k])]),
    ),
    kbByType: x.kbByType.map((t) => ({ kbType: t.kbType, level: `L${t.level}`, ...setJson(t) })),
    quadrant: {
      mode: x.quadrant.mode,
      x: 'mean magnitude',
      y: x.quadrant.mode === 'waver' ? 'Stability' : 'mean score of the answered responses',
      xThreshold: x.quadrant.xThreshold ?? null,
      yThreshold: x.quadrant.yThreshold,
      ...(x.quadrant.baseline && { baseline: x.quadrant.baseline }),
      points: x.quadrant.points.map((p) => ({
        family: p.family,
        x: p.x ?? null,
        y: p.y ?? null,
        quadrant: p.quadrant ?? null,
        ...(p.unavailable !== undefined && { unavailable: p.unavailable }),
      })),
    },
  };
}

// --- Markdown --------------------------------------------------------------------------------

function ladderMarkdown(input: LadderReportInput): string {
  const { results } = input;
  const s = results.settings;
  const out: string[] = [];
  const baselines = results.suite.tests - results.suite.perturbed;
  out.push(
    `# Ladder — ${results.suite.seeds} seeds, ${results.suite.perturbed} perturbed tests + ${baselines} baseline tests`,
    '',
    `Suite \`${results.suite.name}\` ${results.suite.hash.slice(0, 12)}. Answer format: ${formatSetting(s.answerFormat)}; ` +
      `baseline asked ${s.baselineRepeats}x per seed; Collapse Point: lowest measured level with acc(Lk) < ${s.collapseRatio.toFixed(2)} x acc(L0); ` +
      `KB recognised at score >= ${s.kbRecognizeThreshold}. Intervals: ${Math.round(100 * s.confidence)}% percentile bootstrap, ` +
      `${s.resamples} resamples of seeds (seed ${results.seed}).${compatNote(s)}`,
    '',
  );
  const dataset = datasetLine(input);
  if (dataset) out.push(dataset, '');
  out.push(answerTypeLine(results), '');
  for (const caveat of ladderCaveats(input))
    out.push(`**${caveat[0]?.toUpperCase()}${caveat.slice(1)}.**`, '');
  // The meaning label is the header's line above, not said twice.
  if (input.admission)
    out.push(
      formatAdmissionTable(input.admission.rows, 'md', { ...input.admission.context, meaning: undefined }),
    );
  else if (input.tests) out.push(admittedMarkdown(input.tests));
  for (const m of results.models) out.push(modelMarkdown(m, results));
  const comparison = comparisonOf(input);
  if (comparison) out.push('## Comparison', '', ...comparisonMarkdown(comparison), '');
  return `${out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}

function formatSetting(f: LadderResults['settings']['answerFormat']): string {
  if (typeof f === 'string') return f;
  const own = Object.entries(f.models).map(([label, format]) => `${label} ${format}`);
  return `${f.default}${own.length > 0 ? ` (${own.join(', ')})` : ''}`;
}

/** What the seeds' answers are and how a reply is scored (docs/ladder.md#answer-types). */
const ANSWER_TYPE_SCORING: Record<AnswerType, string> = {
  number: 'number (a reply is correct within 0.1% of the gold)',
  choice: "choice (a stem with lettered options; correct = the key's letter, or its option's text)",
  text: 'text (a short answer; correct = the gold or an alias after SQuAD normalisation, else the answer judge decides, wrong without one)',
};

export function answerTypeLine(results: LadderResults): string {
  const types = results.suite.answerTypes;
  const s = results.settings;
  // parser and kbPrompt reproduce the reference code's math-only reading and prompt (docs/fidelity.md L54).
  const numberOnly = (['parser', 'kbPrompt'] as const).filter((k) => s[k] === 'reference');
  const note =
    numberOnly.length > 0 && types.some((t) => t !== 'number')
      ? ` The reference code's ${numberOnly.join(' and ')} apply to number seeds only: choice and text tests are read and asked as waver's.`
      : '';
  return `Answers: ${types.map((t) => ANSWER_TYPE_SCORING[t]).join('; ')}.${note}`;
}

/** Which decisions take the reference code's side (docs/fidelity.md#ladder), when any does. */
function compatNote(s: LadderResults['settings']): string {
  const sides = (['parser', 'kbPrompt', 'quadrant', 'collapse', 'stability', 'kbScoring'] as const).filter(
    (k) => s[k] === 'reference',
  );
  return sides.length === 0 ? '' : ` Reference code's behaviour for: ${sides.join(', ')}.`;
}

function admittedRows(tests: readonly LadderTest[]) {
  return familyCodes().map((family) => {
    const mine = tests.filter((t) => t.family === family);
    const byLevel = Object.fromEntries(
      LEVELS.map((k) => [`L${k}`, mine.filter((t) => t.measuredLevel === k).length]),
    ) as Record<string, number>;
    return { family, admitted: mine.length, byLevel };
  });
}

function admittedMarkdown(tests: readonly LadderTest[]): string {
  const rows = admittedRows(tests);
  const lines = [
    '## Admitted tests per family (Table 3)',
    '',
    'From a suite file: candidate and rejection counts are recorded only when waver builds the suite (`waver suite build` prints them).',
    '',
    row(['Family', 'Admitted', ...LEVELS.map((k) => `L${k}`)]),
    row(['---', '---:', ...LEVELS.map(() => '---:')]),
  ];
  for (const r of rows)
    lines.push(
      row([familyLabel(r.family), String(r.admitted), ...LEVELS.map((k) => String(r.byLevel[`L${k}`] ?? 0))]),
    );
  lines.push(
    row([
      '**Total**',
      String(rows.reduce((n, r) => n + r.admitted, 0)),
      ...LEVELS.map((k) => String(rows.reduce((n, r) => n + (r.byLevel[`L${k}`] ?? 0), 0))),
    ]),
  );
  lines.push('');
  return lines.join('\n');
}
