import { type ModelOrder, modelOrder } from '../../report/model-order.js';
import { tInterval } from '../../stats/student-t.js';
import { AXIS_HEADING, SAGO_AXES, type SagoAxis } from './constants.js';
import type { AxisScore } from './metrics.js';
import type { SagoModelResults, SagoResults } from './results.js';
import { computedAxis, type SagoSignificance, sagoSignificance } from './significance.js';

/**
 * The paper's tables for a sago run, as Markdown or JSON: per model the per-dataset SGS with
 * significance markers at the primary eps (Tables 1 and 7), the tolerance robustness of the
 * total SGS with significance counts (Table 5), and the ablations (Appendix D and E) as tables.
 * An axis a model cannot give is shown as "—" with its reason, never as 0. The markers read the
 * p-values adjusted over the tables' tests (significance.ts).
 */

const UNAVAILABLE = '—';

/**
 * A run's output: its models in the order an eval without a comparison has (by label,
 * docs/report.md#model-order), as the report lists them.
 */
export function formatSagoResults(results: SagoResults, format: 'md' | 'json'): string {
  const ordered = sagoInOrder(results, modelOrder());
  return format === 'json' ? `${JSON.stringify(sagoJson(ordered), null, 2)}\n` : sagoMarkdown(ordered);
}

/** The results with their models in `order`: every per-model table and chart lists them so. */
export function sagoInOrder(results: SagoResults, order: ModelOrder): SagoResults {
  return { ...results, models: order.sort(results.models, (m) => m.model) };
}

/** The axes shown: those any model has, in the paper's order (embedding cosine beside BERTScore). */
function shownAxes(results: SagoResults): SagoAxis[] {
  return SAGO_AXES.filter((a) => results.models.some((m) => m.axes[a].available) || a !== 'cosine');
}

function fmt(x: number | undefined, digits = 3): string {
  return x === undefined || Number.isNaN(x) ? 'n/a' : x.toFixed(digits);
}

/** Where a cell is: the model, the scope (a dataset or `total`), the axis and the eps. */
interface CellAt {
  m: SagoModelResults;
  scope: string;
  axis: SagoAxis;
  eps: number;
}

/** The marker of a cell's adjusted p; none without a test. */
function markerAt(sig: SagoSignificance, { m, scope, axis, eps }: CellAt): string {
  return sig.at(m.model.identity, scope, axis, eps)?.marker ?? '';
}

/**
 * "0.124 [0.110, 0.138]†": SGS with its 95% t interval over the scope's prompts (an interval, not
 * the paper's "± sd", a spread of s(i); issue 37.5) and the marker of its adjusted p; n/a when no
 * prompt has a value.
 */
function axisCell(sig: SagoSignificance, at: CellAt, score: AxisScore | undefined): string {
  if (!at.m.axes[at.axis].available) return UNAVAILABLE;
  if (!at.m.table.deltas[at.axis]) return 'not asked';
  if (!score || score.sgs === undefined) return 'n/a';
  const ci = tInterval(score.sgs, score.sd, score.n);
  return `${fmt(score.sgs)}${ci ? ` [${fmt(ci.low)}, ${fmt(ci.high)}]` : ' [CI —: one prompt]'}${markerAt(sig, at)}`;
}

function heading(m: SagoModelResults | undefined, axis: SagoAxis): string {
  return `${AXIS_HEADING[axis]}${m?.axes[axis].approximate ? ' (approx.)' : ''}`;
}

export function sagoMarkdown(r: SagoResults): string {
  const axes = shownAxes(r);
  const sig = sagoSignificance(r);
  const out = [
    ...intro(r, sig),
    ...r.models.flatMap((m) => modelTable(r, m, axes, sig)),
    ...toleranceTable(r, axes, sig),
    ...significanceTable(r, axes, sig),
    '## Ablations',
    '',
    `Prompt sample size (Appendix D): for each N, ${r.manifest.settings.ablation.draws} draws of N prompts without replacement; statistic = sd across variation groups (F, u, s, p) of the group's mean |Delta/R|; cells P50 [P10, P90] and the band P90 - P10.`,
    '',
    ...r.models.flatMap((m) => ablationTables(r, m, axes)),
    ...droppedVariants(r),
  ];
  return `${out.join('\n')}\n`;
}

