import { type DatasetSource, describeDatasetSource, distinctSources } from '../../data/provenance.js';
import { type AdmissionContext, formatAdmissionTable, meaningJson } from './admission-table.js';
import { type MeaningCheck, meaningCaveat, meaningCheck } from './meaning-check.js';
import type { CollapsePoint, Interval, LadderMetrics, SetMetrics } from './metrics.js';
import type { LadderModelResults, LadderResults } from './results.js';
import {
  type AdmissionRow,
  type AnswerType,
  FAMILIES,
  FAMILY_NAMES,
  type Family,
  type LadderTest,
  LEVELS,
} from './types.js';

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

export function formatLadderReport(input: LadderReportInput, format: 'md' | 'json'): string {
  return format === 'json' ? `${JSON.stringify(ladderReportJson(input), null, 2)}\n` : ladderMarkdown(input);
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
      answerFormat: results.settings.answerFormat,
      ...(results.settings.maxTokens !== undefined && { maxTokens: results.settings.maxTokens }),
      reference: results.settings.reference,
      parser: results.settings.parser,
      kbPrompt: results.settings.kbPrompt,
      quadrant: results.settings.quadrant,
      collapse: results.settings.collapse,
      baselineRepeats: results.settings.baselineRepeats,
      collapseRatio: results.settings.collapseRatio,
      kbRecognizeThreshold: results.settings.kbRecognizeThreshold,
      stabilityThreshold: results.settings.stabilityThreshold,
      bootstrap: {
        resamples: results.settings.resamples,
        confidence: results.settings.confidence,
        clusters: 'seed',
        seed: results.seed,
      },
    },
    ...(meaning && meaningJson(meaning)),
    admission: admissionJson(input),
    models: results.models.map((m) => modelJson(m)),
  };
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
        name: FAMILY_NAMES[r.family],
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
      name: FAMILY_NAMES[f.family],
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
  return `${out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}

function modelMarkdown(m: LadderModelResults, results: LadderResults): string {
  const x = m.metrics;
  const lines: string[] = [];
  const cov = m.coverage;
  const share = cov.total === 0 ? 100 : (100 * cov.done) / cov.total;
  lines.push(`## ${m.label}`, '');
  lines.push(
    `Model \`${m.identity}\`. Coverage ${cov.done}/${cov.total} responses (${share.toFixed(1)}%), ` +
      `${cov.failed} failed (scored incorrect)${errorKinds(cov.errorsByKind)}, ${cov.pending} pending — ` +
      // Complete only with no failed or pending cell; above minCoverage the metrics still stand (docs/decisions.md#e8-exit-codes).
      (!m.complete
        ? `**INCOMPLETE**: ${m.incomplete}.`
        : cov.failed || cov.pending
          ? 'incomplete (re-run to retry them); the metrics stand, coverage being above minCoverage.'
          : 'complete.'),
  );
  lines.push(askedLine(m));
  lines.push(
    m.judge.needed === 0
      ? 'No Knowledge Boundary responses to judge.'
      : m.judge.scored === 0 && m.judge.identity === undefined
        ? `Knowledge Boundary: ${responses(m.judge.needed)} not judged (no judge: pass --judge SPEC); KB scores are unavailable.`
        : `Knowledge Boundary: ${m.judge.scored}/${responses(m.judge.needed)} judged by \`${m.judge.identity ?? 'judge'}\`` +
          (m.judge.missing > 0
            ? ` (${m.judge.missing} without a usable verdict, left out of KB scores).`
            : '.'),
  );
  const a = m.answerJudge;
  if (a.needed > 0)
    lines.push(
      a.identity === undefined
        ? `Short answers: ${responses(a.needed)} that SQuAD normalisation could not match to an accepted answer were scored wrong (no judge: pass --judge SPEC to have them decided).`
        : `Short answers: ${a.scored}/${responses(a.needed)} that SQuAD normalisation could not match decided by the answer judge \`${a.identity}\`` +
            (a.missing > 0 ? ` (${a.missing} without a usable verdict, scored wrong: fail closed).` : '.'),
    );
  lines.push('');

  // Table 4.
  lines.push(`### Stability per family (Table 4) — ${m.label}`, '');
  lines.push(
    'Stability = sum(correct x magnitude) / sum(magnitude) over answered responses; Accuracy = mean correctness, a failed call counted wrong; Magnitude = mean (1 - SIM).',
    '',
  );
  lines.push(row(['Family', 'Stability [95% CI]', 'Accuracy [95% CI]', 'Magnitude [95% CI]', 'n', 'seeds']));
  lines.push(row(['---', '---:', '---:', '---:', '---:', '---:']));
  // The reference's Baseline row is the baseline's mean score over answered calls (stability: reference).
  const baselineStability =
    results.settings.stability === 'reference'
      ? `${fmt(x.baseline.stability)} (mean score of the answered baseline responses, the reference's)`
      : `— (magnitude 0; the paper's Baseline row is acc(L0))`;
  lines.push(
    row([
      `Baseline (acc(L0), x${results.settings.baselineRepeats})`,
      baselineStability,
      fmt(x.baseline.accuracy),
      fmt(x.baseline.magnitude),
      String(x.baseline.n),
      String(x.baseline.seeds),
    ]),
  );
  for (const f of x.families)
    lines.push(
      row([
        familyLabel(f.family),
        fmt(f.overall.stability),
        fmt(f.overall.accuracy),
        fmt(f.overall.magnitude),
        counted(f.overall),
        String(f.overall.seeds),
      ]),
    );
  lines.push('');

  // Table 5.
  lines.push(`### Accuracy by measured level and Collapse Point (Table 5) — ${m.label}`, '');
  const acc0 = x.baseline.accuracy.value;
  lines.push(
    acc0 === undefined
      ? 'acc(L0) is unavailable (no baseline responses): no Collapse Point can be found.'
      : `acc(L0) = ${acc0.toFixed(3)} over ${x.baseline.n} baseline responses; threshold tau = ${results.settings.collapseRatio.toFixed(2)} x acc(L0) = ${(results.settings.collapseRatio * acc0).toFixed(3)}. ` +
          'Cells: accuracy (n responses); "—" = no tests at that level. CP "—" = never below tau through L5.',
    '',
  );
  lines.push(
    row([
      'Family',
      'L0',
      ...LEVELS.map((k) => `L${k}`),
      'Collapse Point',
      'CP bootstrap (share of resamples)',
    ]),
  );
  lines.push(row(['---', ...Array(7).fill('---:'), '---']));
  for (const f of x.families)
    lines.push(
      row([
        familyLabel(f.family),
        short(x.baseline),
        ...LEVELS.map((k) => short(f.levels[k])),
        collapseCell(f.collapse),
        collapseDistribution(f.collapse),
      ]),
    );
  lines.push('');

  lines.push(`### Accuracy by measured level, all families (Figure 1) — ${m.label}`, '');
  lines.push(row(['Level', 'Accuracy [95% CI]', 'n', 'seeds']));
  lines.push(row(['---', '---:', '---:', '---:']));
  for (const k of [0, ...LEVELS] as const) {
    const sm = x.byLevel[k];
    lines.push(row([k === 0 ? 'L0 (baseline)' : `L${k}`, fmt(sm.accuracy), counted(sm), String(sm.seeds)]));
  }
  lines.push('');

  lines.push(`### Knowledge Boundary by boundary type — ${m.label}`, '');
  lines.push(
    results.settings.kbScoring === 'reference'
      ? `Accuracy = mean judge score on the reference judge's scale {1, 0.75, 0} (kbScoring: reference); Recognise = share of judged responses scoring >= ${results.settings.kbRecognizeThreshold}, the reference's KB accuracy.`
      : `Accuracy = mean rubric score {1, 0.75, 0.25, 0} (the paper's formula); Recognise = share of judged responses scoring >= ${results.settings.kbRecognizeThreshold}.`,
    '',
  );
  lines.push(
    row(['Level', 'Boundary type', 'Accuracy [95% CI]', 'Recognise [95% CI]', 'n', 'judged', 'seeds']),
  );
  lines.push(row(['---', '---', '---:', '---:', '---:', '---:', '---:']));
  for (const t of x.kbByType)
    lines.push(
      row([
        `L${t.level}`,
        t.kbType,
        fmt(t.accuracy),
        t.recognise ? fmt(t.recognise) : '—',
        String(t.n),
        String(t.scored),
        String(t.seeds),
      ]),
    );
  const kb = x.families.find((f) => f.family === 'KB');
  if (kb)
    lines.push(
      row([
        'all',
        '**all types**',
        fmt(kb.overall.accuracy),
        kb.overall.recognise ? fmt(kb.overall.recognise) : '—',
        String(kb.overall.n),
        String(kb.overall.scored),
        String(kb.overall.seeds),
      ]),
    );
  lines.push('');

  lines.push(`### Quadrants (Figure 2) — ${m.label}`, '');
  lines.push(quadrantNote(x), '');
  const yName = x.quadrant.mode === 'waver' ? 'Stability (y)' : 'Mean score (y)';
  lines.push(row(['Family', 'Magnitude (x)', yName, 'Quadrant']));
  lines.push(row(['---', '---:', '---:', '---']));
  if (x.quadrant.baseline)
    lines.push(
      row(['Baseline', num(x.quadrant.baseline.x), num(x.quadrant.baseline.y), '— (in the x threshold)']),
    );
  for (const p of x.quadrant.points)
    lines.push(
      row([familyLabel(p.family), num(p.x), num(p.y), p.quadrant ?? `— (${p.unavailable ?? 'unavailable'})`]),
    );
  lines.push('');

  lines.push(`### Every family x measured level — ${m.label}`, '');
  lines.push(
    row(['Family', 'Level', 'n', 'seeds', 'Accuracy [95% CI]', 'Magnitude [95% CI]', 'Stability [95% CI]']),
  );
  lines.push(row(['---', '---', '---:', '---:', '---:', '---:', '---:']));
  for (const f of x.families)
    for (const k of LEVELS) {
      const c = f.levels[k];
      lines.push(
        row([
          f.family,
          `L${k}`,
          counted(c),
          String(c.seeds),
          fmt(c.accuracy),
          fmt(c.magnitude),
          fmt(c.stability),
        ]),
      );
    }
  lines.push('');
  return lines.join('\n');
}

