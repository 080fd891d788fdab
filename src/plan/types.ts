import type { SuiteFill } from '../check/types.js';
import type { Adjustment } from '../stats/multiplicity.js';
import type { Test } from '../stats/power.js';

/**
 * The designs of `waver plan` that belong to no protocol (docs/plan.md#designs); a protocol hands
 * in its own (its module's `designs`: the ladder's on a suite's fill, paraphrase's SAA).
 */
export const DESIGNS = [
  'two-proportions',
  'ci-width',
  'mean-difference',
  'paired-proportions',
  'non-inferiority',
  'mdd',
] as const;

/** The paired test a paired design sizes: McNemar's exact test (what `check --compare` runs) or Connor's normal approximation. */
export const PAIRED_TESTS = ['exact', 'asymptotic'] as const;
export type PairedTest = (typeof PAIRED_TESTS)[number];

export interface PlanInput extends Required<Pick<Test, 'alpha' | 'power' | 'sides'>> {
  /** One of DESIGNS, or a design a protocol hands in. */
  design: string;
  /** The two rates compared (or one, for mdd). */
  p?: readonly number[];
  /** The share of pairs on which the two disagree (paired designs). */
  discordance?: number;
  /** Paired designs: which test to size; exact by default. */
  test?: PairedTest;
  /** Times a test above level 0 is asked; from the suite (its config) when it is given. */
  repeats?: number;
  /** Times a baseline (level 0) test is asked (the ladder's `baselineRepeats`); from the suite (its config) when it is given. */
  baselineRepeats?: number;
  icc?: number;
  /** ladder-level without a suite: the share of seeds with a test at the level (its fill). */
  fill?: number;
  /** The suite sized for (collapse-shift, ladder-level, ladder-family): its tests' seeds, families, levels and repeats. */
  suite?: SuiteFill;
  /** With a suite: the family (scope) sized; needed when the suite has two or more. */
  family?: string;
  /** ladder-level with a suite: the measured level. */
  level?: number;
  /** ladder-family: how `check --compare` adjusts its p-values (Holm by default, as check). */
  adjust?: Adjustment;
  /** Cells per item (phrasings x repeats) for SAA. */
  cells?: number;
  curveA?: readonly number[];
  curveB?: readonly number[];
  collapseRatio?: number;
  /** ci-width: the half-width wanted of SAA's interval. */
  width?: number;
  /** mean-difference: the difference, and the standard deviation of the per-pair differences. */
  difference?: number;
  sd?: number;
  /** non-inferiority: the margin m of `check --compare --margin m`. */
  margin?: number;
  /** mdd: the n a run had (per arm, or pairs). */
  n?: number;
  /** SAA from a pilot: the per-item SAA of the two models (every cell of the item right). */
  pilotItems?: readonly { a: boolean; b: boolean }[];
  /**
   * From a pilot: the design effects of its clusters (docs/plan.md#pilot), of the paired difference
   * (paired designs) and of one model's accuracy (`arm`, the larger of the two: unpaired designs),
   * and the clusters' mean size.
   */
  pilotClustering?: PilotClustering;
  /** The two models (a pilot's), for the check command a design names; `BASE,NEW` without them. */
  models?: readonly [string, string];
}

export interface PilotClustering {
  designEffect: number;
  armDesignEffect: number;
  pairsPerCluster: number;
  cluster: string;
}

/** A design's details: the inputs it used and what it found beside n. */
export type PlanDetails = Record<string, number | string | undefined>;

export interface PlanResult {
  design: string;
  alpha: number;
  power: number;
  sides: number;
  /** What the numbers are: the formula or the exact sum. */
  method: string;
  /** The items (per arm), pairs or seeds needed; absent for mdd. */
  n?: number;
  /** What n counts. */
  unit?: string;
  /** Everything else the design gives: cells, the design effect, the exact power at n... */
  details: PlanDetails;
  /** The `waver check` command that runs the test (or prints the interval) this design sizes. */
  check?: string;
}

/** The test settings every result repeats. */
export type PlanHead = Pick<PlanResult, 'design' | 'alpha' | 'power' | 'sides'>;

/** What every design is handed beside its input: the settings every result repeats and the test it sizes. */
export interface DesignContext {
  head: PlanHead;
  test: Test;
  /** Paired designs: McNemar's exact test (the default) or Connor's approximation. */
  which: PairedTest;
}

/**
 * A design a protocol hands in (its module's `designs`, docs/plan.md#designs): its name, whether
 * it sizes on a suite file's fill (`--suite`, docs/plan.md#suite), and how.
 */
export interface PlanDesign {
  readonly name: string;
  readonly suite?: boolean;
  /** The `check --compare --metric` whose pairs it sizes, read so from a pilot; accuracy when absent. */
  readonly metric?: string;
  plan(input: PlanInput, ctx: DesignContext): PlanResult;
}
