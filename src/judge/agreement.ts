import {
  AGREEMENT_RESAMPLES,
  cohenKappa,
  confusionMatrix,
  type Interval,
  type KappaWeights,
  krippendorffAlpha,
  type Label,
  type Metric,
  overItems,
  rawAgreement,
} from '../stats/agreement.js';
import { deriveSeed } from '../util/random.js';
import type { Rubric } from './types.js';

/**
 * `waver judge agreement` (docs/judges.md#agreement): for each task (one rubric), every pair of
 * raters — judge vs each person, person vs person, judge vs judge — with raw agreement, Cohen's
 * kappa (quadratic weights by rank on an ordinal rubric unless linear or none are asked for,
 * unweighted on a binary or nominal one) and the confusion matrix; Krippendorff's alpha (ordinal
 * metric on an ordinal rubric unless interval or nominal is asked for, nominal otherwise)
 * over all raters and over the people alone, missing labels allowed; each with a percentile
 * bootstrap interval over items; and the same per stratum.
 */

export interface RatedItem {
  id: string;
  task: string;
  rubric: Rubric;
  /** Shown per stratum: family and boundary type, or a CSV's `stratum` column. */
  stratum?: string;
  /** Labels by rater, judges' and people's alike. */
  labels: ReadonlyMap<string, string>;
}

export type PairKind = 'judge-person' | 'person-person' | 'judge-judge';

export interface PairAgreement {
  a: string;
  b: string;
  kind: PairKind;
  /** Items both labelled. */
  n: number;
  raw: Interval;
  kappa: Interval;
  /** confusion[i][j]: items a labelled rubric label i and b labelled j. */
  confusion: number[][];
}

export interface AlphaFigure extends Interval {
  raters: number;
  /** Items with two labels or more (the pairable ones). */
  items: number;
}

export interface StratumAgreement {
  stratum: string;
  items: number;
  pairs: PairAgreement[];
  alpha: AlphaFigure;
}

export interface TaskAgreement {
  task: string;
  rubric: { name: string; scale: Rubric['scale']; labels: string[] };
  kappaWeights: KappaWeights;
  alphaMetric: Metric;
  /** Resamples of every interval. */
  resamples: number;
  /** Why the pairs table is empty, when it is. */
  noPairs?: string;
  items: number;
  judges: string[];
  people: string[];
  pairs: PairAgreement[];
  alpha: { all: AlphaFigure; people?: AlphaFigure };
  strata: StratumAgreement[];
}

export interface AgreementOptions {
  seed?: number;
  resamples?: number;
  confidence?: number;
  /** On an ordinal rubric: kappa's weights (quadratic by default) and alpha's metric (ordinal). */
  kappaWeights?: KappaWeights;
  alphaMetric?: Metric;
}

export function agreement(
  items: readonly RatedItem[],
  judges: ReadonlySet<string>,
  opts: AgreementOptions = {},
): TaskAgreement[] {
  const byTask = new Map<string, RatedItem[]>();
  for (const item of items) byTask.set(item.task, [...(byTask.get(item.task) ?? []), item]);
  return [...byTask].map(([task, taskItems]) => taskAgreement(task, taskItems, judges, opts));
}

function taskAgreement(
  task: string,
  items: readonly RatedItem[],
  judges: ReadonlySet<string>,
  opts: AgreementOptions,
): TaskAgreement {
  const rubric = (items[0] as RatedItem).rubric;
  const raters = [...new Set(items.flatMap((i) => [...i.labels.keys()]))];
  const judgeRaters = raters.filter((r) => judges.has(r)).sort();
  const people = raters.filter((r) => !judges.has(r)).sort();
  const c = comparison(task, rubric, judges, [...judgeRaters, ...people], opts);
  const pairs = pairsOver(c, items, 'all');
  return {
    task,
    rubric: { name: rubric.name, scale: rubric.scale, labels: rubric.labels.map((l) => l.value) },
    kappaWeights: c.weights,
    alphaMetric: c.metric,
    resamples: c.interval.resamples,
    items: items.length,
    judges: judgeRaters,
    people,
    pairs,
    ...(pairs.length === 0 && {
      noPairs:
        c.raters.length < 2
          ? `only one rater (${c.raters.join(', ') || 'none'}) labelled the items`
          : 'no two raters labelled a common item',
    }),
    alpha: {
      all: alphaOver(c, items, c.raters, 'all'),
      ...(people.length >= 2 && judgeRaters.length > 0 && { people: alphaOver(c, items, people, 'people') }),
    },
    strata: [...strataOf(items)].map(([stratum, subset]) => ({
      stratum,
      items: subset.length,
      pairs: pairsOver(c, subset, stratum),
      alpha: alphaOver(c, subset, c.raters, stratum),
    })),
  };
}

