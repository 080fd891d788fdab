import { clusterBootstrap, percentile } from '../../stats/bootstrap.js';
import { deriveSeed } from '../../util/random.js';

/**
 * The paraphrase protocol's metrics (docs/method.md#paraphrase; docs/paraphrase.md#metrics),
 * computed from scored cells alone. Every rate comes with a 95% percentile CI from a seeded
 * cluster bootstrap over items (phrasings and repeats of an item move together), and says what
 * it is over. A rate with nothing to be over is unavailable, with the reason, never 0.
 */

export interface ParaphraseDesign {
  items: readonly string[];
  phrasings: readonly string[];
  repeats: number;
}

/** One stored cell, scored. A (item, phrasing, repeat) with no observation is pending. */
export interface ParaphraseObservation {
  item: string;
  phrasing: string;
  repeat: number;
  status: 'done' | 'failed';
  /** The chosen option in the item's own lettering; undefined when unparsed (or failed). */
  answer?: string;
  /** The letter as the model gave it (shown lettering), for the flip list. */
  given?: string;
  /** The key as that phrasing showed it, for the flip list. */
  key?: string;
  correct: boolean;
  /** Failed cells: why. */
  error?: { kind: string; message: string };
  /** Free text carried into flips and errors (a reply excerpt). */
  note?: string;
}

/**
 * A rate with its interval, or why there is none: a discriminated union on `value`, so a caller
 * that checks `value !== undefined` reads `low` and `high` as numbers (docs/protocols.md#library).
 */
export type Estimate = MeasuredEstimate | UnavailableEstimate;

interface EstimateBase {
  /** How many units the rate is over (cells, items, groups). */
  n: number;
  /** What n counts, e.g. "320 cells (32 items x 5 phrasings x 2 repeats)". */
  over: string;
}

export interface MeasuredEstimate extends EstimateBase {
  value: number;
  /** The percentile interval over items; [0, 1] when no resample could score the rate. */
  low: number;
  high: number;
  unavailable?: undefined;
}

export interface UnavailableEstimate extends EstimateBase {
  value: undefined;
  low: undefined;
  high: undefined;
  /** Why the value is missing. */
  unavailable: string;
}

export interface Flip {
  item: string;
  phrasing: string;
  repeat: number;
  /** The letter given as shown in that phrasing, or `unparsed`. */
  given: string;
  /** The same choice in the item's own lettering, when parsed. */
  answer?: string;
  /** The key as that phrasing showed it. */
  key?: string;
  note?: string;
}

export interface ParaphraseModelMetrics {
  coverage: {
    expected: number;
    done: number;
    failed: number;
    pending: number;
    share: number;
    /** share >= minCoverage. */
    complete: boolean;
    errorsByKind: Record<string, number>;
  };
  /** Correct cells over all expected cells: a failed or pending cell counts as wrong. */
  rawAccuracy: Estimate;
  /** Items correct in every phrasing x repeat, over items whose cells are all done. */
  saa: Estimate & { itemsScored: number; itemsExcluded: number };
  perPhrasing: {
    phrasing: string;
    accuracy: Estimate;
    parsed: number;
    done: number;
    /** parsed / done; undefined when no cell is done. */
    parseRate: number | undefined;
  }[];
  parse: { parsed: number; done: number; rate: number | undefined };
  /** Share of (item, phrasing) whose repeats gave different answers. */
  runInstability: Estimate;
  /** Share of (item, repeat) whose answers differ across phrasings. */
  promptInstability: Estimate;
  /** Wrong or unparsed answers to items the model answered correctly elsewhere. */
  flips: Flip[];
  /** Items never answered correctly in any done cell (lost to SAA without a flip). */
  neverCorrect: string[];
  errors: { item: string; phrasing: string; repeat: number; kind: string; message: string }[];
}

export interface ParaphraseMetricOptions {
  /** The run seed; the model's bootstrap seed is derived from it and the stream key. */
  seed: number;
  /** Separates models' bootstrap streams (their identity). */
  streamKey: string;
  resamples?: number;
  confidence?: number;
  minCoverage?: number;
}

