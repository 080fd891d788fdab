import type { ModelEstimate } from '../run/estimate.js';
import type { RunResult } from '../run/run-suite.js';

/** The end-of-run summary: coverage per model (over its test x repeat cells), errors by reason, cost. */
export function formatRunSummary(result: RunResult, format: 'md' | 'json'): string {
  if (format === 'json') return `${JSON.stringify(result, null, 2)}\n`;
  const s = result.summary;
  const lines = [
    `## waver run ${result.runId}`,
    '',
    `suite \`${result.suite.name}\` (sha256 ${result.suite.hash.slice(0, 12)}, ${result.suite.tests} tests) x ${result.models.length} model(s) x ${result.repeats} repeat(s) · store \`${result.store}\``,
    '',
    '| model | cells | done | failed | pending | from store | coverage | status |',
    '|---|---:|---:|---:|---:|---:|---:|---|',
  ];
  for (const m of result.models) {
    const c = m.coverage;
    const share = c.total === 0 ? 1 : c.done / c.total;
    lines.push(
      `| ${m.label} | ${c.total} | ${c.done} | ${c.failed} | ${c.pending} | ${c.cached} | ${(share * 100).toFixed(1)}% | ${m.complete ? (c.failed || c.pending ? 'complete (some cells failed)' : 'complete') : 'INCOMPLETE'} |`,
    );
  }
  lines.push('');
  for (const m of result.models) {
    const errors = Object.entries(m.coverage.errorsByKind);
    if (errors.length)
      lines.push(`failed cells of ${m.label} by reason: ${errors.map(([k, n]) => `${k} ${n}`).join(', ')}`);
  }
  lines.push(
    `calls ${s.calls} (${s.retries} retries) · tokens ${s.tokensIn} in / ${s.tokensOut} out · ${(s.elapsedMs / 1000).toFixed(2)} s${s.aborted ? ' · ABORTED' : ''}`,
  );
  if (!result.complete) {
    lines.push(
      '',
      'The run is incomplete: re-run the same command to retry failed and pending cells (stored cells are not called again).',
    );
  }
  return `${lines.join('\n')}\n`;
}

export function formatEstimate(estimates: ModelEstimate[], format: 'md' | 'json'): string {
  if (format === 'json') return `${JSON.stringify({ dryRun: true, models: estimates }, null, 2)}\n`;
  const lines = [
    '## waver dry run (nothing called, nothing written)',
    '',
    '| model | cells | already stored | calls | prompt tokens (est.) | output tokens (max) | cost USD (max) |',
    '|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const e of estimates) {
    const cost =
      e.maxCostUsd === undefined ? 'unknown (no price)' : `${e.maxCostUsd.toFixed(4)} (${e.priceSource})`;
    lines.push(
      `| ${e.label} | ${e.cells} | ${e.stored} | ${e.calls} | ${e.inputTokens} | ${e.maxOutputTokens} | ${cost} |`,
    );
  }
  const calls = estimates.reduce((n, e) => n + e.calls, 0);
  lines.push('', `${calls} call(s) would be made. Prompt tokens are estimated at ~4 characters a token.`);
  return `${lines.join('\n')}\n`;
}
