import { familyName, keepsNoAnswer } from './families/roster.js';
import type { CollapsePoint, Interval, LadderMetrics, SetMetrics } from './metrics.js';
import type { LadderModelResults, LadderResults } from './results.js';
import { type Family, LEVELS } from './types.js';

/**
 * One model's part of the ladder's Markdown report (tables.ts writes the rest): how it was asked
 * and covered, then its tables in the paper's order, each its own function. Every table ends with
 * a blank line, so the part is their lines one after another.
 */
export function modelMarkdown(m: LadderModelResults, results: LadderResults): string {
  return [
    ...modelHeader(m),
    ...stabilityTable(m, results),
    ...collapseTable(m, results),
    ...levelsTable(m),
    ...kbTypesTable(m, results),
    ...quadrantTable(m),
    ...familyLevelTable(m),
  ].join('\n');
}

/** The model's heading, its coverage, how it was asked and what the judges decided. */
function modelHeader(m: LadderModelResults): string[] {
  const lines = [`## ${m.label}`, '', coverageLine(m), askedLine(m), kbJudgeLine(m)];
  const answers = answerJudgeLine(m);
  if (answers !== undefined) lines.push(answers);
  lines.push('');
  return lines;
}

function coverageLine(m: LadderModelResults): string {
  const cov = m.coverage;
  const share = cov.total === 0 ? 100 : (100 * cov.done) / cov.total;
  return (
    `Model \`${m.identity}\`. Coverage ${cov.done}/${cov.total} responses (${share.toFixed(1)}%), ` +
    `${cov.failed} failed (scored incorrect)${errorKinds(cov.errorsByKind)}, ${cov.pending} pending — ` +
    // Complete only with no failed or pending cell; above minCoverage the metrics still stand (docs/decisions.md#e8-exit-codes).
    (!m.complete
      ? `**INCOMPLETE**: ${m.incomplete}.`
      : cov.failed || cov.pending
        ? 'incomplete (re-run to retry them); the metrics stand, coverage being above minCoverage.'
        : 'complete.')
  );
}

function kbJudgeLine(m: LadderModelResults): string {
  return m.judge.needed === 0
    ? 'No Knowledge Boundary responses to judge.'
    : m.judge.scored === 0 && m.judge.identity === undefined
      ? `Knowledge Boundary: ${responses(m.judge.needed)} not judged (no judge: pass --judge SPEC); KB scores are unavailable.`
      : `Knowledge Boundary: ${m.judge.scored}/${responses(m.judge.needed)} judged by \`${m.judge.identity ?? 'judge'}\`` +
        (m.judge.missing > 0
          ? ` (${m.judge.missing} without a usable verdict, left out of KB scores).`
          : '.');
}

/** What became of the short answers SQuAD normalisation could not match; undefined when there were none. */
function answerJudgeLine(m: LadderModelResults): string | undefined {
  const a = m.answerJudge;
  if (a.needed === 0) return undefined;
  return a.identity === undefined
    ? `Short answers: ${responses(a.needed)} that SQuAD normalisation could not match to an accepted answer were scored wrong (no judge: pass --judge SPEC to have them decided).`
    : `Short answers: ${a.scored}/${responses(a.needed)} that SQuAD normalisation could not match decided by the answer judge \`${a.identity}\`` +
        (a.missing > 0 ? ` (${a.missing} without a usable verdict, scored wrong: fail closed).` : '.');
}

/** The paper's Table 4: Stability, Accuracy and Magnitude per family, the baseline first. */
function stabilityTable(m: LadderModelResults, results: LadderResults): string[] {
  const x = m.metrics;
  const lines = [
    `### Stability per family (Table 4) — ${m.label}`,
    '',
    'Stability = sum(correct x magnitude) / sum(magnitude) over answered responses; Accuracy = mean correctness, a failed call counted wrong; Magnitude = mean (1 - SIM).',
    '',
    row(['Family', 'Stability [95% CI]', 'Accuracy [95% CI]', 'Magnitude [95% CI]', 'n', 'seeds']),
    row(['---', '---:', '---:', '---:', '---:', '---:']),
  ];
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
  return lines;
}

