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
  const k = rubric.labels.length;
  const index = new Map(rubric.labels.map((l, i) => [l.value, i]));
  const raters = [...new Set(items.flatMap((i) => [...i.labels.keys()]))];
  const judgeRaters = raters.filter((r) => judges.has(r)).sort();
  const people = raters.filter((r) => !judges.has(r)).sort();
  const ordered = [...judgeRaters, ...people];
  const ordinal = rubric.scale === 'ordinal';
  // Weights and metrics that read an order apply to ordinal rubrics only.
  const weights: KappaWeights = ordinal ? (opts.kappaWeights ?? 'quadratic') : 'none';
  const metric: Metric = ordinal ? (opts.alphaMetric ?? 'ordinal') : 'nominal';
  const labelOf = (item: RatedItem, rater: string): Label => {
    const v = item.labels.get(rater);
    return v === undefined ? undefined : index.get(v);
  };
  const seedOf = (...parts: string[]) => deriveSeed(opts.seed ?? 0, 'judge-agreement', task, ...parts);
  const resamples = opts.resamples ?? AGREEMENT_RESAMPLES;
  const interval = { resamples, confidence: opts.confidence ?? 0.95 };

  const pairsOver = (subset: readonly RatedItem[], scope: string): PairAgreement[] => {
    const out: PairAgreement[] = [];
    for (let x = 0; x < ordered.length; x++)
      for (let y = x + 1; y < ordered.length; y++) {
        const a = ordered[x] as string;
        const b = ordered[y] as string;
        const both = subset.filter((i) => labelOf(i, a) !== undefined && labelOf(i, b) !== undefined);
        if (both.length === 0) continue;
        const col = (s: readonly RatedItem[], r: string) => s.map((i) => labelOf(i, r));
        const kind: PairKind =
          judges.has(a) && judges.has(b)
            ? 'judge-judge'
            : judges.has(a) || judges.has(b)
              ? 'judge-person'
              : 'person-person';
        out.push({
          a,
          b,
          kind,
          n: both.length,
          raw: overItems(both, (s) => rawAgreement(col(s, a), col(s, b)), {
            seed: seedOf(scope, a, b, 'raw'),
            ...interval,
          }),
          kappa: overItems(both, (s) => cohenKappa(col(s, a), col(s, b), k, weights), {
            seed: seedOf(scope, a, b, 'kappa'),
            ...interval,
            undefinedBecause: 'no chance disagreement: both raters gave one and the same label throughout',
          }),
          confusion: confusionMatrix(col(both, a), col(both, b), k),
        });
      }
    return out;
  };
  const alphaOver = (subset: readonly RatedItem[], who: readonly string[], scope: string): AlphaFigure => {
    const units = subset.map((i) => who.map((r) => labelOf(i, r)));
    const pairable = units.filter((u) => u.filter((v) => v !== undefined).length >= 2);
    const figure = overItems(pairable, (s) => krippendorffAlpha(s, k, metric), {
      seed: seedOf(scope, 'alpha'),
      ...interval,
      undefinedBecause: 'no expected disagreement: every label given is the same',
    });
    if (pairable.length === 0) figure.unavailable = 'no item has labels from two raters';
    return { ...figure, raters: who.length, items: pairable.length };
  };

  const strata = new Map<string, RatedItem[]>();
  for (const item of items)
    if (item.stratum !== undefined) strata.set(item.stratum, [...(strata.get(item.stratum) ?? []), item]);
  const pairs = pairsOver(items, 'all');
  return {
    task,
    rubric: { name: rubric.name, scale: rubric.scale, labels: rubric.labels.map((l) => l.value) },
    kappaWeights: weights,
    alphaMetric: metric,
    resamples,
    items: items.length,
    judges: judgeRaters,
    people,
    pairs,
    ...(pairs.length === 0 && {
      noPairs:
        ordered.length < 2
          ? `only one rater (${ordered.join(', ') || 'none'}) labelled the items`
          : 'no two raters labelled a common item',
    }),
    alpha: {
      all: alphaOver(items, ordered, 'all'),
      ...(people.length >= 2 && judgeRaters.length > 0 && { people: alphaOver(items, people, 'people') }),
    },
    strata: [...strata.keys()].sort().map((stratum) => {
      const subset = strata.get(stratum) as RatedItem[];
      return {
        stratum,
        items: subset.length,
        pairs: pairsOver(subset, stratum),
        alpha: alphaOver(subset, ordered, stratum),
      };
    }),
  };
}
