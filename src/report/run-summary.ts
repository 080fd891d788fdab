import type { BudgetLimits } from '../run/budget.js';
import type { ModelEstimate } from '../run/estimate.js';
import type { ModelOutcome, RunResult } from '../run/run-suite.js';
import { formatShard } from '../run/shard.js';
import type { FailedKind } from '../store/store.js';

/** The end-of-run summary: coverage per model (over its test x repeat cells), errors by reason, cost. */
export function formatRunSummary(result: RunResult, format: 'md' | 'json'): string {
  if (format === 'json') return `${JSON.stringify(result, null, 2)}\n`;
  const s = result.summary;
  const lines = [
    `## waver run ${result.runId}`,
    '',
    `suite \`${result.suite.name}\` (sha256 ${result.suite.hash.slice(0, 12)}, ${result.shard ? `shard ${formatShard(result.shard)}: ` : ''}${result.suite.tests} tests) x ${result.models.length} model(s) x ${result.repeats} repeat(s) · store \`${result.store}\``,
    '',
    '| model | cells | done | failed | pending | from store | coverage | status |',
    '|---|---:|---:|---:|---:|---:|---:|---|',
  ];
  for (const m of result.models) {
    const c = m.coverage;
    const share = c.total === 0 ? 1 : c.done / c.total;
    lines.push(
      `| ${m.label} | ${c.total} | ${c.done} | ${c.failed} | ${c.pending} | ${c.cached} | ${(share * 100).toFixed(1)}% | ${modelStatus(m)} |`,
    );
  }
  lines.push('');
  for (const m of result.models)
    if (m.failures.length) lines.push(`failed cells of ${m.label} by reason: ${formatFailures(m.failures)}`);
  lines.push(
    `calls ${s.calls} (${s.retries} retries) · tokens ${s.tokensIn} in / ${s.tokensOut} out · ${(s.elapsedMs / 1000).toFixed(2)} s${s.stopReason ? ` · STOPPED: ${s.stopReason}` : s.aborted ? ' · ABORTED' : ''}`,
  );
  if (!result.complete) {
    lines.push(
      '',
      'The run is incomplete: re-run the same command to retry failed and pending cells (stored cells are not called again).',
    );
  }
  return `${lines.join('\n')}\n`;
}

/**
 * What the answers called in each suite's run hold besides their text, for every protocol's run
 * whatever its summary shows (`waver: ladder-tests · refusals: 3`). Nothing when there is none.
 */
export function formatAnswerNotes(runs: readonly RunResult[]): string[] {
  return runs.flatMap((run) => answerNotes(run.summary).map((note) => `waver: ${run.suite.name} · ${note}`));
}

/**
 * What the answers called in a suite's run hold besides their text: refusals and filtered answers
 * (docs/decisions.md E34), and usage left out of the totals (E36). Nothing when there is none.
 */
function answerNotes(s: RunResult['summary']): string[] {
  const answers = [
    ...(s.refusals ? [`refusals: ${s.refusals}`] : []),
    ...(s.contentFiltered ? [`content filtered: ${s.contentFiltered}`] : []),
  ];
  return [
    ...(answers.length ? [answers.join(' · ')] : []),
    ...(s.implausibleUsage
      ? [`usage refused on ${s.implausibleUsage} call(s): left out of the token totals`]
      : []),
  ];
}

/**
 * A model is complete when none of its cells failed or is pending; below minCoverage its metrics
 * are not shown as complete either (docs/decisions.md#e8-exit-codes).
 */
function modelStatus(m: ModelOutcome): string {
  if (m.stopped) return `STOPPED at ${m.stopped.kind}`;
  if (m.coverage.failed === 0 && m.coverage.pending === 0) return 'complete';
  return m.complete ? 'INCOMPLETE' : 'INCOMPLETE, below minCoverage';
}

/** `client 3 — "the prompt (2502 tokens) ..."; timeout 1 — "..."`: each kind, its count and first message. */
export function formatFailures(failures: readonly FailedKind[], maxMessage = 300): string {
  return failures
    .map((f) => {
      if (f.message === undefined) return `${f.kind} ${f.count}`;
      const message = f.message.length > maxMessage ? `${f.message.slice(0, maxMessage - 1)}…` : f.message;
      return `${f.kind} ${f.count} — ${JSON.stringify(message)}`;
    })
    .join('; ');
}

