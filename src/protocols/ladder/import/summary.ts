import { familyCodes, familyName } from '../families/roster.js';
import type { CollapsePoint, Interval } from '../metrics.js';
import type { LadderModelResults } from '../results.js';
import { type Family, LEVELS } from '../types.js';
import { aggregateMarkdown, type LadderAggregateSummary } from './aggregates.js';
import type { ImportedLadderSuite, LadderRunsPlan } from './ladder-runs.js';

/**
 * What `waver import ladder-runs` prints for each imported run (docs/ladder.md#import), computed
 * in the reference mode (`ladder.reference: true`): the paper's Table 4 (Stability per family, the
 * Baseline row the baseline's mean Sim), Table 5 (the Collapse Point per family) and the Section
 * 5.1 aggregate accuracy L0..L5 (Figure 1), each figure with its n and 95% seed-bootstrap CI; then
 * per family the accuracy by level beside the run's own metrics_acc.csv and metrics_summary.csv,
 * and every disagreement between those files and the rows.
 */

type Level = `L${0 | 1 | 2 | 3 | 4 | 5}`;
const LEVEL_NAMES: Level[] = ['L0', ...LEVELS.map((k) => `L${k}` as Level)];

interface Figure {
  value: number | null;
  low: number | null;
  high: number | null;
  n: number;
  unavailable?: string;
}

export interface LadderRunSummary extends ImportedLadderSuite {
  from: 'eval.csv';
  /** Table 4: the Baseline row, then each family's Stability over its answered, scored rows. */
  stability: { baseline: Figure; families: { family: Family; stability: Figure }[] };
  /** Table 5: each family's Collapse Point, its bootstrap distribution, and the run's metrics_summary.csv. */
  collapse: {
    tau: number | null;
    families: {
      family: Family;
      collapse: string;
      distribution: { value: string; share: number }[];
      recorded?: string;
    }[];
  };
  /** Section 5.1 / Figure 1: accuracy over every family per measured level, L0 the baseline. */
  aggregate: Record<Level, Figure>;
  /** Per family, accuracy by level, and the run's metrics_acc.csv where it has one. */
  families: {
    family: Family;
    accuracy: Record<string, number | null>;
    recorded?: Record<string, number | null>;
  }[];
  mismatches: LadderRunsPlan['runs'][number]['mismatches'];
}

function figure(iv: Interval, n: number): Figure {
  return {
    value: iv.value ?? null,
    low: iv.low ?? null,
    high: iv.high ?? null,
    n,
    ...(iv.unavailable && { unavailable: iv.unavailable }),
  };
}

function collapseName(c: CollapsePoint): string {
  return c.status === 'collapsed' ? `L${c.level}` : c.status;
}

/** The summary of one imported run from its results (loaded with the reference settings). */
export function ladderRunSummary(
  suite: ImportedLadderSuite,
  plan: LadderRunsPlan['runs'][number],
  model: LadderModelResults | undefined,
): LadderRunSummary {
  const m = model?.metrics;
  const present = familyCodes().filter((f) => plan.reference.accuracy.has(f));
  const fam = (f: Family) => m?.families.find((x) => x.family === f);
  // Stability's rows: answered, with a recorded Sim.
  const answered = (f: Family | 'baseline') =>
    model?.cells.filter((c) => c.family === f && c.status === 'done' && c.score !== undefined).length ?? 0;
  const empty: Figure = { value: null, low: null, high: null, n: 0, unavailable: 'no results' };
  return {
    ...suite,
    from: 'eval.csv',
    stability: {
      baseline: m ? figure(m.baseline.stability, answered('baseline')) : empty,
      families: present.map((f) => {
        const o = fam(f)?.overall;
        return { family: f, stability: o ? figure(o.stability, answered(f)) : empty };
      }),
    },
    collapse: {
      tau: fam(present[0] as Family)?.collapse.threshold ?? null,
      families: present.map((f) => {
        const c = fam(f)?.collapse;
        return {
          family: f,
          collapse: c ? collapseName(c) : 'unavailable',
          distribution: c?.distribution ?? [],
          ...(plan.run.collapse && { recorded: plan.run.collapse.get(f) ?? 'never' }),
        };
      }),
    },
    aggregate: Object.fromEntries(
      LEVEL_NAMES.map((l, k) => {
        const s = m?.byLevel[k as 0];
        return [l, s ? figure(s.accuracy, s.scored) : empty];
      }),
    ) as Record<Level, Figure>,
    families: present.map((f) => {
      const x = fam(f);
      const recorded = plan.run.accuracy?.get(f);
      return {
        family: f,
        accuracy: Object.fromEntries(
          LEVEL_NAMES.map((l, k) => [
            l,
            (k === 0 ? m?.baseline.accuracy.value : x?.levels[k as 1].accuracy.value) ?? null,
          ]),
        ),
        ...(recorded && { recorded: Object.fromEntries([...recorded].map(([l, v]) => [l, v ?? null])) }),
      };
    }),
    mismatches: plan.mismatches,
  };
}

