import { PyRandom } from '../../../util/random.js';

/**
 * The estimators' interface (docs/spread.md#estimators), fixed for the two engineers of issue 39.
 * THIS FILE IS THE PROTOCOL SIDE'S PLACEHOLDER: the plain mean of the observed cells per template
 * with percentile-bootstrap intervals over items, a balanced cell plan and Beta-Bernoulli Thompson
 * sampling; the estimators' own file (PromptEval's IRT model) replaces it whole.
 */

export interface CellObservation {
  template: number;
  item: number;
  correct: number;
}
export interface SpreadEstimateInput {
  nTemplates: number;
  nItems: number;
  observations: readonly CellObservation[];
  templateCovariates?: readonly (readonly number[])[];
  itemCovariates?: readonly (readonly number[])[];
  seed: number;
}
export interface Interval {
  value: number;
  lo: number;
  hi: number;
}
export interface SpreadEstimate {
  method: string;
  perTemplate: number[];
  quantiles: Array<{ q: number } & Interval>;
  best: { template: number } & Interval;
  worst: { template: number } & Interval;
  spread: Interval;
  observedCells: number;
}

export const SPREAD_QUANTILES = [0.05, 0.25, 0.5, 0.75, 0.95] as const;
const RESAMPLES = 400;

/** numpy's default (linear) quantile of sorted values. */
function quantile(sorted: readonly number[], q: number): number {
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const a = sorted[lo] ?? Number.NaN;
  const b = sorted[Math.min(lo + 1, sorted.length - 1)] ?? a;
  return a + (h - lo) * (b - a);
}

/** Each template's mean over the observed cells, items weighted by how often a resample drew them. */
function templateMeans(nTemplates: number, byItem: readonly CellObservation[][], weights: readonly number[]) {
  const sum = new Float64Array(nTemplates);
  const n = new Float64Array(nTemplates);
  byItem.forEach((obs, i) => {
    const w = weights[i] ?? 0;
    if (w === 0) return;
    for (const o of obs) {
      sum[o.template] = (sum[o.template] ?? 0) + w * o.correct;
      n[o.template] = (n[o.template] ?? 0) + w;
    }
  });
  return Array.from(sum, (s, t) => ((n[t] ?? 0) > 0 ? s / (n[t] ?? 1) : Number.NaN));
}

function summary(means: readonly number[]) {
  const known = means.filter((m) => !Number.isNaN(m)).sort((a, b) => a - b);
  return {
    quantiles: SPREAD_QUANTILES.map((q) => quantile(known, q)),
    max: known[known.length - 1] ?? Number.NaN,
    min: known[0] ?? Number.NaN,
  };
}

function interval(value: number, draws: number[], level: number): Interval {
  const ok = draws.filter((d) => !Number.isNaN(d)).sort((a, b) => a - b);
  return { value, lo: quantile(ok, (1 - level) / 2), hi: quantile(ok, (1 + level) / 2) };
}

