import type { Interval } from '../stats/agreement.js';
import type { RateInterval } from '../stats/rogan-gladen.js';
import type { LabellingSetRecord, LabelRecord, Store } from '../store/store.js';
import { type AgreementOptions, agreement, type RatedItem, type TaskAgreement } from './agreement.js';
import { type CorrectedFigure, correctedEstimates } from './corrected.js';
import { inferredRubric, type LabelRow, rubricOf } from './labels.js';

/**
 * Judge agreement and the corrected estimates of a labelling set, in one object for
 * `waver judge agreement`, the report's JSON and its HTML and Markdown (docs/judges.md).
 */

export interface JudgeSetReport {
  set: string;
  items: number;
  labels: number;
  people: string[];
  agreement: TaskAgreement[];
  corrected: CorrectedFigure[];
}

/** The set's items with every judge's verdict and every person's label, by rater. */
export function ratedItemsOfSet(set: LabellingSetRecord, labels: readonly LabelRecord[]): RatedItem[] {
  const byItem = new Map<string, Map<string, string>>();
  for (const item of set.items)
    byItem.set(
      item.id,
      new Map(
        item.verdicts.flatMap((v) => (v.label === undefined ? [] : [[v.judge, v.label] as [string, string]])),
      ),
    );
  for (const l of labels) byItem.get(l.item)?.set(l.rater, l.label);
  return set.items.map((item) => ({
    id: item.id,
    task: item.task,
    rubric: rubricOf(item),
    stratum: [item.task, ...Object.values(item.strata)].join(' / '),
    labels: byItem.get(item.id) as Map<string, string>,
  }));
}

export function judgesOfSet(set: LabellingSetRecord): Set<string> {
  return new Set(set.items.flatMap((i) => i.verdicts.map((v) => v.judge)));
}

export function setReport(
  set: LabellingSetRecord,
  labels: readonly LabelRecord[],
  opts: AgreementOptions = {},
): JudgeSetReport {
  const judges = judgesOfSet(set);
  return {
    set: set.name,
    items: set.items.length,
    labels: labels.length,
    people: [...new Set(labels.map((l) => l.rater))].filter((r) => !judges.has(r)).sort(),
    agreement: agreement(ratedItemsOfSet(set, labels), judges, opts),
    corrected: correctedEstimates(set, labels, judges, opts),
  };
}

/** Every labelling set of the store that has labels (none: the report shows no such section). */
export function judgeReports(store: Store, opts: AgreementOptions = {}): JudgeSetReport[] {
  return store.labels.sets().flatMap((summary) => {
    if (summary.labels === 0) return [];
    const set = store.labels.set(summary.name);
    return set ? [setReport(set, store.labels.of(summary.name), opts)] : [];
  });
}

/** Labels made elsewhere (a CSV alone): one task, its scale inferred from the labels. */
export function ratedItemsOfCsv(rows: readonly LabelRow[]): RatedItem[] {
  const rubric = inferredRubric(rows.map((r) => r.label));
  const items = new Map<string, RatedItem & { labels: Map<string, string> }>();
  for (const r of rows) {
    const item = items.get(r.item) ?? {
      id: r.item,
      task: 'labels',
      rubric,
      labels: new Map<string, string>(),
    };
    if (r.stratum !== undefined) item.stratum = r.stratum;
    item.labels.set(r.rater, r.label);
    items.set(r.item, item);
  }
  return [...items.values()];
}

// --- rendering --------------------------------------------------------------------------------

const fmt = (v: number | undefined) => (v === undefined ? '—' : v.toFixed(3));
const withCi = (i: Interval) =>
  i.value === undefined
    ? `unavailable: ${i.unavailable ?? 'not computable'}`
    : `${fmt(i.value)} [${fmt(i.low)}, ${fmt(i.high)}]${i.undefinedResamples > 0 ? ` (${i.undefinedResamples} of ${i.resamples} resamples undefined, dropped)` : ''}`;

const KAPPA_NAME = { quadratic: 'quadratic-weighted kappa', linear: 'linear-weighted kappa', none: 'kappa' };

function row(cells: readonly string[]): string {
  return `| ${cells.map((c) => c.replace(/\|/g, '\\|').replace(/\s+/g, ' ')).join(' | ')} |`;
}

