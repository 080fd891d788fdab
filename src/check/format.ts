import type { CompareResult } from './compare.js';
import type { CheckResult, CheckRow } from './evaluate.js';

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
  const conf = `${Math.round(d.confidence * 100)}%`;
  const diff =
    d.estimate === undefined
      ? '— (no pairs)'
      : `${signed(d.estimate)} [${conf} CI ${d.low === undefined ? '—' : signed(d.low)}, ${d.high === undefined ? '—' : signed(d.high)}] (cluster bootstrap over ${c.comparison.clusters} ${c.unit.cluster}s, ${d.resamples} resamples)`;
  const unpaired = c.unpaired.base + c.unpaired.new + c.unpaired.unscored;
  return [
    `## Paired comparison (${c.protocol}, suite ${c.suite.hash.slice(0, 12)}): ${c.base.label} -> ${c.new.label}`,
    '',
    `${n} pairs (${c.unit.pair} answered by both) in ${c.comparison.clusters} ${c.unit.cluster}s${unpaired > 0 ? `; left out: ${c.unpaired.base} base-only, ${c.unpaired.new} new-only, ${c.unpaired.unscored} without a verdict` : ''}`,
    '',
    '| | new right | new wrong |',
    '|---|---|---|',
    `| base right | ${table.a} | ${table.b} |`,
    `| base wrong | ${table.c} | ${table.d} |`,
    '',
    `- accuracy: base ${opt(c.comparison.baseAccuracy)} -> new ${opt(c.comparison.newAccuracy)}; difference (new - base) ${diff}`,
    `- McNemar exact (two-sided): b = ${mcnemar.b}, c = ${mcnemar.c}, p = ${pval(mcnemar.p)} (mid-p ${pval(mcnemar.midP)})`,
    `- verdict: ${c.verdict}`,
  ].join('\n');
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