function intro(r: SagoResults, sig: SagoSignificance): string[] {
  const s = r.manifest.settings;
  const ds = r.manifest.datasets.map((d) => `${d.name} (${d.n} of ${d.available})`).join(', ');
  return [
    '# SAGO: per-prompt instability across meaning-preserving variations',
    '',
    `Prompts: ${r.prompts} (${ds}), seed ${r.manifest.seed}. Variation set: ${r.variations.length} variations; ${r.variants} variants run, ${r.manifest.rejected.length} dropped (meaning filter or generator).`,
    `SGS = mean over prompts of s(i), the RMS over a prompt's variants of Delta/R (R: activation 2, BLEU 100, BERTScore 1, embedding cosine 2, log-prob 250, entropy 10, mirroring 1). Cells: SGS [95% t interval over the scope's prompts, SGS ± t(n-1) sd/sqrt(n); n prompts in the table] (the paper prints ± sd, a spread; docs/fidelity.md).`,
    `Significance: one-sided one-sample t-test of H0: E[s] <= eps (H1: SGS > eps); ${sig.note} (docs/sago.md#significance). Per-dataset tables at eps = ${s.primaryEps}. BLEU mode: ${s.bleuMode}. ${UNAVAILABLE} = axis unavailable for the model (reasons below), n/a = no value.`,
    '',
  ];
}

/** A model's per-dataset SGS at the primary eps (Tables 1 and 7), then how each axis was measured or why not. */
function modelTable(
  r: SagoResults,
  m: SagoModelResults,
  axes: readonly SagoAxis[],
  sig: SagoSignificance,
): string[] {
  const eps = r.manifest.settings.primaryEps;
  const cov = m.coverage;
  const out = [
    `## ${m.model.label}: per-dataset SGS at eps = ${eps}`,
    '',
    `Identity: \`${m.model.identity}\`. Coverage: ${cov.done}/${cov.total} responses${cov.failed ? `, ${cov.failed} failed` : ''}${cov.pending ? `, ${cov.pending} pending` : ''}${m.complete ? '' : ' — INCOMPLETE (below minCoverage or pending)'}.`,
    '',
    `| Dataset | prompts | ${axes.map((a) => heading(m, a)).join(' | ')} |`,
    `|---|---:|${axes.map(() => '---').join('|')}|`,
  ];
  for (const scope of m.scores) {
    const name = scope.scope === 'total' ? '**Total SGS**' : scope.scope;
    out.push(
      `| ${name} | ${scope.prompts} | ${axes.map((axis) => axisCell(sig, { m, scope: scope.scope, axis, eps }, scope.axes[axis])).join(' | ')} |`,
    );
  }
  out.push('');
  for (const a of axes) {
    const st = m.axes[a];
    if (st.available && m.table.deltas[a]) {
      const gaps = Object.entries(m.missing[a] ?? {})
        .map(([why, n]) => `${n} ${why}`)
        .join('; ');
      out.push(`- ${AXIS_HEADING[a]}: ${st.method}${gaps ? ` (missing values: ${gaps})` : ''}`);
    } else if (st.available) out.push(`- ${AXIS_HEADING[a]}: not computed (not among the requested axes)`);
    else out.push(`- ${AXIS_HEADING[a]}: unavailable — ${st.reason}`);
  }
  out.push('');
  return out;
}

/** Table 5's top: each model's total SGS at every eps. */
function toleranceTable(r: SagoResults, axes: readonly SagoAxis[], sig: SagoSignificance): string[] {
  const out = [
    '## Tolerance robustness: total SGS at each eps',
    '',
    `| Model | eps | ${axes.map((a) => AXIS_HEADING[a]).join(' | ')} |`,
    `|---|---:|${axes.map(() => '---').join('|')}|`,
  ];
  for (const e of r.manifest.settings.eps)
    for (const m of r.models) {
      const total = m.scores.at(-1);
      const scope = total?.scope ?? 'total';
      out.push(
        `| ${m.model.label} | ${e} | ${axes.map((axis) => axisCell(sig, { m, scope, axis, eps: e }, total?.axes[axis])).join(' | ')} |`,
      );
    }
  out.push('');
  return out;
}

