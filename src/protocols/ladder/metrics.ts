import { clusterBootstrap, percentilesOf } from '../../stats/bootstrap.js';
import { deriveSeed } from '../../util/random.js';
import { COLLAPSE_SLACK, collapses } from './collapse.js';
import { derive, SLOT_BASELINE, type SlotLayout, slotLayout } from './metric-slots.js';
import { type Family, KB_LEVEL, KB_TYPES, type KbType, LEVELS, type Level } from './types.js';

/**
 * The ladder paper's metrics (Section 3.2) with the decisions of docs/method.md#ladder-metrics, over
 * per-response observations: Accuracy = mean correctness; Magnitude = mean perturbation magnitude;
 * Stability = sum(correctness x magnitude) / sum(magnitude); Collapse Point = the lowest measured
 * level k with tests and acc(Lk) < 0.80 x acc(L0). A failed call counts wrong in Accuracy and is
 * left out of Stability, as the reference code has it (docs/fidelity.md#ladder). Every figure
 * carries a 95% percentile CI from a bootstrap that resamples SEEDS (a seed's baseline repeats and
 * all its perturbed tests move together), and the Collapse Point its bootstrap distribution. A
 * figure that cannot be computed is `undefined` with a reason, never 0. See docs/ladder.md#metrics.
 */

/** One scored response. */
export interface LadderObservation {
  seedId: string;
  family: Family | 'baseline';
  /** Measured level (0 for the baseline); undefined when the test could not be binned. */
  level: Level | 0 | undefined;
  /** Knowledge Boundary: the boundary type. */
  kbType?: KbType;
  /** 1 - SIM of the test's text against its seed (0 for the baseline). */
  magnitude: number;
  /**
   * Correctness in [0, 1] (KB: the judge's rubric score; an imported run: its recorded Sim);
   * undefined when not scored (no judge verdict). Stability and the reference quadrant use it.
   */
  score: number | undefined;
  /**
   * What Accuracy counts, where it is not `score`: the reference's correctness `Sim >= 0.80` of a KB
   * rubric score (`kbScoring: reference`) or of an imported row, 0 for an imported row without a
   * Sim (docs/fidelity.md L25, L44).
   */
  correct?: number;
  /** The call failed: counted wrong in Accuracy (score 0), left out of Stability, and counted here. */
  error?: boolean;
}

/** A metric with its bootstrap CI; `value` undefined means unavailable, and `unavailable` says why. */
export interface Interval {
  value: number | undefined;
  low: number | undefined;
  high: number | undefined;
  unavailable?: string;
}

/** The metrics of one set of responses (a family x level cell, a family, a level, the baseline...). */
export interface SetMetrics {
  /** Responses in the set. */
  n: number;
  /** Responses with a score (all but KB responses without a judge verdict). */
  scored: number;
  /** Responses whose call failed (wrong in Accuracy, not in Stability). */
  errors: number;
  /** Distinct seeds (the bootstrap's clusters) with a response in the set. */
  seeds: number;
  accuracy: Interval;
  magnitude: Interval;
  stability: Interval;
  /** KB only: the share of scored responses that recognise the boundary (score >= threshold). */
  recognise?: Interval;
}

export type CollapseValue = `L${Level}` | 'never' | 'unavailable';

export interface CollapsePoint {
  status: 'collapsed' | 'never' | 'unavailable';
  level?: Level;
  /** Why it is unavailable. */
  reason?: string;
  /** tau = collapseRatio x acc(L0). */
  threshold?: number;
  /** Share of bootstrap resamples per Collapse Point value (only values that occurred, L1..L5, never, unavailable). */
  distribution: { value: CollapseValue; share: number }[];
  resamples: number;
}

export type Quadrant = 'stable' | 'robust' | 'unstable' | 'failure';

export interface QuadrantPoint {
  family: Family;
  /** The family's mean magnitude (reference quadrant: over its answered, scored responses). */
  x: number | undefined;
  /** The family's Stability (reference quadrant: its mean score over answered, scored responses). */
  y: number | undefined;
  quadrant?: Quadrant;
  unavailable?: string;
}