/** The paper's Table 5: accuracy per family by measured level, its Collapse Point and the point's bootstrap spread. */
function collapseTable(m: LadderModelResults, results: LadderResults): string[] {
  const x = m.metrics;
  const acc0 = x.baseline.accuracy.value;
  const lines = [
    `### Accuracy by measured level and Collapse Point (Table 5) — ${m.label}`,
    '',
    acc0 === undefined
      ? 'acc(L0) is unavailable (no baseline responses): no Collapse Point can be found.'
      : `acc(L0) = ${acc0.toFixed(3)} over ${x.baseline.n} baseline responses; threshold tau = ${results.settings.collapseRatio.toFixed(2)} x acc(L0) = ${(results.settings.collapseRatio * acc0).toFixed(3)}. ` +
        'Cells: accuracy (n responses); "—" = no tests at that level. CP "—" = never below tau through L5.',
    '',
    row([
      'Family',
      'L0',
      ...LEVELS.map((k) => `L${k}`),
      'Collapse Point',
      'CP bootstrap (share of resamples)',
    ]),
    row(['---', ...Array(7).fill('---:'), '---']),
  ];
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
  return lines;
}

/** Accuracy per measured level with every family pooled: the data of the paper's Figure 1. */
function levelsTable(m: LadderModelResults): string[] {
  const x = m.metrics;
  const lines = [
    `### Accuracy by measured level, all families (Figure 1) — ${m.label}`,
    '',
    row(['Level', 'Accuracy [95% CI]', 'n', 'seeds']),
    row(['---', '---:', '---:', '---:']),
  ];
  for (const k of [0, ...LEVELS] as const) {
    const sm = x.byLevel[k];
    lines.push(row([k === 0 ? 'L0 (baseline)' : `L${k}`, fmt(sm.accuracy), counted(sm), String(sm.seeds)]));
  }
  lines.push('');
  return lines;
}

/** Knowledge Boundary per boundary type (each type is a level), and all types together. */
function kbTypesTable(m: LadderModelResults, results: LadderResults): string[] {
  const x = m.metrics;
  const lines = [
    `### Knowledge Boundary by boundary type — ${m.label}`,
    '',
    results.settings.kbScoring === 'reference'
      ? `Accuracy = share of judged responses scoring >= ${results.settings.kbRecognizeThreshold} on the reference judge's scale {1, 0.75, 0}, the reference's KB accuracy (kbScoring: reference; docs/fidelity.md L25); Recognise = the same share.`
      : `Accuracy = mean rubric score {1, 0.75, 0.25, 0} (the paper's formula); Recognise = share of judged responses scoring >= ${results.settings.kbRecognizeThreshold}.`,
    '',
    row(['Level', 'Boundary type', 'Accuracy [95% CI]', 'Recognise [95% CI]', 'n', 'judged', 'seeds']),
    row(['---', '---', '---:', '---:', '---:', '---:', '---:']),
  ];
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
  const kb = x.families.find((f) => keepsNoAnswer(f.family));
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
  return lines;
}

/** Each family's point and quadrant: the data of the paper's Figure 2. */
function quadrantTable(m: LadderModelResults): string[] {
  const x = m.metrics;
  const yName = x.quadrant.mode === 'waver' ? 'Stability (y)' : 'Mean score (y)';
  const lines = [
    `### Quadrants (Figure 2) — ${m.label}`,
    '',
    quadrantNote(x),
    '',
    row(['Family', 'Magnitude (x)', yName, 'Quadrant']),
    row(['---', '---:', '---:', '---']),
  ];
  if (x.quadrant.baseline)
    lines.push(
      row(['Baseline', num(x.quadrant.baseline.x), num(x.quadrant.baseline.y), '— (in the x threshold)']),
    );
  for (const p of x.quadrant.points)
    lines.push(
      row([familyLabel(p.family), num(p.x), num(p.y), p.quadrant ?? `— (${p.unavailable ?? 'unavailable'})`]),
    );
  lines.push('');
  return lines;
}

/** Every family x measured level cell with its three figures. */
function familyLevelTable(m: LadderModelResults): string[] {
  const lines = [
    `### Every family x measured level — ${m.label}`,
    '',
    row(['Family', 'Level', 'n', 'seeds', 'Accuracy [95% CI]', 'Magnitude [95% CI]', 'Stability [95% CI]']),
    row(['---', '---', '---:', '---:', '---:', '---:', '---:']),
  ];
  for (const f of m.metrics.families)
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
  return lines;
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

function responses(n: number): string {
  return `${n} response${n === 1 ? '' : 's'}`;
}

export function familyLabel(f: Family): string {
  return `${familyName(f)} (${f})`;
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

export function row(cells: readonly string[]): string {
  return `| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`;
}