export function estimateSpread(
  input: SpreadEstimateInput,
  options: { method?: 'prompteval' | 'full-grid'; level?: number } = {},
): SpreadEstimate {
  const level = options.level ?? 0.95;
  const byItem: CellObservation[][] = Array.from({ length: input.nItems }, () => []);
  const cells = new Set<number>();
  for (const o of input.observations) {
    byItem[o.item]?.push(o);
    cells.add(o.template * input.nItems + o.item);
  }
  const perTemplate = templateMeans(
    input.nTemplates,
    byItem,
    byItem.map(() => 1),
  );
  const point = summary(perTemplate);
  const argOf = (v: number) => perTemplate.indexOf(v);
  const best = argOf(point.max);
  const worst = argOf(point.min);
  const rng = new PyRandom(input.seed);
  const draws = {
    q: SPREAD_QUANTILES.map(() => [] as number[]),
    best: [] as number[],
    worst: [] as number[],
    spread: [] as number[],
  };
  for (let b = 0; b < RESAMPLES; b++) {
    const w = new Array<number>(input.nItems).fill(0);
    for (let i = 0; i < input.nItems; i++) {
      const j = rng.randbelow(input.nItems);
      w[j] = (w[j] ?? 0) + 1;
    }
    const means = templateMeans(input.nTemplates, byItem, w);
    const s = summary(means);
    s.quantiles.forEach((v, k) => {
      draws.q[k]?.push(v);
    });
    draws.best.push(means[best] ?? Number.NaN);
    draws.worst.push(means[worst] ?? Number.NaN);
    draws.spread.push(s.max - s.min);
  }
  return {
    method: 'observed-mean',
    perTemplate,
    quantiles: SPREAD_QUANTILES.map((q, k) => ({
      q,
      ...interval(point.quantiles[k] ?? Number.NaN, draws.q[k] ?? [], level),
    })),
    best: { template: best, ...interval(point.max, draws.best, level) },
    worst: { template: worst, ...interval(point.min, draws.worst, level) },
    spread: interval(point.max - point.min, draws.spread, level),
    observedCells: cells.size,
  };
}

/**
 * The cells for a budget: templates and items each as evenly used as the budget allows, which
 * items a template gets from a seeded order of the items, offset per template.
 */
export function planCells(nTemplates: number, nItems: number, cells: number, seed: number) {
  const rng = new PyRandom(seed);
  const items = Array.from({ length: nItems }, (_, i) => i);
  const templates = Array.from({ length: nTemplates }, (_, t) => t);
  rng.shuffle(items);
  rng.shuffle(templates);
  const total = Math.min(cells, nTemplates * nItems);
  const out: Array<{ template: number; item: number }> = [];
  for (let k = 0; k < total; k++) {
    const t = k % nTemplates;
    const j = Math.floor(k / nTemplates);
    const offset = Math.floor((t * nItems) / nTemplates);
    out.push({ template: templates[t] ?? 0, item: items[(j + offset) % nItems] ?? 0 });
  }
  return out;
}

/** A Gamma(shape, 1) draw (Marsaglia and Tsang), for the Beta posterior draws. */
function gamma(rng: PyRandom, shape: number): number {
  if (shape < 1) return gamma(rng, shape + 1) * rng.random() ** (1 / shape);
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    const x = Math.sqrt(-2 * Math.log(1 - rng.random())) * Math.cos(2 * Math.PI * rng.random());
    const v = (1 + c * x) ** 3;
    if (v <= 0) continue;
    const u = rng.random();
    if (Math.log(u) < 0.5 * x * x + d - d * v + d * Math.log(v)) return d * v;
  }
}

/** Thompson sampling over templates with a Beta prior on each one's accuracy. */
export function createThompsonSearch(opts: {
  nArms: number;
  seed: number;
  target: 'best' | 'worst';
  prior?: { alpha: number; beta: number };
}) {
  const rng = new PyRandom(opts.seed);
  const { alpha, beta } = opts.prior ?? { alpha: 1, beta: 1 };
  const wins = new Array<number>(opts.nArms).fill(0);
  const pulls = new Array<number>(opts.nArms).fill(0);
  return {
    next(): number {
      let arm = 0;
      let bestDraw = Number.NEGATIVE_INFINITY;
      for (let a = 0; a < opts.nArms; a++) {
        const x = gamma(rng, alpha + (wins[a] ?? 0));
        const y = gamma(rng, beta + (pulls[a] ?? 0) - (wins[a] ?? 0));
        const p = x / (x + y);
        const draw = opts.target === 'best' ? p : -p;
        if (draw > bestDraw) [arm, bestDraw] = [a, draw];
      }
      return arm;
    },
    update(arm: number, reward: number): void {
      wins[arm] = (wins[arm] ?? 0) + reward;
      pulls[arm] = (pulls[arm] ?? 0) + 1;
    },
    posteriorMean: (arm: number) => (alpha + (wins[arm] ?? 0)) / (alpha + beta + (pulls[arm] ?? 0)),
  };
}