const UNPARSED = '\u0000unparsed';

/** Per-item numerator and denominator: every rate here is sum(num) / sum(den) over items. */
interface Ratio {
  num: Float64Array;
  den: Float64Array;
}

/**
 * Every rate of one model from the same resamples of its items (one seeded stream per model): the
 * CIs of SAA, raw accuracy and the instabilities are then computed on identical item draws, so they
 * are coherent with each other, and the model's 2,000 draws are made once, not once per rate.
 * Percentile CIs as clusterBootstrap computes them; a resample where a rate is undefined (no
 * denominator) is left out of that rate's interval.
 */
function bootstrapRatios(
  ratios: readonly Ratio[],
  opts: ParaphraseMetricOptions,
): { low?: number; high?: number }[] {
  const n = ratios[0]?.den.length ?? 0;
  if (n === 0) return ratios.map(() => ({}));
  const dists = ratios.map(() => [] as number[]);
  const valueOn = (r: Ratio, idx: ArrayLike<number>): number | undefined => {
    let a = 0;
    let b = 0;
    for (let k = 0; k < idx.length; k++) {
      const i = idx[k] as number;
      a += r.num[i] as number;
      b += r.den[i] as number;
    }
    return b === 0 ? undefined : a / b;
  };
  const confidence = opts.confidence ?? 0.95;
  clusterBootstrap(
    Array.from({ length: n }, (_, i) => i),
    (sample) => valueOn(ratios[0] as Ratio, sample),
    {
      seed: deriveSeed(opts.seed, 'paraphrase-bootstrap', opts.streamKey),
      resamples: opts.resamples ?? 2000,
      confidence,
      statisticOnIndices: (idx) => {
        for (let k = 0; k < ratios.length; k++) {
          const v = valueOn(ratios[k] as Ratio, idx);
          if (v !== undefined) (dists[k] as number[]).push(v);
        }
        return valueOn(ratios[0] as Ratio, idx);
      },
    },
  );
  const alpha = (1 - confidence) / 2;
  return dists.map((d) => {
    if (d.length === 0) return {};
    const sorted = Float64Array.from(d).sort();
    return { low: percentile(sorted, alpha), high: percentile(sorted, 1 - alpha) };
  });
}

function estimateOf(
  r: Ratio,
  ci: { low?: number; high?: number },
  over: string,
  unavailable: string,
): Estimate {
  let num = 0;
  let den = 0;
  for (let i = 0; i < r.den.length; i++) {
    num += r.num[i] as number;
    den += r.den[i] as number;
  }
  if (den === 0) return { value: undefined, low: undefined, high: undefined, n: 0, over, unavailable };
  // Every resample missed the scored items (a handful of resamples, most items unscored): the
  // interval is everything a rate can be, not a made-up width.
  return { value: num / den, low: ci.low ?? 0, high: ci.high ?? 1, n: den, over };
}