function quadrantNote(x: LadderMetrics): string {
  const xt = x.quadrant.xThreshold;
  const at = xt === undefined ? '— (no families with tests)' : xt.toFixed(3);
  const axes =
    x.quadrant.mode === 'waver'
      ? `x = the family's mean magnitude, y = its Stability (the paper). Thresholds: x = ${at} ` +
        '(mean of the family mean magnitudes, a property of the suite)'
      : "x = the family's mean magnitude and y = its mean score, over its answered, scored responses (the reference code's plot). " +
        `Thresholds: x = ${at} (mean of the points' x, the baseline's 0 included)`;
  return (
    `${axes}, y = ${x.quadrant.yThreshold.toFixed(2)}. ` +
    'stable: low x, high y; robust: high x, high y; unstable: low x, low y; failure: high x, low y (high = at or above the threshold).'
  );
}

/** How the model was asked, and how many replies the output cap cut. */
function askedLine(m: LadderModelResults): string {
  const formats = m.asked.answerFormats.join(', ') || '—';
  const caps = m.asked.maxTokens.join(', ') || '—';
  const cut =
    m.truncated.n === 0
      ? 'no reply cut at the cap'
      : `**${responses(m.truncated.n)} cut at the cap** (finish_reason length), ${m.truncated.wrong} of them scored wrong`;
  return `Asked in the ${formats} answer format, output cap ${caps} tokens; ${cut}.`;
}