/**
 * `waver`: the paper's Figure 2, y = Stability, x threshold the mean of the family magnitudes;
 * `reference`: the reference code's plot, y = mean Sim (score) of the answered responses, the
 * baseline a point at magnitude 0 that counts in the x threshold (docs/fidelity.md#ladder).
 */
export type QuadrantMode = 'waver' | 'reference';

/**
 * `waver`: no baseline, or acc(L0) = 0, leaves the Collapse Point unavailable, and a tie within
 * floating noise is no collapse; `reference`: acc(L0) = 1 without a baseline, "never" at
 * acc(L0) = 0, and floats compared exactly, as the reference code does (docs/fidelity.md#ladder).
 */
export type CollapseMode = 'waver' | 'reference';

/**
 * Stability of a set whose magnitudes sum to 0 (the baseline, a cell of unchanged texts):
 * `waver` unavailable (the formula is undefined there); `reference` the set's mean score over its
 * answered responses, as the reference's `wstab` (`experiment/results_crossmodel.ipynb:828`), which
 * makes Table 4's Baseline row the baseline's mean Sim (docs/fidelity.md L14).
 */
export type StabilityMode = 'waver' | 'reference';

export interface FamilyMetrics {
  family: Family;
  /** All the family's responses, every level pooled. */
  overall: SetMetrics;
  /** Per measured level 1..5. */
  levels: Record<Level, SetMetrics>;
  collapse: CollapsePoint;
}

export interface KbTypeMetrics extends SetMetrics {
  kbType: KbType;
  level: Level;
}

export interface LadderMetrics {
  /** The unperturbed baseline: its accuracy is acc(L0). */
  baseline: SetMetrics;
  /** Every family pooled per measured level (L0 = the baseline): the paper's Figure 1. */
  byLevel: Record<0 | Level, SetMetrics>;
  families: FamilyMetrics[];
  kbByType: KbTypeMetrics[];
  quadrant: {
    mode: QuadrantMode;
    xThreshold: number | undefined;
    yThreshold: number;
    points: QuadrantPoint[];
    /** Reference quadrant: the baseline's point (x = 0), when it has answered responses. */
    baseline?: { x: number; y: number };
  };
  settings: Required<Omit<LadderMetricOptions, 'families'>>;
}

export interface LadderMetricOptions {
  /** Seed of the bootstrap (a per-model label is mixed in by the caller when wanted). */
  seed: number;
  resamples?: number;
  confidence?: number;
  collapseRatio?: number;
  recognizeThreshold?: number;
  stabilityThreshold?: number;
  quadrant?: QuadrantMode;
  collapse?: CollapseMode;
  stability?: StabilityMode;
  /** Families to report (default every family: the seven and any registered). */
  families?: readonly Family[];
}

// Per-slot running sums. A slot is one set of responses; every seed (cluster) holds one vector of
// sums per slot, so a bootstrap resample is a sum of drawn clusters' vectors.
const N = 0;
/** Responses counted in Accuracy (a correctness), and the sum of their correctness. */
const SCORED = 1;
const SUM_CORRECT = 2;
const SUM_MAG = 3;
/** Over the answered responses (a score, the call did not fail): Stability's and the reference quadrant's rows. */
const SUM_MAG_SCORED = 4;
const SUM_SCORE_MAG = 5;
const RECOGNISED = 6;
const ANSWERED = 7;
const SUM_SCORE = 8;
const WIDTH = 9;

/** Tiny slack so floating noise cannot make a score at the recognise threshold fall short of it. */
const EPS = 1e-12;