/**
 * The lines a run command ends with on stderr when it did not finish every cell
 * (docs/decisions.md#e8-exit-codes): per suite and model, the failed cells by kind with the first
 * message of each, and the pending ones; then how to go on. `runs` are every suite the command ran
 * (the systems under test's and the roles'); none when it completed. `stoppedBy` says what stopped
 * it and what it spent (its budget, docs/decisions.md E37), on the line that says how to resume.
 */
export function formatRunEnd(
  runs: readonly RunResult[],
  aborted: boolean,
  cache = true,
  stoppedBy?: string,
): string[] {
  const lines: string[] = [];
  let done = 0;
  let failed = 0;
  let pending = 0;
  const stopped = new Map<string, string>();
  for (const run of runs)
    for (const m of run.models) {
      const c = m.coverage;
      done += c.done;
      failed += c.failed;
      pending += c.pending;
      if (m.stopped) stopped.set(m.label, m.stopped.kind === 'quota' ? 'quota' : 'API key');
      if (c.failed === 0 && (c.pending === 0 || aborted) && !m.stopped) continue;
      // A model stopped at a refused key or a spent quota (docs/decisions.md E35) has its error said
      // once, first; its failures are counted by kind.
      const failures = m.stopped ? m.failures.map((f) => ({ kind: f.kind, count: f.count })) : m.failures;
      const parts = [
        `${c.done} of ${c.total} done`,
        ...(c.failed ? [`failed ${c.failed}: ${formatFailures(failures)}`] : []),
        ...(c.pending ? [`${c.pending} pending`] : []),
      ];
      const stop = m.stopped
        ? `stopped at its first ${m.stopped.kind} error, no further calls to it: ${m.stopped.message} (`
        : '';
      lines.push(`${run.suite.name} · ${m.label}: ${stop}${parts.join(', ')}${stop ? ')' : ''}`);
    }
  // Pending cells a batch answers later (docs/batch.md): where they are.
  if (!aborted)
    for (const run of runs)
      for (const note of run.summary.batchNotes ?? []) lines.push(`${run.suite.name} · ${note}`);
  const counts = `${done} cells done, ${failed ? `${failed} failed, ` : ''}${pending} pending`;
  // Under --no-cache the same command again would call every stored cell again.
  const again = cache
    ? 're-run the same command'
    : 're-run the same command without --no-cache (with it, every cell is called again)';
  const stop = stoppedBy === undefined ? 'stopped:' : `stopped by ${stoppedBy};`;
  if (aborted) lines.push(`${stop} ${again} to resume${runs.length ? ` (${counts})` : ''}`);
  else if (stopped.size > 0) {
    const fix = [...stopped].map(([label, what]) => `the ${what} of ${label}`).join(', ');
    lines.push(`fix ${fix}, then ${again} (${counts}; stored cells are not called again)`);
  } else if (failed || pending)
    lines.push(
      `incomplete: ${again} to retry the failed and pending cells (${counts}; stored cells are not called again)`,
    );
  return lines.map((l) => `waver: ${l}`);
}

export function formatEstimate(
  estimates: ModelEstimate[],
  format: 'md' | 'json',
  limits: BudgetLimits = {},
): string {
  const stop = budgetStop(estimates, limits);
  if (format === 'json')
    return `${JSON.stringify({ dryRun: true, models: estimates, ...(stop && { budget: stop }) }, null, 2)}\n`;
  const lines = [
    '## waver dry run (nothing called, nothing written)',
    '',
    '| model | role | cells | already stored | calls | prompt tokens (est.) | output tokens (max) | cost USD (max) |',
    '|---|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const e of estimates) {
    const cost =
      e.maxCostUsd === undefined ? 'unknown (no price)' : `${e.maxCostUsd.toFixed(4)} (${e.priceSource})`;
    const role = e.stage === undefined ? e.role : `${e.role} (${e.stage})`;
    // A bound's figures are at most these (docs/decisions.md E39).
    const at = e.bound ? '≤ ' : '';
    lines.push(
      `| ${e.label} | ${role} | ${at}${e.cells} | ${e.stored} | ${at}${e.calls} | ${at}${e.inputTokens} | ${at}${e.maxOutputTokens} | ${e.maxCostUsd === undefined ? '' : at}${cost} |`,
    );
  }
  const calls = estimates.reduce((n, e) => n + e.calls, 0);
  const tokens = 'Prompt tokens are estimated at ~4 characters a token.';
  lines.push(
    '',
    estimates.some((e) => e.bound)
      ? `At most ${calls} call(s) would be made: a row marked ≤ is a bound, as its calls depend on answers not given yet. ${tokens}`
      : `${calls} call(s) would be made. ${tokens}`,
    ...(stop ? [budgetLine(stop)] : []),
  );
  return `${lines.join('\n')}\n`;
}

