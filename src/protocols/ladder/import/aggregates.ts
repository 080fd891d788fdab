import { familyCodes, familyName } from '../families/roster.js';
import { type Family, LEVELS } from '../types.js';
import type { AggregateMismatch } from './ladder-runs.js';
import { EVAL_FILE, type LadderRunFolder } from './run-folders.js';

/**
 * A run folder without eval.csv, summarised from its aggregates (docs/ladder.md#import): the
 * per-family accuracy by level of metrics_acc.csv and the Collapse Point the reference derives
 * from it. What needs the rows is unavailable, never 0: Table 4's Stability (each row's Sim
 * weighed by its magnitude, the Baseline row the baseline's mean Sim), the Section 5.1 curve past L0
 * (the paper pools every family's rows at a level, and the file has no row counts), and every
 * interval (no rows to resample).
 */

type Level = `L${0 | 1 | 2 | 3 | 4 | 5}`;
const LEVEL_NAMES: Level[] = ['L0', ...LEVELS.map((k) => `L${k}` as Level)];

/** Why a figure cannot be computed from the metrics files alone. */
export const NEEDS_EVAL = {
  stability: `needs ${EVAL_FILE}: Stability weighs each row's Sim by its magnitude (the Baseline row is the baseline rows' mean Sim, not acc(L0)), and metrics_acc.csv has neither`,
  aggregate: `needs ${EVAL_FILE}: the paper pools every family's rows at a level, and metrics_acc.csv has no row counts`,
} as const;

export interface AggregateCollapse {
  family: Family;
  /** `L1`..`L5`, `never`, or `undecided` where the file's rounding leaves the comparison open. */
  collapse: string;
  /** For `undecided`: the level and why. */
  undecided?: string;
  /** The run's metrics_summary.csv, where present (`never` for an empty cell). */
  recorded?: string;
}

export interface LadderAggregateSummary {
  run: string;
  model: string;
  from: 'metrics_acc.csv';
  accFile: string;
  summaryFile?: string;
  /** Table 4: unavailable, with the reason. */
  stability: { unavailable: string };
  /** Table 5 by the reference's rule on the file's values. */
  collapse: {
    tau: number | null;
    /** Half the file's last decimal: each value is known to within it. */
    rounding: number;
    families: AggregateCollapse[];
  };
  /** Section 5.1: acc(L0) as the file has it; L1..L5 unavailable. */
  aggregate: Record<Level, { value: number | null; unavailable?: string }>;
  /** metrics_acc.csv as written. */
  families: { family: Family; accuracy: Record<Level, number | null> }[];
  mismatches: AggregateMismatch[];
}

/**
 * The reference's Collapse Point (`acc_table`, `experiment/run_sut_model.py:123-133`): the first of
 * L1..L5 with a value whose accuracy is below 0.80 x acc(L0); an empty cell is skipped. The file
 * holds the values rounded (the reference writes `tbl.round(3)`, its Collapse Points come from the
 * unrounded ones), so a level whose value lies within the rounding of tau is `undecided`; with no
 * rounding (`half` 0) this is the reference's comparison exactly.
 */
export function collapseFromRounded(
  levels: ReadonlyMap<string, number | undefined>,
  half: number,
): Pick<AggregateCollapse, 'collapse' | 'undecided'> {
  const a0 = levels.get('L0');
  if (a0 === undefined) return { collapse: 'undecided', undecided: 'no L0' };
  const tau = 0.8 * a0;
  const tauLow = 0.8 * (a0 - half);
  const tauHigh = 0.8 * (a0 + half);
  for (const k of LEVELS) {
    const v = levels.get(`L${k}`);
    if (v === undefined) continue;
    if (v + half < tauLow) return { collapse: `L${k}` };
    if (v - half >= tauHigh) continue;
    return {
      collapse: 'undecided',
      undecided: `L${k}: ${v} is within the file's rounding (±${half}) of tau = 0.80 x ${a0} = ${tau.toFixed(4)}`,
    };
  }
  return { collapse: 'never' };
}