/** Table 5's bottom: per eps and level, the models rejecting H0 on each axis. */
function significanceTable(r: SagoResults, axes: readonly SagoAxis[], sig: SagoSignificance): string[] {
  const counts = significanceCounts(r, sig);
  const out = [
    `Significance counts (models rejecting H0 among those with the axis available, by the p ${sig.says}):`,
    '',
    `| eps | level | ${axes.map((a) => AXIS_HEADING[a]).join(' | ')} |`,
    `|---|---|${axes.map(() => '---:').join('|')}|`,
    `| | n available | ${axes.map((a) => counts.available[a]).join(' | ')} |`,
  ];
  for (const e of r.manifest.settings.eps)
    for (const level of LEVELS)
      out.push(
        `| ${e} | p < ${level} | ${axes.map((a) => counts.rejected[String(e)]?.[String(level)]?.[a] ?? 0).join(' | ')} |`,
      );
  out.push('');
  return out;
}

/** A model's ablations (Appendix D and E) over the axes it has them on: none when it has none. */
function ablationTables(r: SagoResults, m: SagoModelResults, axes: readonly SagoAxis[]): string[] {
  const computed = axes.filter((a) => m.ablations.sampleSize[a]);
  if (computed.length === 0) return [];
  return [
    ...sampleSizeTable(r.manifest.settings.ablation.sizes, m, computed),
    ...positionTable(m, computed),
    ...strengthTable(m, computed),
  ];
}

function sampleSizeTable(
  allSizes: readonly number[],
  m: SagoModelResults,
  computed: readonly SagoAxis[],
): string[] {
  const out = [`### ${m.model.label}: sample size`, ''];
  const sizes = allSizes.filter((n) =>
    computed.some((a) => m.ablations.sampleSize[a]?.find((x) => x.n === n && !x.unavailable)),
  );
  const skipped = allSizes.filter((n) => !sizes.includes(n));
  for (const n of skipped) {
    const why = computed
      .map((a) => m.ablations.sampleSize[a]?.find((x) => x.n === n)?.unavailable)
      .find(Boolean);
    out.push(`- N = ${n}: n/a (${why ?? 'no value'})`);
  }
  if (skipped.length > 0) out.push('');
  if (sizes.length > 0)
    out.push(
      `| N | ${computed.map((a) => AXIS_HEADING[a]).join(' | ')} |`,
      `|---:|${computed.map(() => '---').join('|')}|`,
    );
  for (const n of sizes) {
    const cells = computed.map((a) => {
      const p = m.ablations.sampleSize[a]?.find((x) => x.n === n);
      if (!p || p.unavailable) return `n/a (${p?.unavailable ?? 'none'})`;
      return `${fmt(p.p50)} [${fmt(p.p10)}, ${fmt(p.p90)}] band ${fmt(p.band)}`;
    });
    out.push(`| ${n} | ${cells.join(' | ')} |`);
  }
  out.push('');
  return out;
}

function positionTable(m: SagoModelResults, computed: readonly SagoAxis[]): string[] {
  const out = [
    `### ${m.model.label}: by position (SGS over the position's variations; sd of (F, u, s) group means)`,
    '',
    `| position | ${computed.map((a) => AXIS_HEADING[a]).join(' | ')} |`,
    `|---|${computed.map(() => '---').join('|')}|`,
  ];
  const positions = [
    ...new Set(computed.flatMap((a) => (m.ablations.position[a] ?? []).map((p) => p.label))),
  ];
  for (const pos of positions) {
    const cells = computed.map((a) => {
      const sl = m.ablations.position[a]?.find((x) => x.label === pos);
      return sl ? `${fmt(sl.sgs)} (sd ${fmt(sl.groupSd)})` : 'n/a';
    });
    out.push(`| ${pos} | ${cells.join(' | ')} |`);
  }
  out.push('');
  return out;
}

