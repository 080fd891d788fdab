import type { CompareResult } from './compare.js';
import type { CheckResult, CheckRow } from './evaluate.js';
import { ACCURACY } from './types.js';

/**
 * What `waver check` prints: Markdown for people (the failures as a short table, or on a pass
 * every row), JSON for pipelines (every row, passing or not, with CIs and n).
 */

export interface CheckReport {
  store: string;
  thresholds?: CheckResult;
  compare?: CompareResult;
  pass: boolean;
}

export function formatCheck(report: CheckReport, format: 'md' | 'json'): string {
  if (format === 'json') return `${JSON.stringify(toJson(report), null, 2)}\n`;
  const parts: string[] = [];
  if (report.thresholds) parts.push(thresholdsMd(report.thresholds));
  if (report.compare) parts.push(compareMd(report.compare));
  parts.push(report.pass ? 'waver check: PASS' : 'waver check: FAIL (exit 4)');
  return `${parts.join('\n\n')}\n`;
}

function toJson(report: CheckReport): unknown {
  const t = report.thresholds;
  const c = report.compare;
  return {
    store: report.store,
    pass: report.pass,
    ...(t && {
      thresholds: {
        pass: t.pass,
        suites: t.suites,
        // undefined values become null, so an unavailable metric is visible as such.
        rows: t.rows.map((r) => ({ ...r, value: r.value ?? null })),
      },
    }),
    ...(c && { compare: { ...c, pass: !c.worse } }),
  };
}

function thresholdsMd(t: CheckResult): string {
  const suites = t.suites.map((s) => `${s.protocol} ${s.hash.slice(0, 12)}`).join(', ') || 'none';
  const failed = t.rows.filter((r) => !r.pass);
  const lines = [
    `## Thresholds: ${t.rows.length - failed.length}/${t.rows.length} passed (suites: ${suites})`,
  ];
  const allowed = t.rows.filter((r) => r.pass && r.reason?.startsWith('unavailable'));
  // The failures when there are any; on a pass every row, so the figures checked are seen.
  const shown = failed.length > 0 ? failed : t.rows;
  if (shown.length > 0) {
    lines.push(
      '',
      '| model | protocol | metric | value [CI] | n | threshold | why |',
      '|---|---|---|---|---|---|---|',
    );
    for (const r of shown) lines.push(rowMd(r));
  }
  if (allowed.length > 0)
    lines.push(
      '',
      `${allowed.length} unavailable metric(s) passed with --allow-unavailable: ${allowed.map((r) => `${r.model} ${r.metric}`).join('; ')}`,
    );
  return lines.join('\n');
}

function rowMd(r: CheckRow): string {
  const cells = [r.model, r.protocol, r.metric, valueMd(r), countMd(r), r.threshold, r.reason ?? ''];
  return `| ${cells.map(escapeCell).join(' | ')} |`;
}

/** `90 responses`; paraphrase's `over` already starts with its count. */
function countMd(r: CheckRow): string {
  if (r.n === undefined) return '—';
  if (!r.over) return String(r.n);
  return r.over.startsWith(`${r.n} `) ? r.over : `${r.n} ${r.over}`;
}

function valueMd(r: CheckRow): string {
  if (r.value === undefined) return '—';
  const v = typeof r.value === 'number' ? fmt(r.value) : r.value;
  if (r.low !== undefined && r.high !== undefined) return `${v} [${fmt(r.low)}, ${fmt(r.high)}]`;
  return r.ci ? `${v} (${r.ci})` : v;
}

