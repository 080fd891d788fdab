import {
  cohenKappa,
  confusionMatrix,
  type Interval,
  krippendorffAlpha,
  type Label,
  overItems,
  rawAgreement,
} from '../stats/agreement.js';
import { deriveSeed } from '../util/random.js';
import type { Rubric } from './types.js';

/**
 * `waver judge agreement` (docs/judges.md#agreement): for each task (one rubric), every pair of
 * raters — judge vs each person, person vs person, judge vs judge — with raw agreement, Cohen's
 * kappa (quadratic weights on an ordinal rubric, unweighted on a binary or nominal one) and the
 * confusion matrix; Krippendorff's alpha (ordinal metric on an ordinal rubric, nominal otherwise)
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
  kappaWeights: 'quadratic' | 'none';
  alphaMetric: 'ordinal' | 'nominal';
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
  const weights = ordinal ? 'quadratic' : 'none';
  const metric = ordinal ? 'ordinal' : 'nominal';
  const labelOf = (item: RatedItem, rater: string): Label => {
    const v = item.labels.get(rater);
    return v === undefined ? undefined : index.get(v);
  };
  const seedOf = (...parts: string[]) => deriveSeed(opts.seed ?? 0, 'judge-agreement', task, ...parts);
  const interval = { resamples: opts.resamples ?? 1000, confidence: opts.confidence ?? 0.95 };

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
    });
    return { ...figure, raters: who.length, items: pairable.length };
  };

  const strata = new Map<string, RatedItem[]>();
  for (const item of items)
    if (item.stratum !== undefined) strata.set(item.stratum, [...(strata.get(item.stratum) ?? []), item]);
  return {
    task,
    rubric: { name: rubric.name, scale: rubric.scale, labels: rubric.labels.map((l) => l.value) },
    kappaWeights: weights,
    alphaMetric: metric,
    items: items.length,
    judges: judgeRaters,
    people,
    pairs: pairsOver(items, 'all'),
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