/** How one task's labels are compared: its raters (judges first), the rubric's ranks, weights and metric, and the intervals' settings. */
interface Comparison {
  task: string;
  judges: ReadonlySet<string>;
  /** Judges, then people, each sorted. */
  raters: readonly string[];
  /** The rubric's number of labels. */
  k: number;
  /** A label's rank in the rubric. */
  index: ReadonlyMap<string, number>;
  weights: KappaWeights;
  metric: Metric;
  seed: number;
  interval: { resamples: number; confidence: number };
}

function comparison(
  task: string,
  rubric: Rubric,
  judges: ReadonlySet<string>,
  raters: readonly string[],
  opts: AgreementOptions,
): Comparison {
  const ordinal = rubric.scale === 'ordinal';
  return {
    task,
    judges,
    raters,
    k: rubric.labels.length,
    index: new Map(rubric.labels.map((l, i) => [l.value, i])),
    // Weights and metrics that read an order apply to ordinal rubrics only.
    weights: ordinal ? (opts.kappaWeights ?? 'quadratic') : 'none',
    metric: ordinal ? (opts.alphaMetric ?? 'ordinal') : 'nominal',
    seed: opts.seed ?? 0,
    interval: { resamples: opts.resamples ?? AGREEMENT_RESAMPLES, confidence: opts.confidence ?? 0.95 },
  };
}

/** A rater's label of an item as its rank in the rubric; undefined where the rater gave none. */
function labelOf(c: Comparison, item: RatedItem, rater: string): Label {
  const v = item.labels.get(rater);
  return v === undefined ? undefined : c.index.get(v);
}

/** Each interval's own seed: the task, the scope, the raters and the figure. */
function seedOf(c: Comparison, ...parts: string[]): number {
  return deriveSeed(c.seed, 'judge-agreement', c.task, ...parts);
}

/** Every pair of raters with an item labelled by both, over `subset`. */
function pairsOver(c: Comparison, subset: readonly RatedItem[], scope: string): PairAgreement[] {
  const out: PairAgreement[] = [];
  for (let x = 0; x < c.raters.length; x++)
    for (let y = x + 1; y < c.raters.length; y++) {
      const a = c.raters[x] as string;
      const b = c.raters[y] as string;
      const both = subset.filter((i) => labelOf(c, i, a) !== undefined && labelOf(c, i, b) !== undefined);
      if (both.length > 0) out.push(pairAgreement(c, both, a, b, scope));
    }
  return out;
}

/** Raw agreement and kappa of two raters over the items both labelled, with their confusion matrix. */
function pairAgreement(
  c: Comparison,
  both: readonly RatedItem[],
  a: string,
  b: string,
  scope: string,
): PairAgreement {
  const col = (s: readonly RatedItem[], r: string) => s.map((i) => labelOf(c, i, r));
  const interval = c.interval;
  return {
    a,
    b,
    kind: pairKind(c.judges, a, b),
    n: both.length,
    raw: overItems(both, (s) => rawAgreement(col(s, a), col(s, b)), {
      seed: seedOf(c, scope, a, b, 'raw'),
      ...interval,
    }),
    kappa: overItems(both, (s) => cohenKappa(col(s, a), col(s, b), c.k, c.weights), {
      seed: seedOf(c, scope, a, b, 'kappa'),
      ...interval,
      undefinedBecause: 'no chance disagreement: both raters gave one and the same label throughout',
    }),
    confusion: confusionMatrix(col(both, a), col(both, b), c.k),
  };
}

function pairKind(judges: ReadonlySet<string>, a: string, b: string): PairKind {
  if (judges.has(a) && judges.has(b)) return 'judge-judge';
  return judges.has(a) || judges.has(b) ? 'judge-person' : 'person-person';
}

/** Krippendorff's alpha of `who` over the items of `subset` that two of them labelled. */
function alphaOver(
  c: Comparison,
  subset: readonly RatedItem[],
  who: readonly string[],
  scope: string,
): AlphaFigure {
  const units = subset.map((i) => who.map((r) => labelOf(c, i, r)));
  const pairable = units.filter((u) => u.filter((v) => v !== undefined).length >= 2);
  const figure = overItems(pairable, (s) => krippendorffAlpha(s, c.k, c.metric), {
    seed: seedOf(c, scope, 'alpha'),
    ...c.interval,
    undefinedBecause: 'no expected disagreement: every label given is the same',
  });
  if (pairable.length === 0) figure.unavailable = 'no item has labels from two raters';
  return { ...figure, raters: who.length, items: pairable.length };
}

/** The items of each stratum, strata in name order (items without one are in none). */
function strataOf(items: readonly RatedItem[]): [string, RatedItem[]][] {
  const strata = new Map<string, RatedItem[]>();
  for (const item of items)
    if (item.stratum !== undefined) strata.set(item.stratum, [...(strata.get(item.stratum) ?? []), item]);
  return [...strata.keys()].sort().map((stratum) => [stratum, strata.get(stratum) as RatedItem[]]);
}