function compareMd(c: CompareResult): string {
  const { table, mcnemar, difference: d, n } = c.comparison;
  const all = c.tests[0];
  const unpaired = c.unpaired.base + c.unpaired.new + c.unpaired.unscored;
  const k = c.tests.length;
  const adjusted = k > 1 && c.adjust !== 'none';
  const lines = [
    `## Paired comparison (${c.protocol}, suite ${c.suite.hash.slice(0, 12)}${c.metric === ACCURACY ? '' : `, metric ${c.metric}`}): ${c.base.label} -> ${c.new.label}`,
    '',
    `${n} pairs (${c.unit.pair} answered by both) in ${c.comparison.clusters} ${c.unit.cluster}s${unpaired > 0 ? `; left out: ${c.unpaired.base} base-only, ${c.unpaired.new} new-only, ${c.unpaired.unscored} without a verdict` : ''}`,
    '',
    '| | new right | new wrong |',
    '|---|---|---|',
    `| base right | ${table.a} | ${table.b} |`,
    `| base wrong | ${table.c} | ${table.d} |`,
    '',
    `- ${c.metric}: base ${opt(c.comparison.baseAccuracy)} -> new ${opt(c.comparison.newAccuracy)}; difference (new - base) ${differenceMd(c, d)}`,
    `- McNemar exact (two-sided): b = ${mcnemar.b}, c = ${mcnemar.c}, p = ${pval(mcnemar.p)} (mid-p ${pval(mcnemar.midP)})${adjusted ? `, ${c.adjust}-adjusted p = ${pval(all?.pAdjusted ?? mcnemar.p)} over ${k} tests` : k > 1 ? `, not adjusted over the ${k} tests (--adjust none)` : ' (one test: nothing to adjust)'}`,
    `- decision: ${c.margin === undefined ? `fails when the ${adjusted ? 'adjusted ' : ''}p < ${c.alpha} with b > c and the CI lies below 0` : `non-inferiority at margin ${c.margin}: passes only when the CI's lower end is above -${c.margin}`}`,
  ];
  if (k > 1) {
    lines.push(
      '',
      `Per family (${k} tests: all pairs and ${k - 1} families; p ${adjusted ? `${c.adjust}-adjusted over the ${k}, CIs at ${pct(d.confidence)} (Bonferroni)` : 'not adjusted'}):`,
      '',
      `| scope | pairs | b | c | p (exact) | p ${adjusted ? c.adjust : '(not adjusted)'} | new - base [CI] | verdict |`,
      '|---|---|---|---|---|---|---|---|',
      ...c.tests.map((t) => {
        const m = t.comparison.mcnemar;
        const cells = [
          t.scope,
          String(t.comparison.n),
          String(m.b),
          String(m.c),
          pval(m.p),
          pval(t.pAdjusted),
          differenceMd(c, t.comparison.difference, false),
          t.verdict,
        ];
        return `| ${cells.map(escapeCell).join(' | ')} |`;
      }),
    );
  }
  lines.push('', `- verdict: ${c.verdict}`);
  return lines.join('\n');
}

function differenceMd(c: CompareResult, d: CompareResult['comparison']['difference'], long = true): string {
  if (d.estimate === undefined) return '— (no pairs)';
  const ends = `${d.low === undefined ? '—' : signed(d.low)}, ${d.high === undefined ? '—' : signed(d.high)}`;
  const ci = `${signed(d.estimate)} [${pct(d.confidence)} CI ${ends}]`;
  return long
    ? `${ci} (Newcombe's paired interval, design effect ${d.designEffect.toFixed(2)} over ${c.comparison.clusters} ${c.unit.cluster}s: no resampling, the same at every seed)`
    : ci;
}

function pct(confidence: number): string {
  return `${Number((confidence * 100).toFixed(2))}%`;
}

function fmt(x: number): string {
  return Math.abs(x) >= 100 ? x.toFixed(1) : x.toFixed(3);
}

function signed(x: number): string {
  return `${x >= 0 ? '+' : ''}${x.toFixed(3)}`;
}

function opt(x: number | undefined): string {
  return x === undefined ? '—' : x.toFixed(3);
}

function pval(p: number): string {
  return p < 1e-4 ? p.toExponential(2) : p.toFixed(4);
}

/** Model labels are the user's text: a pipe or newline must not break the table. */
function escapeCell(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}
