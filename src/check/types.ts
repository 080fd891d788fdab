import type { WaverConfig } from '../config/schema.js';
import type { Store } from '../store/store.js';
import type { ThresholdSpec } from './threshold-spec.js';

/**
 * What a protocol hands `waver check` (docs/check.md): the suite it reads, its results loader,
 * the thresholds it can gate on and, when its answers are right or wrong, how two models' answers
 * pair up for `--compare`. The check shell does the rest for every protocol alike: rules from
 * waver.yaml and flags, the suite chosen, coverage, unavailable metrics, the paired tests, output.
 */
export interface CheckProtocol<R = unknown> {
  /** Its name in rows, `--protocol` and messages: `ladder`. */
  protocol: string;
  /** The name of the suite its runs write the answers under test to: `ladder/tests`. */
  suiteName: string;
  /** Whether a suite of it can be checked at all (sago needs its manifest); default yes. */
  usable?(store: Store, suiteHash: string): boolean;
  /** Its results for the suite, from the store alone, as its thresholds read them. */
  load(store: Store, suiteHash: string, config: WaverConfig): R;
  /** In the order of their flags and `check:` keys. */
  thresholds: readonly ThresholdDef<R>[];
  /** Absent when its answers have no correctness (sago). */
  compare?: CompareDef;
  /**
   * Each answered cell's parsed answer and verdict, for `waver export` (a re-analysis needs no
   * parser of its own), keyed by gradeKey; absent when its answers have no correctness.
   */
  grades?(store: Store, suiteHash: string, config: WaverConfig): Map<string, CellGrade>;
  /**
   * What its suite file `config.suite` asks of each model, for `waver plan` (docs/plan.md#suite):
   * every test's cluster, scope and level, and the repeats the config asks; without a suite file,
   * only the repeats. Absent for a protocol whose suites plan does not size.
   */
  fill?(config: WaverConfig): SuiteFill;
}

/**
 * A suite's shape as `waver plan` sizes from it (docs/plan.md#suite): which cluster (seed) each
 * test belongs to, its scope (family) and level, and how many times it is asked. Level 0 is the
 * reference the other levels are measured against (the ladder's baseline), asked its own number
 * of times.
 */
export interface SuiteFill {
  /** What a cluster is: `seed`. */
  cluster: string;
  /** The repeats the config asks of a level-0 test and of a test above it, for a plan without a suite file. */
  repeats: { reference: number; perturbed: number };
  /** Every test of the suite file; empty without one. */
  tests: FillTest[];
}

export interface FillTest {
  cluster: string;
  /** The scope it is compared in by `check --compare` (a ladder family, `baseline` at level 0). */
  scope: string;
  /** Its measured level, 0 for the reference; undefined when it has none (counted in its scope, at no level). */
  level: number | undefined;
  repeats: number;
}

/** What a protocol made of one cell's response. */
export interface CellGrade {
  /** The answer as parsed (a number, a letter); absent when none was found. */
  answer?: number | string;
  /** How it was found, or why not. */
  via?: string;
  /** Right or wrong, as `check --compare` counts it; absent when not scored (a KB reply without a verdict). */
  correct?: boolean;
  /** The score behind the verdict (a KB rubric score, 1/0 for a number), when there is one. */
  score?: number;
  /** A judge's verdict, when a judge scored the cell. */
  judge?: { status: string; score?: number; reason: string };
}

/** The key of a cell among a protocol's grades: model identity, test id, repeat. */
export function gradeKey(modelIdentity: string, testId: string, repeat: number): string {
  return `${modelIdentity}\u0000${testId}\u0000${repeat}`;
}

/** A threshold a protocol gates on: its flag and `check:` key, and how it reads the results. */
export interface ThresholdDef<R = unknown> extends ThresholdSpec {
  /** One entry per (model, scope) the rule covers; none only when there is nothing to check. */
  evaluate(results: R, rule: ThresholdRule, ctx: ThresholdContext): Measurement[];
}

/** One threshold in force, from waver.yaml's `check:` section or a flag. */
export interface ThresholdRule {
  /** The threshold's metric: `min-stability`. */
  metric: string;
  /** One of its scopes (a ladder family, a sago axis), or `*` for every scope the results have. */
  scope: string;
  /** A share, a level, a bound: what the threshold's value allows. */
  value: number;
}

/** A suite `waver check` reads: a protocol's, or a plain one (`protocol: 'plain'`). */
export interface CheckedSuite {
  protocol: string;
  hash: string;
  name: string;
}

export interface ThresholdContext {
  store: Store;
  suite: CheckedSuite;
  config: WaverConfig;
}

/**
 * What a threshold found for one model (and scope). Without `unavailable` it has a value; the
 * check shell turns it into a row, passing unless `failure` says why not.
 */
export interface Measurement {
  model: string;
  identity?: string;
  /** The family or axis of a scoped threshold. */
  scope?: string;
  /** The value (`L2` / `never` for a Collapse Point); absent when unavailable. */
  value?: number | string;
  low?: number;
  high?: number;
  /** What the CI is (`95% bootstrap over 50 seeds`), or what stands in for one. */
  ci?: string;
  n?: number;
  /** What n counts. */
  over?: string;
  /** Why the value misses the threshold (`below threshold`); absent when it meets it. */
  failure?: string;
  /** Why there is no value: the row fails unless unavailable metrics are allowed. */
  unavailable?: string;
}

/**
 * How a protocol's answers pair up for `--compare` (docs/check.md#compare): each model's
 * correctness verdict per pair key, e.g. (test, repeat), within a cluster of correlated pairs
 * (a seed, an item). The check shell joins the two models on the keys and runs the paired tests.
 */
export interface CompareDef extends CompareMeasure {
  /**
   * Other measures two models are compared on by the same paired test (`check --compare --metric
   * NAME`), each with its own pairs: paraphrase's `saa`, one pair per item, an item right when
   * every cell of it is. The CompareDef itself is the metric `accuracy`.
   */
  metrics?: Readonly<Record<string, CompareMeasure>>;
}

/** What the paired test compares: each model's verdict per pair key, and what a pair and a cluster are. */
export interface CompareMeasure {
  /** What a pair and a cluster are: `test x repeat`, `seed`. */
  unit: { pair: string; cluster: string };
  verdicts(
    store: Store,
    suiteHash: string,
    models: { base: ModelRef; new: ModelRef },
    config: WaverConfig,
  ): { base: ReadonlyMap<string, Verdict>; new: ReadonlyMap<string, Verdict> };
}

/** The metric a CompareDef compares on by itself: each pair's correctness. */
export const ACCURACY = 'accuracy';

export interface ModelRef {
  label: string;
  identity: string;
}

/** One model's verdict on one pair key; `correct` is undefined when the answer was not scored. */
export interface Verdict {
  cluster: string;
  correct: boolean | undefined;
  /** The family the pair belongs to (a ladder family), for the per-family tests; absent: one family. */
  family?: string;
}
