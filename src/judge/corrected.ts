import { percentile } from '../stats/bootstrap.js';
import { type RateInterval, roganGladen } from '../stats/rogan-gladen.js';
import type { LabellingItemRecord, LabellingSetRecord, LabelRecord } from '../store/store.js';
import { deriveSeed, PyRandom } from '../util/random.js';
import { rubricOf } from './labels.js';
import type { Rubric } from './types.js';

/**
 * Judge-corrected estimates (docs/judges.md#corrected): what a judge's figure would be had people
 * labelled every item, from the judge's error rates on the labelled sample.
 *
 * - A share (the ladder's recognition share, a gate's pass share) is corrected with Rogan–Gladen:
 *   the judge's sensitivity and specificity against the people's label, weighted by each labelled
 *   item's sampling weight, and the delta-method interval with Wilson variances for them on the
 *   weighted items' effective count.
 * - A mean score (the ladder's KB accuracy) is corrected by calibration: for each label the judge
 *   gave, the people's mean score over the labelled items the judge gave it, weighted by how often
 *   the judge gave it in the population: sum_v q_v * m_v. Its interval is a bootstrap that redraws
 *   the population's verdicts and, within each verdict, the labelled items.
 *
 * The people's label of an item is the lower median of their labels on an ordinal rubric, else
 * the most frequent (a tie gives none). The judge's error rates are pooled over groups (models):
 * it is assumed to err alike on every model's responses.
 */

export interface CorrectedFigure {
  task: string;
  judge: string;
  /** The model whose figure it is; absent for the task as a whole. */
  group?: string;
  figure: string;
  method: 'rogan-gladen' | 'calibration';
  /** The judge's figure over the population it was sampled from, and over how many verdicts. */
  raw?: number;
  n: number;
  corrected?: { value: number; low: number; high: number };
  /** Labelled items the correction rests on. */
  labelled: number;
  /**
   * Rogan–Gladen's inputs: the judge's sensitivity and specificity on the labelled items, with their
   * Wilson intervals and (effective) counts.
   */
  sensitivity?: RateInterval;
  specificity?: RateInterval;
  unavailable?: string;
}

export function peopleLabel(rubric: Rubric, labels: readonly string[]): string | undefined {
  const index = new Map(rubric.labels.map((l, i) => [l.value, i]));
  const idx = labels.map((l) => index.get(l)).filter((v): v is number => v !== undefined);
  if (idx.length === 0) return undefined;
  if (rubric.scale === 'ordinal') {
    idx.sort((a, b) => a - b);
    return rubric.labels[idx[Math.floor((idx.length - 1) / 2)] as number]?.value;
  }
  const counts = new Map<number, number>();
  for (const i of idx) counts.set(i, (counts.get(i) ?? 0) + 1);
  const most = Math.max(...counts.values());
  const top = [...counts].filter(([, c]) => c === most);
  return top.length === 1 ? rubric.labels[(top[0] as [number, number])[0]]?.value : undefined;
}

export function correctedEstimates(
  set: LabellingSetRecord,
  labels: readonly LabelRecord[],
  judges: ReadonlySet<string>,
  opts: { seed?: number; resamples?: number; confidence?: number } = {},
): CorrectedFigure[] {
  const people = new Map<string, string[]>();
  for (const l of labels)
    if (!judges.has(l.rater)) people.set(l.item, [...(people.get(l.item) ?? []), l.label]);
  const out: CorrectedFigure[] = [];
  const tasks = [...new Set(set.items.map((i) => i.task))];
  for (const task of tasks) {
    const items = set.items.filter((i) => i.task === task);
    const rubric = rubricOf(items[0] as LabellingItemRecord);
    const truth = new Map(items.map((i) => [i.id, peopleLabel(rubric, people.get(i.id) ?? [])]));
    const population = set.population.filter((p) => p.task === task);
    const groups = [...new Set(population.map((p) => p.group))];
    for (const judge of [...new Set(population.map((p) => p.judge))].sort())
      for (const group of groups) {
        const counts = new Map<string, number>();
        for (const p of population)
          if (p.judge === judge && p.group === group && p.label !== undefined)
            counts.set(p.label, (counts.get(p.label) ?? 0) + p.count);
        const labelled = items.flatMap((i) => {
          const h = truth.get(i.id);
          const j = i.verdicts.find((v) => v.judge === judge)?.label;
          return h !== undefined && j !== undefined ? [{ h, j, w: i.weight }] : [];
        });
        const ctx = { task, judge, ...(group !== undefined && { group }) };
        const seed = deriveSeed(opts.seed ?? 0, 'judge-corrected', task, judge, group ?? '');
        if (rubric.figures?.mean && rubric.labels.every((l) => l.score !== undefined))
          out.push({
            ...ctx,
            ...calibratedMean(rubric, counts, labelled, seed, opts),
            figure: rubric.figures.mean,
          });
        if (rubric.figures?.share && rubric.labels.some((l) => l.positive))
          out.push({
            ...ctx,
            ...correctedShare(rubric, counts, labelled, opts.confidence),
            figure: rubric.figures.share,
          });
      }
  }
  return out;
}

interface Labelled {
  h: string;
  j: string;
  w: number;
}