const num = (v: number | null | undefined) => (v === null || v === undefined ? '' : v.toFixed(3));

function cell(f: Figure): string {
  if (f.value === null) return `— (${f.unavailable ?? 'unavailable'})`;
  const ci = f.low === null || f.high === null ? 'CI —' : `${f.low.toFixed(3)}, ${f.high.toFixed(3)}`;
  return `${f.value.toFixed(3)} [${ci}] (n=${f.n})`;
}

const shown = (cp: string) => (cp === 'never' ? '—' : cp);

/** The Markdown of the summaries: the runs imported from eval.csv, then those with the metrics files only. */
export function ladderRunsMarkdown(
  runs: readonly LadderRunSummary[],
  aggregatesOnly: readonly LadderAggregateSummary[] = [],
): string {
  const out = ['# waver import ladder-runs', ''];
  if (runs.length > 0)
    out.push(
      "Runs with an eval.csv: computed as the reference computes (ladder.reference: true): a row is correct when its recorded `Sim: outputs` reaches the run's threshold, a row without one counted wrong; Stability weighs the recorded Sim by the magnitude (`Score`) over the rows with a Sim. Intervals: 95% percentile bootstrap over seeds.",
      '',
    );
  if (aggregatesOnly.length > 0)
    out.push(
      "Runs with metrics_acc.csv and no eval.csv: the Collapse Point by the reference's rule (`acc_table`: the first level below 0.80 x acc(L0)) on the file's values, acc(L0) as written; what needs the rows is unavailable. The file is only as current as the run that wrote it: the four published runs' KB rows predate their eval.csv (docs/fidelity.md#ladder-published-runs).",
      '',
    );
  for (const r of runs) {
    out.push(
      `## ${r.run}: ${r.model}, suite ladder/tests ${r.suiteHash.slice(0, 12)}, ${r.tests} tests, ${r.cells} cells`,
      '',
    );
    out.push('### Table 4: Stability per family', '');
    out.push('| family | Stability [95% CI] (n rows with a Sim) |', '|---|---:|');
    out.push(`| Baseline (mean Sim of the answered baseline rows) | ${cell(r.stability.baseline)} |`);
    for (const f of r.stability.families) out.push(`| ${familyName(f.family)} | ${cell(f.stability)} |`);
    out.push('');
    out.push(
      `### Table 5: Collapse Point per family (tau = 0.80 x acc(L0)${r.collapse.tau === null ? '' : ` = ${r.collapse.tau.toFixed(3)}`}; — never)`,
      '',
    );
    out.push('| family | Collapse Point | bootstrap share | metrics_summary.csv |', '|---|---|---|---|');
    for (const f of r.collapse.families)
      out.push(
        `| ${familyName(f.family)} | ${shown(f.collapse)} | ${f.distribution.map((d) => `${shown(d.value)} ${(100 * d.share).toFixed(1)}%`).join(', ')} | ${f.recorded === undefined ? 'not there' : shown(f.recorded)} |`,
      );
    out.push('');
    out.push(
      '### Aggregate accuracy by level (Section 5.1, Figure 1): every family pooled, L0 the baseline',
      '',
    );
    out.push(`| ${LEVEL_NAMES.join(' | ')} |`, `|${'---:|'.repeat(LEVEL_NAMES.length)}`);
    out.push(`| ${LEVEL_NAMES.map((l) => cell(r.aggregate[l])).join(' | ')} |`, '');
    const withRecorded = r.families.some((f) => f.recorded);
    out.push(
      `### Accuracy by level per family${withRecorded ? ' (metrics_acc.csv in brackets)' : ' (no metrics_acc.csv in the folder)'}`,
      '',
    );
    out.push(`| family | ${LEVEL_NAMES.join(' | ')} |`, `|---|${'---:|'.repeat(LEVEL_NAMES.length)}`);
    for (const f of r.families)
      out.push(
        `| ${f.family} | ${LEVEL_NAMES.map((l) => `${num(f.accuracy[l])}${f.recorded && l in f.recorded ? ` [${num(f.recorded[l])}]` : ''}`).join(' | ')} |`,
      );
    out.push('');
    out.push(
      r.mismatches.length === 0
        ? "The run's metrics files (where present) agree with the reference's aggregation of its rows."
        : `MISMATCH with the run's metrics files (stale, or not from these rows): ${r.mismatches.map((x) => `${x.family} ${x.column}: recorded ${x.recorded || 'empty'}, rows give ${x.computed || 'empty'}`).join('; ')}`,
      '',
    );
  }
  for (const r of aggregatesOnly) out.push(...aggregateMarkdown(r));
  return `${out.join('\n')}\n`;
}