export function paraphraseMetrics(
  design: ParaphraseDesign,
  observations: readonly ParaphraseObservation[],
  opts: ParaphraseMetricOptions,
): ParaphraseModelMetrics {
  const grid = new ObservationGrid(design, observations);
  const { I, P, R } = grid;
  const tally = tallyCells(grid);
  const saa = saaRatio(grid, tally);
  const runInst = R >= 2 ? disagreement(grid, (i) => grid.repeatsOf(i)) : emptyRatio(I);
  const promptInst = P >= 2 ? disagreement(grid, (i) => grid.phrasingsOf(i)) : emptyRatio(I);
  const expected = I * P * R;
  const itemsScored = sum(saa.den);
  const share = expected === 0 ? 0 : tally.done / expected;
  const ratios = [saa, tally.raw, runInst, promptInst, ...tally.perPhrasing.map((ph) => ph.ratio)];
  const [saaCi, rawCi, runCi, promptCi, ...phrasingCis] = bootstrapRatios(ratios, opts) as [
    { low?: number; high?: number },
    ...{ low?: number; high?: number }[],
  ];
  const noCi = {};
  return {
    coverage: {
      expected,
      done: tally.done,
      failed: tally.failed,
      pending: expected - tally.done - tally.failed,
      share,
      complete: expected > 0 && share >= (opts.minCoverage ?? 0.9),
      errorsByKind: tally.errorsByKind,
    },
    rawAccuracy: estimateOf(
      tally.raw,
      rawCi ?? noCi,
      `${expected} cells (${I} items x ${P} phrasings x ${R} repeats); failed and pending cells count as wrong`,
      'no cells',
    ),
    saa: {
      ...estimateOf(
        saa,
        saaCi,
        `${itemsScored} items with all ${P * R} cells done (${I - itemsScored} incomplete items excluded)`,
        'no item has all its cells done',
      ),
      itemsScored,
      itemsExcluded: I - itemsScored,
    },
    perPhrasing: tally.perPhrasing.map((ph, p) => ({
      phrasing: grid.phrasings[p] as string,
      accuracy: estimateOf(
        ph.ratio,
        phrasingCis[p] ?? noCi,
        `${I * R} cells (${I} items x ${R} repeats)`,
        'no cells',
      ),
      parsed: ph.parsed,
      done: ph.done,
      parseRate: ph.done === 0 ? undefined : ph.parsed / ph.done,
    })),
    parse: {
      parsed: tally.parsed,
      done: tally.done,
      rate: tally.done === 0 ? undefined : tally.parsed / tally.done,
    },
    runInstability: instability(runInst, runCi ?? noCi, tally, '(item, phrasing)', R, 'repeats'),
    promptInstability: instability(promptInst, promptCi ?? noCi, tally, '(item, repeat)', P, 'phrasings'),
    flips: flipsOf(grid, tally),
    neverCorrect: grid.items.filter(
      (_, i) => (tally.itemDone[i] as number) > 0 && tally.itemCorrect[i] === 0,
    ),
    errors: tally.errors,
  };
}

/** The design's cells: the observation of each (item, phrasing, repeat), or undefined while pending. */
class ObservationGrid {
  readonly items: readonly string[];
  readonly phrasings: readonly string[];
  readonly I: number;
  readonly P: number;
  readonly R: number;
  readonly #cells: (ParaphraseObservation | undefined)[][][];

  constructor(design: ParaphraseDesign, observations: readonly ParaphraseObservation[]) {
    this.items = design.items;
    this.phrasings = design.phrasings;
    this.I = design.items.length;
    this.P = design.phrasings.length;
    this.R = design.repeats;
    const R = this.R;
    this.#cells = design.items.map(() =>
      design.phrasings.map(() => new Array<ParaphraseObservation | undefined>(R).fill(undefined)),
    );
    const itemIndex = new Map(design.items.map((id, i) => [id, i]));
    const phrasingIndex = new Map(design.phrasings.map((p, i) => [p, i]));
    for (const o of observations) {
      const i = itemIndex.get(o.item);
      const p = phrasingIndex.get(o.phrasing);
      if (i === undefined || p === undefined || o.repeat < 0 || o.repeat >= R) continue; // not in the design
      const row = this.#cells[i]?.[p];
      if (row) row[o.repeat] = o;
    }
  }

  at(i: number, p: number, r: number): ParaphraseObservation | undefined {
    return this.#cells[i]?.[p]?.[r];
  }

  /** An item's cells by phrasing, each with its repeats: the groups run instability compares. */
  repeatsOf(i: number): (ParaphraseObservation | undefined)[][] {
    return range(this.P).map((p) => range(this.R).map((r) => this.at(i, p, r)));
  }

  /** An item's cells by repeat, each with its phrasings: the groups prompt instability compares. */
  phrasingsOf(i: number): (ParaphraseObservation | undefined)[][] {
    return range(this.R).map((r) => range(this.P).map((p) => this.at(i, p, r)));
  }
}