function formatSetting(f: LadderResults['settings']['answerFormat']): string {
  if (typeof f === 'string') return f;
  const own = Object.entries(f.models).map(([label, format]) => `${label} ${format}`);
  return `${f.default}${own.length > 0 ? ` (${own.join(', ')})` : ''}`;
}

/** Which decisions take the reference code's side (docs/fidelity.md#ladder), when any does. */
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

function compatNote(s: LadderResults['settings']): string {
  const sides = (['parser', 'kbPrompt', 'quadrant', 'collapse'] as const).filter((k) => s[k] === 'reference');
  return sides.length === 0 ? '' : ` Reference code's behaviour for: ${sides.join(', ')}.`;
}

function admittedRows(tests: readonly LadderTest[]) {
  return FAMILIES.map((family) => {
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

function responses(n: number): string {
  return `${n} response${n === 1 ? '' : 's'}`;
}

function familyLabel(f: Family): string {
  return `${FAMILY_NAMES[f]} (${f})`;
}

function num(v: number | undefined): string {
  return v === undefined ? '—' : v.toFixed(3);
}

/** `0.812 [0.750, 0.870]`, or `— (reason)` when unavailable. */
function fmt(iv: Interval): string {
  if (iv.value === undefined) return `— (${iv.unavailable ?? 'unavailable'})`;
  if (iv.low === undefined || iv.high === undefined) return `${iv.value.toFixed(3)} [CI —]`;
  return `${iv.value.toFixed(3)} [${iv.low.toFixed(3)}, ${iv.high.toFixed(3)}]`;
}

/** A Table 5 cell: accuracy (n), or — when no tests, or `— (n, unscored)` when none could be scored. */
function short(s: SetMetrics): string {
  if (s.n === 0) return '—';
  if (s.accuracy.value === undefined) return `— (n=${s.n}, ${s.accuracy.unavailable ?? 'unavailable'})`;
  return `${s.accuracy.value.toFixed(3)} (n=${s.n})`;
}

/** n, with the unscored responses named when some were left out. */
function counted(s: SetMetrics): string {
  return s.scored === s.n ? String(s.n) : `${s.n} (${s.scored} scored)`;
}

function collapseCell(c: CollapsePoint): string {
  if (c.status === 'collapsed') return `L${c.level}`;
  if (c.status === 'never') return '—';
  return `unavailable (${c.reason ?? 'unknown'})`;
}

function collapseDistribution(c: CollapsePoint): string {
  if (c.resamples === 0) return '—';
  return c.distribution
    .map((d) => `${d.value === 'never' ? '—' : d.value} ${(100 * d.share).toFixed(1)}%`)
    .join(', ');
}

function errorKinds(kinds: Record<string, number>): string {
  const parts = Object.entries(kinds).map(([k, n]) => `${k} ${n}`);
  return parts.length === 0 ? '' : ` (${parts.join(', ')})`;
}

function row(cells: readonly string[]): string {
  return `| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`;
}