type Part = Omit<CorrectedFigure, 'task' | 'judge' | 'group' | 'figure'>;

function correctedShare(
  rubric: Rubric,
  counts: ReadonlyMap<string, number>,
  labelled: readonly Labelled[],
  confidence = 0.95,
): Part {
  const positive = new Set(rubric.labels.filter((l) => l.positive).map((l) => l.value));
  const n = [...counts.values()].reduce((s, v) => s + v, 0);
  const hits = [...counts].reduce((s, [label, c]) => s + (positive.has(label) ? c : 0), 0);
  const base: Part = {
    method: 'rogan-gladen',
    n,
    labelled: labelled.length,
    ...(n > 0 && { raw: hits / n }),
  };
  const pos = labelled.filter((l) => positive.has(l.h));
  const neg = labelled.filter((l) => !positive.has(l.h));
  if (n === 0) return { ...base, unavailable: 'the judge gave no verdict' };
  if (pos.length === 0 || neg.length === 0)
    return { ...base, unavailable: 'the labelled items need both positives and negatives by the people' };
  const weight = (xs: readonly Labelled[]) => xs.reduce((s, x) => s + x.w, 0);
  const r = roganGladen(
    {
      observed: hits / n,
      n,
      sensitivity: weight(pos.filter((l) => positive.has(l.j))) / weight(pos),
      nPositive: effectiveCount(pos),
      specificity: weight(neg.filter((l) => !positive.has(l.j))) / weight(neg),
      nNegative: effectiveCount(neg),
    },
    confidence,
  );
  if (!r)
    return {
      ...base,
      unavailable:
        'the judge is no better than chance on the labelled items (sensitivity + specificity <= 1)',
    };
  return {
    ...base,
    corrected: { value: r.value, low: r.low, high: r.high },
    sensitivity: r.sensitivity,
    specificity: r.specificity,
  };
}

/** Kish's effective sample size of weighted items, (sum w)^2 / sum w^2: their count when the weights are equal. */
export function effectiveCount(xs: readonly { w: number }[]): number {
  const sum = xs.reduce((s, x) => s + x.w, 0);
  const squares = xs.reduce((s, x) => s + x.w * x.w, 0);
  return squares === 0 ? 0 : (sum * sum) / squares;
}

function calibratedMean(
  rubric: Rubric,
  counts: ReadonlyMap<string, number>,
  labelled: readonly Labelled[],
  seed: number,
  opts: { resamples?: number; confidence?: number },
): Part {
  const score = new Map(rubric.labels.map((l) => [l.value, l.score as number]));
  const n = [...counts.values()].reduce((s, v) => s + v, 0);
  const raw =
    n > 0 ? [...counts].reduce((s, [label, c]) => s + (score.get(label) ?? 0) * c, 0) / n : undefined;
  const base: Part = {
    method: 'calibration',
    n,
    labelled: labelled.length,
    ...(raw !== undefined && { raw }),
  };
  if (n === 0) return { ...base, unavailable: 'the judge gave no verdict' };
  const byVerdict = new Map<string, Labelled[]>();
  for (const l of labelled) byVerdict.set(l.j, [...(byVerdict.get(l.j) ?? []), l]);
  const missing = [...counts.keys()].filter((v) => (counts.get(v) ?? 0) > 0 && !byVerdict.has(v));
  if (missing.length > 0)
    return { ...base, unavailable: `no labelled item the judge scored ${missing.join(', ')}` };
  const verdicts = [...counts.keys()];
  const meanOf = (xs: readonly Labelled[]) =>
    xs.reduce((s, x) => s + x.w * (score.get(x.h) as number), 0) / xs.reduce((s, x) => s + x.w, 0);
  const estimate = (q: ReadonlyMap<string, number>, groups: ReadonlyMap<string, readonly Labelled[]>) => {
    const total = [...q.values()].reduce((s, v) => s + v, 0);
    return verdicts.reduce((s, v) => s + ((q.get(v) ?? 0) / total) * meanOf(groups.get(v) as Labelled[]), 0);
  };
  const value = estimate(counts, byVerdict);
  const rng = new PyRandom(seed);
  const resamples = opts.resamples ?? 1000;
  const draws: number[] = [];
  const cumulative = verdicts.map((_, i) =>
    verdicts.slice(0, i + 1).reduce((s, u) => s + (counts.get(u) ?? 0), 0),
  );
  for (let b = 0; b < resamples; b++) {
    const q = new Map<string, number>();
    for (let i = 0; i < n; i++) {
      const u = rng.random() * n;
      const v = verdicts[cumulative.findIndex((c) => u < c)] as string;
      q.set(v, (q.get(v) ?? 0) + 1);
    }
    const groups = new Map(
      [...byVerdict].map(([v, xs]) => [
        v,
        Array.from({ length: xs.length }, () => xs[rng.randbelow(xs.length)] as Labelled),
      ]),
    );
    draws.push(estimate(q, groups));
  }
  draws.sort((a, b) => a - b);
  const c = opts.confidence ?? 0.95;
  return {
    ...base,
    corrected: { value, low: percentile(draws, (1 - c) / 2), high: percentile(draws, 1 - (1 - c) / 2) },
  };
}