function strengthTable(m: SagoModelResults, computed: readonly SagoAxis[]): string[] {
  const out = [
    `### ${m.model.label}: by strength (SGS over the strength's variations; sd of (F, u, p) group means)`,
    '',
    `| subtype | strength | ${computed.map((a) => AXIS_HEADING[a]).join(' | ')} |`,
    `|---|---:|${computed.map(() => '---').join('|')}|`,
  ];
  // Rows as the first axis lists its subtypes and strengths.
  const first = m.ablations.strength[computed[0] as SagoAxis] ?? [];
  for (const sub of first)
    for (const slice of sub.slices) {
      const cells = computed.map((a) => {
        const sl = m.ablations.strength[a]
          ?.find((x) => x.subtype === sub.subtype)
          ?.slices.find((x) => x.label === slice.label);
        return sl ? `${fmt(sl.sgs)} (sd ${fmt(sl.groupSd)})` : 'n/a';
      });
      out.push(`| ${sub.subtype} | ${slice.label} | ${cells.join(' | ')} |`);
    }
  out.push('');
  return out;
}

/** The variants the meaning filter or the generator dropped, counted by reason (the measured value cut off). */
function droppedVariants(r: SagoResults): string[] {
  if (r.manifest.rejected.length === 0) return [];
  const reasons = new Map<string, number>();
  for (const x of r.manifest.rejected) {
    const why = x.reason.replace(/ [-\d.]+ (>|<=) [\d.]+ \(.*\)$/, '');
    reasons.set(why, (reasons.get(why) ?? 0) + 1);
  }
  return ['## Dropped variants', '', ...[...reasons].map(([why, n]) => `- ${n} × ${why}`), ''];
}

const LEVELS = [0.05, 0.01, 0.001] as const;

export interface SignificanceCounts {
  available: Record<SagoAxis, number>;
  /** eps -> level -> axis -> models rejecting H0 at p < level. */
  rejected: Record<string, Record<string, Partial<Record<SagoAxis, number>>>>;
}

/**
 * The bottom of the paper's Table 5: per eps and level, how many models reject H0 on each axis
 * (total SGS), by the adjusted p.
 */
export function significanceCounts(r: SagoResults, sig: SagoSignificance): SignificanceCounts {
  const available = Object.fromEntries(
    SAGO_AXES.map((a) => [a, r.models.filter((m) => computedAxis(m, a)).length]),
  ) as Record<SagoAxis, number>;
  const rejected: SignificanceCounts['rejected'] = {};
  for (const e of r.manifest.settings.eps) {
    const byLevel: Record<string, Partial<Record<SagoAxis, number>>> = {};
    for (const level of LEVELS) {
      const counts: Partial<Record<SagoAxis, number>> = {};
      for (const a of SAGO_AXES) {
        counts[a] = r.models.filter((m) => {
          const t = sig.at(m.model.identity, m.scores.at(-1)?.scope ?? 'total', a, e);
          return computedAxis(m, a) && t !== undefined && t.pAdjusted < level;
        }).length;
      }
      byLevel[String(level)] = counts;
    }
    rejected[String(e)] = byLevel;
  }
  return { available, rejected };
}

/** Non-finite numbers become strings (JSON has no Infinity): a constant s(i) gives t = inf. */
function finite(x: number | undefined): number | string | undefined {
  if (x === undefined) return undefined;
  if (Number.isFinite(x)) return x;
  return Number.isNaN(x) ? 'nan' : x > 0 ? 'inf' : '-inf';
}