export function ladderMetrics(
  observations: readonly LadderObservation[],
  opts: LadderMetricOptions,
): LadderMetrics {
  const settings = metricSettings(opts);
  const L = slotLayout();
  const families = opts.families ?? L.families;
  const collapseRule = { ratio: settings.collapseRatio, reference: settings.collapse === 'reference' };
  const sums = seedSums(L, observations, settings.recognizeThreshold);
  const draws = resampleSeeds(L, sums.clusters, families, settings, collapseRule);
  const setMetrics = setMetricsOf(sums, draws, settings);
  const R = settings.resamples;

  const baseline = setMetrics(SLOT_BASELINE);
  const familyMetrics = families.map((family, i): FamilyMetrics => {
    const f = L.indexOf(family);
    const kb = L.boundaryFamilies.includes(f);
    const levels = Object.fromEntries(LEVELS.map((k) => [k, setMetrics(L.familyLevel(f, k), kb)])) as Record<
      Level,
      SetMetrics
    >;
    return {
      family,
      overall: setMetrics(L.family(f), kb),
      levels,
      collapse: collapsePoint(
        L,
        sums.totals,
        f,
        collapseRule,
        draws.cpCodes.subarray(i * R, (i + 1) * R),
        draws.resamplesDone,
      ),
    };
  });

  const byLevel = {
    0: baseline,
    ...Object.fromEntries(LEVELS.map((k) => [k, setMetrics(L.level(k))])),
  } as Record<0 | Level, SetMetrics>;

  const kbByType = KB_TYPES.map((kbType, t) => ({
    kbType,
    level: KB_LEVEL[kbType],
    ...setMetrics(L.boundaryType(t), true),
  }));

  const quadrant = quadrantOf(L, sums.totals, familyMetrics, settings.stabilityThreshold, settings.quadrant);
  return {
    baseline,
    byLevel,
    families: familyMetrics,
    kbByType,
    quadrant,
    settings,
  };
}

type MetricSettings = LadderMetrics['settings'];

/** The options with their defaults filled in (the paper's: 2,000 resamples, 95%, 0.80 x acc(L0), ...). */
function metricSettings(opts: LadderMetricOptions): MetricSettings {
  return {
    seed: opts.seed,
    resamples: opts.resamples ?? 2000,
    confidence: opts.confidence ?? 0.95,
    collapseRatio: opts.collapseRatio ?? 0.8,
    recognizeThreshold: opts.recognizeThreshold ?? 0.75,
    stabilityThreshold: opts.stabilityThreshold ?? 0.8,
    quadrant: opts.quadrant ?? 'waver',
    collapse: opts.collapse ?? 'waver',
    stability: opts.stability ?? 'waver',
  };
}

/** Every seed's sums (the bootstrap's clusters), their totals, and the failed calls and seeds per slot. */
interface SeedSums {
  /** One sum vector per seed, pooled slots derived, in first-seen order (stable for a stable input order). */
  clusters: Float64Array[];
  /** Failed calls per slot. */
  errors: Float64Array;
  /** Seeds with a response per slot. */
  seedsPerSlot: Uint32Array;
  totals: Float64Array;
}

function seedSums(
  L: SlotLayout,
  observations: readonly LadderObservation[],
  recognizeThreshold: number,
): SeedSums {
  const SLOTS = L.slots;
  const clusterOf = new Map<string, number>();
  const clusters: Float64Array[] = [];
  const errors = new Float64Array(SLOTS);
  for (const o of observations) {
    let c = clusterOf.get(o.seedId);
    if (c === undefined) {
      c = clusters.length;
      clusterOf.set(o.seedId, c);
      clusters.push(new Float64Array(SLOTS * WIDTH));
    }
    const slot = baseSlotOf(L, o);
    add(clusters[c] as Float64Array, slot, o, recognizeThreshold);
    if (o.error) errors[slot] = (errors[slot] as number) + 1;
  }
  derive(L, errors, 1);
  const seedsPerSlot = new Uint32Array(SLOTS);
  const totals = new Float64Array(SLOTS * WIDTH);
  for (const sums of clusters) {
    derive(L, sums, WIDTH);
    for (let slot = 0; slot < SLOTS; slot++)
      if ((sums[slot * WIDTH + N] as number) > 0) seedsPerSlot[slot] = (seedsPerSlot[slot] as number) + 1;
    addInto(totals, sums);
  }
  return { clusters, errors, seedsPerSlot, totals };
}

/**
 * Every figure of every slot over the seed resamples: resample b of slot s is at s * R + b, NaN
 * where the figure is undefined in that resample; and each family's Collapse Point code per
 * resample (family i at i * R + b).
 */
interface SeedDraws {
  dist: Record<'accuracy' | 'magnitude' | 'stability' | 'recognise', Float64Array>;
  cpCodes: Uint8Array;
  /** R, or 0 when there are no seeds to resample. */
  resamplesDone: number;
}