/** What the cells count up to: coverage, parse rates, and the correct cells per item and per phrasing. */
interface CellTally {
  done: number;
  failed: number;
  parsed: number;
  errorsByKind: Record<string, number>;
  errors: ParaphraseModelMetrics['errors'];
  /** Correct cells over every expected cell, per item. */
  raw: Ratio;
  perPhrasing: { ratio: Ratio; parsed: number; done: number }[];
  itemDone: number[];
  itemCorrect: number[];
}

function tallyCells(grid: ObservationGrid): CellTally {
  const { I, P, R } = grid;
  const t: CellTally = {
    done: 0,
    failed: 0,
    parsed: 0,
    errorsByKind: {},
    errors: [],
    raw: emptyRatio(I),
    perPhrasing: grid.phrasings.map(() => ({ ratio: emptyRatio(I), parsed: 0, done: 0 })),
    itemDone: new Array<number>(I).fill(0),
    itemCorrect: new Array<number>(I).fill(0),
  };
  for (let i = 0; i < I; i++)
    for (let p = 0; p < P; p++) {
      const ph = t.perPhrasing[p] as CellTally['perPhrasing'][number];
      ph.ratio.den[i] = R;
      for (let r = 0; r < R; r++) {
        t.raw.den[i] = (t.raw.den[i] as number) + 1;
        const o = grid.at(i, p, r);
        if (!o) continue;
        if (o.status === 'failed') {
          t.failed++;
          const kind = o.error?.kind ?? 'unknown';
          t.errorsByKind[kind] = (t.errorsByKind[kind] ?? 0) + 1;
          const where = { item: grid.items[i] as string, phrasing: grid.phrasings[p] as string, repeat: r };
          t.errors.push({ ...where, kind, message: o.error?.message ?? '' });
          continue;
        }
        t.done++;
        t.itemDone[i] = (t.itemDone[i] as number) + 1;
        ph.done++;
        if (o.answer !== undefined) {
          t.parsed++;
          ph.parsed++;
        }
        if (o.correct) {
          t.itemCorrect[i] = (t.itemCorrect[i] as number) + 1;
          t.raw.num[i] = (t.raw.num[i] as number) + 1;
          ph.ratio.num[i] = (ph.ratio.num[i] as number) + 1;
        }
      }
    }
  return t;
}

/**
 * Each item's SAA verdict, as SAA counts it: true when every cell of the item is right, false when
 * one is not, undefined when not every cell is done (an incomplete item SAA leaves out). The pairs
 * of `check --compare --metric saa` (docs/check.md#metric).
 */
export function saaByItem(
  design: ParaphraseDesign,
  observations: readonly ParaphraseObservation[],
): Map<string, boolean | undefined> {
  const grid = new ObservationGrid(design, observations);
  const saa = saaRatio(grid, tallyCells(grid));
  return new Map(grid.items.map((item, i) => [item, saa.den[i] === 1 ? saa.num[i] === 1 : undefined]));
}

/** SAA per item: over the items whose every cell is done, 1 when all of them are correct. */
function saaRatio(grid: ObservationGrid, tally: CellTally): Ratio {
  const saa = emptyRatio(grid.I);
  const cells = grid.P * grid.R;
  for (let i = 0; i < grid.I; i++)
    if (tally.itemDone[i] === cells) {
      saa.den[i] = 1;
      saa.num[i] = tally.itemCorrect[i] === cells ? 1 : 0;
    }
  return saa;
}

/** The wrong or unparsed done cells of the items the model also answered correctly. */
function flipsOf(grid: ObservationGrid, tally: CellTally): Flip[] {
  const flips: Flip[] = [];
  for (let i = 0; i < grid.I; i++) {
    const correct = tally.itemCorrect[i] as number;
    if (correct === 0 || correct >= (tally.itemDone[i] as number)) continue;
    for (let p = 0; p < grid.P; p++)
      for (let r = 0; r < grid.R; r++) {
        const o = grid.at(i, p, r);
        if (o?.status === 'done' && !o.correct)
          flips.push({
            item: grid.items[i] as string,
            phrasing: grid.phrasings[p] as string,
            repeat: r,
            given: o.given ?? (o.answer === undefined ? 'unparsed' : o.answer),
            ...(o.answer !== undefined ? { answer: o.answer } : {}),
            ...(o.key !== undefined ? { key: o.key } : {}),
            ...(o.note !== undefined ? { note: o.note } : {}),
          });
      }
  }
  return flips;
}