/** Where the command's budget would stop the run these rows describe, or that it would not. */
export interface BudgetStop {
  limit: 'maxCalls' | 'maxCost';
  value: number;
  /** The stage (role and suite) whose calls reach it, or undefined when the whole run stays under it. */
  stage?: string;
  /** What the stages before it and it would spend, by the rows' figures (calls, or USD at most). */
  before: number;
  through: number;
  /** A row it sums is a bound (≤): the figures are the most, so the stop may come later, or not at all. */
  bound: boolean;
}

/**
 * The stage a budget stops a run in (docs/decisions.md E37, E39): the rows are in the order the run
 * asks their stages, and a stage's models are asked together, so a budget is met in a stage, not
 * after a model. Calls are counted as the rows count them; a cost is the rows' upper bound, so the
 * run meets `--max-cost` there at the earliest. With both limits, the one met first stops it, as
 * the run's budget does.
 */
function budgetStop(estimates: readonly ModelEstimate[], limits: BudgetLimits): BudgetStop | undefined {
  const stages = new Map<string, ModelEstimate[]>();
  for (const e of estimates) {
    const stage = e.stage === undefined ? e.role : `${e.role} (${e.stage})`;
    const rows = stages.get(stage);
    if (rows) rows.push(e);
    else stages.set(stage, [e]);
  }
  const stops = (['maxCalls', 'maxCost'] as const).flatMap((limit) => {
    const value = limits[limit];
    return value === undefined ? [] : [stopFor([...stages], limit, value)];
  });
  // The earliest stage reached; a limit never reached comes last.
  const order = (s: BudgetStop) =>
    s.stage === undefined ? stages.size : [...stages.keys()].indexOf(s.stage);
  return stops.sort((a, b) => order(a) - order(b))[0];
}

function stopFor(
  stages: readonly [string, readonly ModelEstimate[]][],
  limit: BudgetStop['limit'],
  value: number,
): BudgetStop {
  const spend = (e: ModelEstimate) => (limit === 'maxCalls' ? e.calls : (e.maxCostUsd ?? 0));
  let spent = 0;
  let bound = false;
  for (const [stage, rows] of stages) {
    const through = spent + rows.reduce((n, e) => n + spend(e), 0);
    bound ||= rows.some((e) => e.bound);
    if (through > value) return { limit, value, stage, before: spent, through, bound };
    spent = through;
  }
  return { limit, value, before: spent, through: spent, bound };
}

function budgetLine(stop: BudgetStop): string {
  const flag = stop.limit === 'maxCalls' ? `--max-calls ${stop.value}` : `--max-cost ${stop.value}`;
  const amount = (n: number) => (stop.limit === 'maxCalls' ? `${n} call(s)` : `USD ${n.toFixed(4)}`);
  if (stop.stage === undefined)
    return `The budget (${flag}) is not reached: the run ${stop.bound ? 'spends at most' : 'spends'} ${amount(stop.through)}.`;
  const when =
    stop.limit === 'maxCost'
      ? ' at the earliest (the costs are upper bounds)'
      : stop.bound
        ? ' if the rows marked ≤ make their most calls'
        : '';
  return `The budget (${flag}) stops the run at stage '${stop.stage}'${when}: ${amount(stop.before)} before that stage, ${amount(stop.through)} through it; later stages are not reached, and the cells left stay pending (the same command resumes).`;
}