/**
 * One resampling of seeds serves every figure (each figure's marginal distribution is the same
 * as with its own resampling), so 2,000 resamples cost one pass instead of hundreds.
 */
function resampleSeeds(
  L: SlotLayout,
  clusters: readonly Float64Array[],
  families: readonly Family[],
  settings: MetricSettings,
  collapseRule: CollapseRule,
): SeedDraws {
  const R = settings.resamples;
  const SLOTS = L.slots;
  const zeroMagnitudeMean = settings.stability === 'reference';
  const dist = {
    accuracy: new Float64Array(SLOTS * R),
    magnitude: new Float64Array(SLOTS * R),
    stability: new Float64Array(SLOTS * R),
    recognise: new Float64Array(SLOTS * R),
  };
  const cpCodes = new Uint8Array(families.length * R);
  const familyIndex = families.map((f) => L.indexOf(f));
  const resampledSums = resampledSumsOf(L, clusters);
  let b = 0;
  clusterBootstrap(clusters, (sample) => accuracyOf(sumAll(L, sample), SLOT_BASELINE), {
    seed: deriveSeed(settings.seed, 'ladder-metrics'),
    resamples: R,
    confidence: settings.confidence,
    statisticOnIndices: (indices) => {
      const resampled = resampledSums(indices);
      for (let s = 0; s < SLOTS; s++) {
        dist.accuracy[s * R + b] = accuracyOf(resampled, s) ?? Number.NaN;
        dist.magnitude[s * R + b] = magnitudeOf(resampled, s) ?? Number.NaN;
        dist.stability[s * R + b] = stabilityOf(resampled, s, zeroMagnitudeMean) ?? Number.NaN;
        dist.recognise[s * R + b] = recogniseOf(resampled, s) ?? Number.NaN;
      }
      familyIndex.forEach((f, i) => {
        cpCodes[i * R + b] = collapseCode(L, resampled, f, collapseRule);
      });
      b++;
      return accuracyOf(resampled, SLOT_BASELINE);
    },
  });
  return { dist, cpCodes, resamplesDone: clusters.length === 0 ? 0 : R };
}

/**
 * The sums of a resample given as the drawn clusters' indices, pooled slots derived; one buffer,
 * overwritten by the next resample. The clusters' base slots are one matrix, and a resample is
 * multiplicities, so a cluster drawn k times is added once (times k) and an undrawn one (about a
 * third) not at all. Columns that are 0 for every seed stay 0, and columns equal to another for
 * every seed (scored = n when every response is scored) are copied, not summed: only the rest
 * (about half) are resampled.
 */
function resampledSumsOf(
  L: SlotLayout,
  clusters: readonly Float64Array[],
): (indices: Uint32Array) => Float64Array {
  const resampled = new Float64Array(L.slots * WIDTH);
  const V = L.baseSlots * WIDTH;
  const { kept, aliases } = resampledColumns(clusters, V);
  const K = kept.length;
  const matrix = new Float64Array(clusters.length * K);
  clusters.forEach((sums, c) => {
    for (let i = 0; i < K; i++) matrix[c * K + i] = sums[kept[i] as number] as number;
  });
  const compact = new Float64Array(K);
  const drawn = new Uint32Array(clusters.length);
  return (indices) => {
    drawn.fill(0);
    for (let i = 0; i < indices.length; i++) {
      const c = indices[i] as number;
      drawn[c] = (drawn[c] as number) + 1;
    }
    compact.fill(0);
    for (let c = 0; c < drawn.length; c++) {
      const k = drawn[c] as number;
      if (k === 0) continue;
      const at = c * K;
      for (let i = 0; i < K; i++) compact[i] = (compact[i] as number) + k * (matrix[at + i] as number);
    }
    resampled.fill(0, 0, V);
    for (let i = 0; i < K; i++) resampled[kept[i] as number] = compact[i] as number;
    for (let i = 0; i < aliases.length; i += 2)
      resampled[aliases[i] as number] = resampled[aliases[i + 1] as number] as number;
    derive(L, resampled, WIDTH);
    return resampled;
  };
}

function sumAll(L: SlotLayout, sample: readonly Float64Array[]): Float64Array {
  const out = new Float64Array(L.slots * WIDTH);
  for (const sums of sample) addInto(out, sums);
  return out;
}