/** The summary of a run folder holding metrics_acc.csv and no eval.csv. */
export function aggregateSummary(run: LadderRunFolder): LadderAggregateSummary {
  const accuracy = run.accuracy ?? new Map();
  const half = 0.5 * 10 ** -(run.accDecimals ?? 0);
  const present = familyCodes().filter((f) => accuracy.has(f));
  const baselines = new Set(present.map((f) => accuracy.get(f)?.get('L0')));
  const acc0 = baselines.size === 1 ? ([...baselines][0] ?? null) : null;
  const families = present.map((family): AggregateCollapse => {
    const cp = collapseFromRounded(accuracy.get(family) ?? new Map(), half);
    return {
      family,
      ...cp,
      ...(run.collapse && {
        recorded: run.collapse.has(family) ? (run.collapse.get(family) ?? 'never') : 'not there',
      }),
    };
  });
  const mismatches: AggregateMismatch[] = families.flatMap((f) =>
    run.summaryFile && f.recorded !== undefined && f.recorded !== 'not there' && f.recorded !== f.collapse
      ? [
          {
            file: run.summaryFile,
            family: f.family,
            column: 'CP',
            recorded: f.recorded === 'never' ? '' : f.recorded,
            computed: f.collapse === 'never' ? '' : f.collapse,
          },
        ]
      : [],
  );
  return {
    run: run.folder,
    model: run.model,
    from: 'metrics_acc.csv',
    accFile: run.accFile as string,
    ...(run.summaryFile && { summaryFile: run.summaryFile }),
    stability: { unavailable: NEEDS_EVAL.stability },
    collapse: { tau: acc0 === null ? null : 0.8 * acc0, rounding: half, families },
    aggregate: Object.fromEntries(
      LEVEL_NAMES.map((l) => [
        l,
        l === 'L0' && acc0 !== null
          ? { value: acc0 }
          : {
              value: null,
              unavailable:
                l === 'L0'
                  ? 'the families of metrics_acc.csv give different L0 values'
                  : NEEDS_EVAL.aggregate,
            },
      ]),
    ) as LadderAggregateSummary['aggregate'],
    families: present.map((family) => ({
      family,
      accuracy: Object.fromEntries(
        LEVEL_NAMES.map((l) => [l, accuracy.get(family)?.get(l) ?? null]),
      ) as Record<Level, number | null>,
    })),
    mismatches,
  };
}

const shown = (cp: string) => (cp === 'never' ? '—' : cp);

/** The Markdown of one aggregates-only run. */
export function aggregateMarkdown(r: LadderAggregateSummary): string[] {
  const out = [
    `## ${r.run}: ${r.model}, from ${r.from} only (no ${EVAL_FILE}: nothing stored)`,
    '',
    `No intervals: the file holds no rows to resample. Values as the file writes them (to ±${r.collapse.rounding}).`,
    '',
    '### Table 4: Stability per family',
    '',
    '| family | Stability |',
    '|---|---|',
    `| Baseline | unavailable: ${NEEDS_EVAL.stability} |`,
    ...r.families.map((f) => `| ${familyName(f.family)} | unavailable: needs ${EVAL_FILE} |`),
    '',
    `### Table 5: Collapse Point per family (the reference's rule on metrics_acc.csv; tau = 0.80 x acc(L0)${r.collapse.tau === null ? '' : ` = ${r.collapse.tau.toFixed(4)}`}; — never)`,
    '',
    '| family | Collapse Point | metrics_summary.csv |',
    '|---|---|---|',
    ...r.collapse.families.map(
      (f) =>
        `| ${familyName(f.family)} | ${f.collapse === 'undecided' ? `undecided (${f.undecided})` : shown(f.collapse)} | ${f.recorded === undefined ? 'not there' : shown(f.recorded)} |`,
    ),
    '',
    '### Aggregate accuracy by level (Section 5.1, Figure 1): every family pooled, L0 the baseline',
    '',
    ...LEVEL_NAMES.map((l) => {
      const a = r.aggregate[l];
      return `- ${l}: ${a.value === null ? `unavailable: ${a.unavailable}` : a.value.toFixed(3)}`;
    }),
    '',
    '### Accuracy by level per family (metrics_acc.csv as written; — no tests at that level)',
    '',
    `| family | ${LEVEL_NAMES.join(' | ')} |`,
    `|---|${'---:|'.repeat(LEVEL_NAMES.length)}`,
    ...r.families.map(
      (f) =>
        `| ${f.family} | ${LEVEL_NAMES.map((l) => (f.accuracy[l] === null ? '—' : String(f.accuracy[l]))).join(' | ')} |`,
    ),
    '',
    r.mismatches.length === 0
      ? r.summaryFile
        ? "metrics_summary.csv gives the Collapse Points the reference's rule gives on metrics_acc.csv."
        : 'No metrics_summary.csv in the folder.'
      : `MISMATCH with metrics_summary.csv: ${r.mismatches.map((x) => `${x.family} CP: recorded ${x.recorded || 'empty'}, metrics_acc.csv gives ${x.computed || 'empty'}`).join('; ')}`,
    '',
  ];
  return out;
}