/** One cell of the paper's per-dataset tables: a model's SGS on one axis for a dataset (or `total`). */
export interface SgsRow {
  model: string;
  dataset: string;
  axis: SagoAxis;
  sgs: number | undefined;
  sd: number | undefined;
  n: number;
  /** One-sided p-value per eps (as a string key: `0.05`), unadjusted. */
  p: Record<string, number>;
  /** The same adjusted over the tables' family (significance.ts), for the tests the tables report. */
  pAdjusted: Record<string, number>;
  /** The significance marker of the adjusted p at the primary eps. */
  marker: string;
}

/** Every (model, dataset, axis) SGS with its p-values, flat: the JSON report's `sgs`. */
export function sgsTable(r: SagoResults): SgsRow[] {
  const eps = r.manifest.settings.primaryEps;
  const sig = sagoSignificance(r);
  return r.models.flatMap((m) =>
    m.scores.flatMap((scope) =>
      SAGO_AXES.flatMap((axis) => {
        const sc = scope.axes[axis];
        if (!sc) return [];
        return [
          {
            model: m.model.label,
            dataset: scope.scope,
            axis,
            sgs: sc.sgs,
            sd: sc.sd,
            n: sc.n,
            p: Object.fromEntries(sc.tests.map((t) => [String(t.eps), t.p])),
            pAdjusted: Object.fromEntries(
              sc.tests.flatMap((t) => {
                const a = sig.at(m.model.identity, scope.scope, axis, t.eps);
                return a ? [[String(t.eps), a.pAdjusted]] : [];
              }),
            ),
            marker: markerAt(sig, { m, scope: scope.scope, axis, eps }),
          },
        ];
      }),
    ),
  );
}

export function sagoJson(r: SagoResults): Record<string, unknown> {
  const sig = sagoSignificance(r);
  return {
    protocol: 'sago',
    suite: r.suiteHash,
    seed: r.manifest.seed,
    settings: r.manifest.settings,
    datasets: r.manifest.datasets,
    prompts: r.prompts,
    variations: r.variations.length,
    variants: r.variants,
    rejected: r.manifest.rejected,
    ...(r.manifest.source && { source: r.manifest.source }),
    significance: { adjust: sig.adjust, family: sig.family, note: sig.note },
    sgs: sgsTable(r),
    roles: {
      ...(r.manifest.embedder ? { embedder: r.manifest.embedder } : {}),
      ...(r.manifest.judge ? { judge: r.manifest.judge } : {}),
      ...(r.manifest.generator ? { generator: r.manifest.generator } : {}),
    },
    models: r.models.map((m) => ({
      label: m.model.label,
      identity: m.model.identity,
      provider: m.model.provider,
      coverage: m.coverage,
      complete: m.complete,
      axes: Object.fromEntries(
        SAGO_AXES.map((a) => {
          const st = m.axes[a];
          const computed = st.available && m.table.deltas[a] !== undefined;
          return [
            a,
            {
              heading: st.heading,
              available: st.available,
              computed,
              ...(st.method ? { method: st.method } : {}),
              ...(st.approximate ? { approximate: true } : {}),
              ...(st.reason ? { reason: st.reason } : {}),
              ...(m.missing[a] ? { missing: m.missing[a] } : {}),
            },
          ];
        }),
      ),
      scores: m.scores.map((scope) => ({
        scope: scope.scope,
        prompts: scope.prompts,
        axes: Object.fromEntries(
          Object.entries(scope.axes).map(([a, sc]) => [
            a,
            {
              n: sc.n,
              values: sc.values,
              sgs: sc.sgs,
              sd: sc.sd,
              tests: sc.tests.map((t) => {
                // A test no table reports (a dataset at another eps) is in no family: null.
                const adjusted = sig.at(m.model.identity, scope.scope, a as SagoAxis, t.eps);
                return {
                  eps: t.eps,
                  t: finite(t.t),
                  df: t.df,
                  p: t.p,
                  pAdjusted: adjusted?.pAdjusted ?? null,
                  marker: adjusted?.marker ?? '',
                };
              }),
              ...(sc.untested ? { untested: sc.untested } : {}),
            },
          ]),
        ),
      })),
      ablations: m.ablations,
    })),
    significanceCounts: significanceCounts(r, sig),
  };
}