/**
 * A slot's metrics: each figure from the totals with its percentile interval over the resamples,
 * or unavailable with the first reason that applies.
 */
function setMetricsOf(
  { totals, errors, seedsPerSlot }: SeedSums,
  { dist, resamplesDone }: SeedDraws,
  settings: MetricSettings,
): (slot: number, kb?: boolean) => SetMetrics {
  const R = settings.resamples;
  const zeroMagnitudeMean = settings.stability === 'reference';
  const alpha = (1 - settings.confidence) / 2;
  const scratch = new Float64Array(R);
  const interval = (
    kind: keyof typeof dist,
    slot: number,
    value: number | undefined,
    unavailable: string | undefined,
  ): Interval => {
    if (value === undefined) return { value: undefined, low: undefined, high: undefined, unavailable };
    // NaN marks a resample where the figure is undefined: left out.
    const bounds = percentilesOf(
      dist[kind].subarray(slot * R, slot * R + resamplesDone),
      [alpha, 1 - alpha],
      scratch,
    );
    if (bounds === undefined) return { value, low: undefined, high: undefined };
    return { value, low: bounds[0], high: bounds[1] };
  };

  return (slot, kb = false) => {
    const n = totals[slot * WIDTH + N] as number;
    const scored = totals[slot * WIDTH + SCORED] as number;
    const noTests = n === 0 ? 'no tests' : undefined;
    const unscored = scored === 0 ? 'not scored: no judge verdicts' : undefined;
    const unanswered =
      (totals[slot * WIDTH + ANSWERED] as number) > 0
        ? undefined
        : errors[slot] === n
          ? 'every call failed'
          : 'no answered, scored responses';
    const zeroMag =
      (totals[slot * WIDTH + SUM_MAG_SCORED] as number) === 0 ? 'sum of magnitudes is 0' : undefined;
    const out: SetMetrics = {
      n,
      scored,
      errors: errors[slot] as number,
      seeds: seedsPerSlot[slot] as number,
      accuracy: interval('accuracy', slot, accuracyOf(totals, slot), noTests ?? unscored),
      magnitude: interval('magnitude', slot, magnitudeOf(totals, slot), noTests),
      stability: interval(
        'stability',
        slot,
        stabilityOf(totals, slot, zeroMagnitudeMean),
        noTests ?? unscored ?? unanswered ?? zeroMag,
      ),
    };
    if (kb) out.recognise = interval('recognise', slot, recogniseOf(totals, slot), noTests ?? unscored);
    return out;
  };
}

/**
 * The paper's Figure 2 (docs/ladder.md#quadrants): each family at (x, y), high meaning at or above
 * the threshold. `waver`: x = mean magnitude, y = Stability, x threshold = mean of the family
 * x's. `reference`: x and y = mean magnitude and mean score over the answered, scored responses,
 * and the baseline (x = 0) is a point that counts in the x threshold.
 */