/** The agreement and corrected estimates as Markdown tables (the text output and the report). */
export function judgeMarkdown(
  reports: readonly (
    | JudgeSetReport
    | { set?: string; agreement: TaskAgreement[]; corrected?: CorrectedFigure[] }
  )[],
): string {
  const out: string[] = [];
  for (const r of reports) {
    if (r.set !== undefined) out.push(`### Labelling set \`${r.set}\``, '');
    for (const t of r.agreement) out.push(...taskTables(t));
    if (r.corrected && r.corrected.length > 0) out.push(...correctedTable(r.corrected));
  }
  return out.join('\n');
}

/** A task's raters and alpha, its pairs of raters, and kappa per stratum when it has strata. */
function taskTables(t: TaskAgreement): string[] {
  const kappa = KAPPA_NAME[t.kappaWeights];
  const byRank =
    t.kappaWeights === 'none'
      ? ''
      : ` Kappa's weights are by rank (0..${t.rubric.labels.length - 1}), not by the labels' values.`;
  const out = [
    `**${t.task}** (rubric ${t.rubric.name}: ${t.rubric.labels.join(', ')}) — ${t.items} items; judges: ${t.judges.join(', ') || 'none'}; people: ${t.people.join(', ') || 'none'}.`,
    '',
    `Krippendorff's alpha (${t.alphaMetric}), all ${t.alpha.all.raters} raters over ${t.alpha.all.items} items: ${withCi(t.alpha.all)}` +
      (t.alpha.people ? `; people only: ${withCi(t.alpha.people)}` : '') +
      `. Intervals: 95% percentile bootstrap over items, ${t.resamples} resamples.${byRank}`,
    '',
  ];
  if (t.noPairs) out.push(`No pair of raters to compare: ${t.noPairs}.`, '');
  else
    out.push(
      row(['rater', 'rater', 'pair', 'items', 'raw agreement', kappa, 'confusion (rows: first rater)']),
      row(['---', '---', '---', '---:', '---:', '---:', '---']),
      ...t.pairs.map((p) =>
        row([
          p.a,
          p.b,
          p.kind,
          String(p.n),
          withCi(p.raw),
          withCi(p.kappa),
          p.confusion.map((c) => c.join(' ')).join(' / '),
        ]),
      ),
      '',
    );
  if (t.strata.length > 1) {
    out.push(row(['stratum', 'items', 'alpha', ...t.pairs.map((p) => `${kappa} ${p.a} vs ${p.b}`)]));
    out.push(row(['---', '---:', '---:', ...t.pairs.map(() => '---:')]));
    for (const s of t.strata)
      out.push(
        row([
          s.stratum,
          String(s.items),
          fmt(s.alpha.value),
          ...t.pairs.map((p) => fmt(s.pairs.find((q) => q.a === p.a && q.b === p.b)?.kappa.value)),
        ]),
      );
    out.push('');
  }
  return out;
}

function correctedTable(corrected: readonly CorrectedFigure[]): string[] {
  return [
    'Judge-corrected estimates (the judge figure beside what it would be by the people, docs/judges.md#corrected):',
    '',
    row([
      'task',
      'judge',
      'model',
      'figure',
      'raw (judge)',
      'corrected',
      'method',
      'Se, Sp [95% Wilson] (n)',
      'labelled',
    ]),
    row(['---', '---', '---', '---', '---:', '---:', '---', '---', '---:']),
    ...corrected.map((c) =>
      row([
        c.task,
        c.judge,
        c.group ?? '—',
        c.figure,
        `${fmt(c.raw)} (n ${c.n})`,
        c.corrected
          ? `${fmt(c.corrected.value)} [${fmt(c.corrected.low)}, ${fmt(c.corrected.high)}]`
          : `unavailable: ${c.unavailable}`,
        c.method,
        c.sensitivity && c.specificity ? `Se ${rate(c.sensitivity)}; Sp ${rate(c.specificity)}` : '—',
        String(c.labelled),
      ]),
    ),
    '',
  ];
}

/** `0.950 [0.839, 0.991] (n 20)`: n an effective count when the labelled items are weighted. */
function rate(r: RateInterval): string {
  return `${fmt(r.value)} [${fmt(r.low)}, ${fmt(r.high)}] (n ${Number(r.n.toFixed(1))})`;
}