/**
 * Per item, its groups of cells whose every cell is done (the denominator) and those whose answers
 * differ (the numerator); an unparsed reply is an answer of its own.
 */
function disagreement(
  grid: ObservationGrid,
  groupsOf: (i: number) => (ParaphraseObservation | undefined)[][],
): Ratio {
  const ratio = emptyRatio(grid.I);
  for (let i = 0; i < grid.I; i++)
    for (const group of groupsOf(i)) {
      const answers = group.flatMap((o) => (o?.status === 'done' ? [o.answer ?? UNPARSED] : []));
      if (answers.length !== group.length) continue;
      ratio.den[i] = (ratio.den[i] as number) + 1;
      if (new Set(answers).size > 1) ratio.num[i] = (ratio.num[i] as number) + 1;
    }
  return ratio;
}

/** Run or prompt instability: unavailable with fewer than 2 repeats (phrasings) to compare, or with nothing parsed. */
function instability(
  ratio: Ratio,
  ci: { low?: number; high?: number },
  tally: CellTally,
  pairs: '(item, phrasing)' | '(item, repeat)',
  compared: number,
  across: 'repeats' | 'phrasings',
): Estimate {
  const units = `${pairs} pairs`;
  if (compared < 2) return unavailable(units, `needs at least 2 ${across}`);
  if (tally.parsed === 0 && tally.done > 0) return unavailable(units, nothingParsed(tally.done));
  return estimateOf(
    ratio,
    ci,
    `${sum(ratio.den)} ${units} with all ${compared} ${across} done`,
    `no ${pairs} pair has all its ${across} done`,
  );
}

function emptyRatio(n: number): Ratio {
  return { num: new Float64Array(n), den: new Float64Array(n) };
}

function range(n: number): number[] {
  return Array.from({ length: n }, (_, k) => k);
}

/**
 * Why instability is unavailable for a model that never answered parseably: every answer is the
 * same "unparsed", which is no agreement (docs/fidelity.md P11).
 */
function nothingParsed(done: number): string {
  return `no answer was parsed (parse rate 0/${done}): agreement between answers cannot be measured`;
}

function sum(xs: Float64Array): number {
  let s = 0;
  for (const x of xs) s += x;
  return s;
}

function unavailable(over: string, reason: string): Estimate {
  return { value: undefined, low: undefined, high: undefined, n: 0, over, unavailable: reason };
}

export interface Leaderboard<M> {
  /** Complete models by SAA (then raw accuracy), best first. */
  ranked: M[];
  /** Below the coverage threshold: reported, not ranked. */
  incomplete: M[];
}

/**
 * Ranks complete models by SAA, then raw accuracy, then name (a stable order for ties). Whether
 * two of them differ is the paired test's (check/eval-comparison.ts), not their intervals'
 * overlap: two separate intervals that overlap are no test, least of all on paired data.
 */
export function paraphraseLeaderboard<M extends { label: string; metrics: ParaphraseModelMetrics }>(
  models: readonly M[],
): Leaderboard<M> {
  const incomplete = models.filter((m) => !m.metrics.coverage.complete);
  const key = (e: Estimate) => e.value ?? Number.NEGATIVE_INFINITY;
  const ranked = models
    .filter((m) => m.metrics.coverage.complete)
    .sort(
      (a, b) =>
        key(b.metrics.saa) - key(a.metrics.saa) ||
        key(b.metrics.rawAccuracy) - key(a.metrics.rawAccuracy) ||
        a.label.localeCompare(b.label),
    );
  return { ranked, incomplete };
}