function quadrantOf(
  L: SlotLayout,
  totals: Float64Array,
  families: readonly FamilyMetrics[],
  yThreshold: number,
  mode: QuadrantMode,
): LadderMetrics['quadrant'] {
  const answered = (slot: number) => totals[slot * WIDTH + ANSWERED] as number;
  const coordinates = (m: FamilyMetrics): { x?: number; y?: number; unavailable?: string } => {
    if (mode === 'waver')
      return {
        ...(m.overall.magnitude.value !== undefined && { x: m.overall.magnitude.value }),
        ...(m.overall.stability.value !== undefined && { y: m.overall.stability.value }),
        unavailable: m.overall.stability.unavailable ?? 'no tests',
      };
    const slot = L.family(L.indexOf(m.family));
    const n = answered(slot);
    if (n === 0) return { unavailable: m.overall.n === 0 ? 'no tests' : 'no answered, scored responses' };
    return { x: (totals[slot * WIDTH + SUM_MAG_SCORED] as number) / n, y: answeredScore(totals, slot) };
  };
  const placed = families.map((m) => ({ family: m.family, ...coordinates(m) }));
  const baselineN = answered(SLOT_BASELINE);
  const baseline =
    mode === 'reference' && baselineN > 0
      ? { x: 0, y: answeredScore(totals, SLOT_BASELINE) as number }
      : undefined;
  const xs = [
    ...placed.flatMap((p) => (p.x === undefined || p.y === undefined ? [] : [p.x])),
    ...(baseline ? [baseline.x] : []),
  ];
  // waver: a family with a magnitude counts even when its Stability is unavailable (a property of the suite).
  const waverXs = placed.flatMap((p) => (p.x === undefined ? [] : [p.x]));
  const thresholdXs = mode === 'waver' ? waverXs : xs;
  const xThreshold =
    thresholdXs.length === 0 ? undefined : thresholdXs.reduce((a, v) => a + v, 0) / thresholdXs.length;
  const points = placed.map((p): QuadrantPoint => {
    if (p.x === undefined || p.y === undefined || xThreshold === undefined)
      return { family: p.family, x: p.x, y: p.y, unavailable: p.unavailable ?? 'no tests' };
    const high = p.x >= xThreshold;
    const stable = p.y >= yThreshold;
    return {
      family: p.family,
      x: p.x,
      y: p.y,
      quadrant: stable ? (high ? 'robust' : 'stable') : high ? 'failure' : 'unstable',
    };
  });
  return { mode, xThreshold, yThreshold, points, ...(baseline && { baseline }) };
}

/** Mean score over a slot's answered, scored responses (a failed call is not answered). */
function answeredScore(sums: Float64Array, slot: number): number | undefined {
  const n = sums[slot * WIDTH + ANSWERED] as number;
  return n === 0 ? undefined : (sums[slot * WIDTH + SUM_SCORE] as number) / n;
}

/**
 * Which base-slot columns a resample must sum: `kept` (column indices), and `aliases` as pairs
 * (column, the kept column it always equals). A column 0 for every cluster is neither.
 */
function resampledColumns(
  clusters: readonly Float64Array[],
  V: number,
): { kept: Uint32Array; aliases: Uint32Array } {
  const kept: number[] = [];
  const aliases: number[] = [];
  const same = (a: number, b: number) => clusters.every((sums) => sums[a] === sums[b]);
  for (let j = 0; j < V; j++) {
    if (clusters.every((sums) => sums[j] === 0)) continue;
    const field = j % WIDTH;
    const slot = j - field;
    // Scored responses are usually all responses, so their sums repeat the plain ones.
    const twin =
      field === SCORED
        ? slot + N
        : field === SUM_MAG_SCORED
          ? slot + SUM_MAG
          : field === SUM_SCORE
            ? slot + SUM_CORRECT
            : undefined;
    if (twin !== undefined && same(j, twin)) aliases.push(j, twin);
    else kept.push(j);
  }
  return { kept: Uint32Array.from(kept), aliases: Uint32Array.from(aliases) };
}

function baseSlotOf(L: SlotLayout, o: LadderObservation): number {
  if (o.family === 'baseline') return SLOT_BASELINE;
  const f = L.indexOf(o.family);
  return o.level === undefined || o.level === 0 ? L.unbinned(f) : L.familyLevel(f, o.level);
}

/** target += source, element-wise (same length). */
function addInto(target: Float64Array, source: Float64Array): void {
  for (let i = 0; i < target.length; i++) target[i] = (target[i] as number) + (source[i] as number);
}

function bump(sums: Float64Array, at: number, by: number): void {
  sums[at] = (sums[at] as number) + by;
}

function add(sums: Float64Array, slot: number, o: LadderObservation, threshold: number): void {
  const at = slot * WIDTH;
  bump(sums, at + N, 1);
  bump(sums, at + SUM_MAG, o.magnitude);
  const correct = o.correct ?? o.score;
  if (correct !== undefined) {
    bump(sums, at + SCORED, 1);
    bump(sums, at + SUM_CORRECT, correct);
  }
  if (o.score === undefined) return;
  if (o.score >= threshold - EPS) bump(sums, at + RECOGNISED, 1);
  // A failed call has no output to compare: wrong in Accuracy, absent from Stability (the reference code).
  if (o.error) return;
  bump(sums, at + ANSWERED, 1);
  bump(sums, at + SUM_SCORE, o.score);
  bump(sums, at + SUM_MAG_SCORED, o.magnitude);
  bump(sums, at + SUM_SCORE_MAG, o.score * o.magnitude);
}

