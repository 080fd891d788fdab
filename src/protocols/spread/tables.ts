import { describeDatasetSource } from '../../data/provenance.js';
import { varianceJson, varianceMarkdown } from '../variance-figure.js';
import type { Interval } from './estimators/index.js';
import type { SpreadModelResult, SpreadResults } from './results.js';

/**
 * The spread report in Markdown or JSON: per model the distribution of accuracy over templates
 * (quantiles 5/25/50/75/95 with intervals), the best and worst template quoted, the spread, the
 * calls spent; then each paired comparison. A figure that cannot be computed is "unavailable"
 * with its reason, never 0.
 */

const pct = (x: number) => (Number.isNaN(x) ? '—' : `${(100 * x).toFixed(1)}%`);
const withCi = (i: Interval) => `${pct(i.value)} [${pct(i.lo)}, ${pct(i.hi)}]`;
const signed = (i: Interval) => {
  const p = (x: number) => `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)}`;
  return `${p(i.value)} pts [${p(i.lo)}, ${p(i.hi)}]`;
};

/** One model's figures as JSON: what `--format json` and the report's JSON carry. */
export function modelJson(m: SpreadModelResult) {
  const counts = {
    calls: m.calls,
    done: m.done,
    failed: m.failed,
    unparsed: m.unparsed,
    scoredBy: m.scoredBy,
    scoreCalls: m.scoreCalls,
  };
  const head = {
    label: m.label,
    identity: m.identity,
    ...counts,
    posix: m.posix,
    variance: varianceJson(m.variance),
  };
  if (!m.estimate) return { ...head, unavailable: 'no cell was answered: no template has an accuracy' };
  const e = m.estimate;
  return {
    ...head,
    method: e.method,
    observedCells: e.observedCells,
    quantiles: e.quantiles,
    best: m.best,
    worst: m.worst,
    spread: e.spread,
    perTemplate: e.perTemplate.map((v) => (Number.isNaN(v) ? null : v)),
  };
}

export function spreadJson(results: SpreadResults) {
  const { templateTexts, ...suite } = results.suite;
  return {
    protocol: 'spread',
    suite,
    templates: templateTexts,
    settings: results.settings,
    models: results.models.map(modelJson),
    comparisons: results.comparisons,
  };
}

function modelMarkdown(m: SpreadModelResult): string[] {
  const calls = `${m.calls} calls (${m.done} answered: ${m.scoredBy.loglik} by log-likelihood, ${m.scoredBy.reply} by reply, ${m.unparsed} unparsed; ${m.failed} failed), and ${m.scoreCalls} score calls`;
  if (!m.estimate) return [`### ${m.label}`, '', `${calls}. Unavailable: no cell was answered.`, ''];
  const e = m.estimate;
  const quote = (t: NonNullable<SpreadModelResult['best']>) =>
    `\`${t.id}\` ${withCi(t)}\n\n\`\`\`\n${t.text}\n\`\`\``;
  return [
    `### ${m.label}`,
    '',
    `${calls}; ${e.observedCells} cells observed; estimator: ${e.method}.`,
    '',
    '| quantile over templates | accuracy [95% CI] |',
    '|---|---|',
    ...e.quantiles.map((q) => `| ${Math.round(q.q * 100)}th | ${withCi(q)} |`),
    `| spread (best - worst) | ${withCi(e.spread)} |`,
    '',
    ...(m.best ? [`Best template: ${quote(m.best)}`, ''] : []),
    ...(m.worst ? [`Worst template: ${quote(m.worst)}`, ''] : []),
    posixLine(m),
    '',
    ...varianceMarkdown('Where the variance comes from', m.variance),
  ];
}

/** POSIX with its n, or why it is unavailable (never 0). */
function posixLine(m: SpreadModelResult): string {
  const p = m.posix;
  if ('unavailable' in p) return `POSIX: unavailable (${p.unavailable}).`;
  const ci =
    p.lo === undefined || p.hi === undefined
      ? 'no interval with 1 item'
      : `95% CI [${p.lo.toFixed(4)}, ${p.hi.toFixed(4)}]`;
  return `POSIX (prompt sensitivity, ${p.variant}'s Definition 3): ${p.value.toFixed(4)} (${ci}; n = ${p.items} items answered under 2+ templates).`;
}

export function spreadMarkdown(results: SpreadResults): string {
  const s = results.suite;
  const lines = [
    `## Spread over prompt templates: ${s.dataset}`,
    '',
    `${s.templates} templates x ${s.items} items = ${s.grid} cells; ${s.planned} asked of each model (${pct(s.planned / Math.max(1, s.grid))} of the grid)${s.search ? `, by a Thompson search for the ${s.search} template` : ''}.`,
    ...(s.datasetSource ? [`Dataset: ${describeDatasetSource(s.datasetSource)}.`] : []),
    '',
    ...results.models.flatMap(modelMarkdown),
  ];
  if (results.comparisons.length > 0) {
    lines.push(
      '### Paired by template',
      '',
      '| base | other | templates | mean difference | spread difference | other ahead |',
      '|---|---|---|---|---|---|',
    );
    for (const c of results.comparisons)
      lines.push(
        c.meanDifference && c.spreadDifference && c.otherAhead
          ? `| ${c.base} | ${c.other} | ${c.templates} | ${signed(c.meanDifference)} | ${signed(c.spreadDifference)} | ${withCi(c.otherAhead)} |`
          : `| ${c.base} | ${c.other} | 0 | unavailable: ${c.unavailable} | | |`,
      );
    lines.push('');
  }
  return lines.join('\n');
}

export function formatSpreadReport(
  results: SpreadResults,
  format: 'md' | 'json',
  extras: { runs?: { calls: number; cells: number }[]; notes?: { model: string; reason: string }[] } = {},
): string {
  const notes = extras.notes ?? [];
  if (format === 'json')
    return `${JSON.stringify({ ...spreadJson(results), ...(extras.runs && { runs: extras.runs }), scoringNotes: notes }, null, 2)}\n`;
  return `${spreadMarkdown(results)}\n${notes.map((n) => `Note: ${n.reason}.\n`).join('')}`;
}