function accuracyOf(sums: Float64Array, slot: number): number | undefined {
  const scored = sums[slot * WIDTH + SCORED] as number;
  return scored === 0 ? undefined : (sums[slot * WIDTH + SUM_CORRECT] as number) / scored;
}

function magnitudeOf(sums: Float64Array, slot: number): number | undefined {
  const n = sums[slot * WIDTH + N] as number;
  return n === 0 ? undefined : (sums[slot * WIDTH + SUM_MAG] as number) / n;
}

function stabilityOf(sums: Float64Array, slot: number, zeroMagnitudeMean: boolean): number | undefined {
  const denominator = sums[slot * WIDTH + SUM_MAG_SCORED] as number;
  if (denominator === 0) return zeroMagnitudeMean ? answeredScore(sums, slot) : undefined;
  return (sums[slot * WIDTH + SUM_SCORE_MAG] as number) / denominator;
}

function recogniseOf(sums: Float64Array, slot: number): number | undefined {
  const scored = sums[slot * WIDTH + SCORED] as number;
  return scored === 0 ? undefined : (sums[slot * WIDTH + RECOGNISED] as number) / scored;
}

interface CollapseRule {
  ratio: number;
  /** The reference code's rule: acc(L0) = 1 without a baseline, exact comparison. */
  reference: boolean;
}

/** acc(L0) as the Collapse Point reads it: the reference code takes 1 when there is no baseline. */
function collapseBase(sums: Float64Array, rule: CollapseRule): number | undefined {
  return accuracyOf(sums, SLOT_BASELINE) ?? (rule.reference ? 1 : undefined);
}

/** Collapse code of a family in a sum vector: 1..5 the level, 6 never, 0 unavailable. */
function collapseCode(L: SlotLayout, sums: Float64Array, f: number, rule: CollapseRule): number {
  const acc0 = collapseBase(sums, rule);
  if (acc0 === undefined || (acc0 === 0 && !rule.reference)) return 0;
  // The reference code compares the floats as computed (fidelity L17-L19).
  const slack = rule.reference ? 0 : COLLAPSE_SLACK;
  let any = false;
  for (const k of LEVELS) {
    const acc = accuracyOf(sums, L.familyLevel(f, k));
    if (acc === undefined) continue;
    any = true;
    if (collapses(acc, acc0, rule.ratio, slack)) return k;
  }
  return any ? 6 : 0;
}

function collapsePoint(
  L: SlotLayout,
  totals: Float64Array,
  f: number,
  rule: CollapseRule,
  codes: Uint8Array,
  resamples: number,
): CollapsePoint {
  const counts = new Map<number, number>();
  for (let i = 0; i < resamples; i++)
    counts.set(codes[i] as number, (counts.get(codes[i] as number) ?? 0) + 1);
  const order = [1, 2, 3, 4, 5, 6, 0];
  const distribution = order
    .filter((c) => counts.has(c))
    .map((c) => ({ value: codeName(c), share: (counts.get(c) as number) / resamples }));

  const acc0 = collapseBase(totals, rule);
  if (acc0 === undefined)
    return {
      status: 'unavailable',
      reason: 'no baseline responses (acc(L0) unknown)',
      distribution,
      resamples,
    };
  if (acc0 === 0 && !rule.reference)
    return {
      status: 'unavailable',
      reason: 'acc(L0) = 0: no level can fall below it',
      distribution,
      resamples,
    };
  const threshold = rule.ratio * acc0;
  const code = collapseCode(L, totals, f, rule);
  if (code === 0) {
    const tested = (totals[L.family(f) * WIDTH + N] as number) > 0;
    const reason = tested ? 'no scored tests at any level (no judge verdicts)' : 'no tests';
    return { status: 'unavailable', reason, threshold, distribution, resamples };
  }
  if (code === 6) return { status: 'never', threshold, distribution, resamples };
  return { status: 'collapsed', level: code as Level, threshold, distribution, resamples };
}

function codeName(code: number): CollapseValue {
  if (code === 6) return 'never';
  if (code === 0) return 'unavailable';
  return `L${code as Level}`;
}
