import type { WaverConfig } from '../config/schema.js';
import { InputError } from '../errors.js';
import { type Adjustment, adjustPValues, familyConfidence } from '../stats/multiplicity.js';
import { type PairedComparison, type PairedObservation, pairedComparison } from '../stats/paired.js';
import type { Store, SuiteModel } from '../store/store.js';
import { orList, protocolSuites } from './suites.js';
import {
  ACCURACY,
  type CheckedSuite,
  type CheckProtocol,
  type CompareDef,
  type CompareMeasure,
  type ModelRef,
  type Verdict,
} from './types.js';

/**
 * "Did the upgrade make it less stable?": two models on the same suite, paired test by test
 * (docs/check.md#compare). Each pair key both answered (a (test, repeat) for the ladder) is a
 * pair of correctness verdicts, from the protocol's CompareDef; McNemar's exact test on the
 * discordant pairs gives the p-value, and Newcombe's interval with the clusters' design effect
 * (seeds for the ladder, items for paraphrase; docs/decisions.md E47) the CI of the accuracy
 * difference, the same at every seed. Without a margin the new model fails when both
 * agree: adjusted p < alpha with more base-only wins, and the CI of new - base entirely below 0.
 * With a margin it passes only when the CI's lower end is above -margin (non-inferiority). Pairs
 * in families (ladder families) are tested all together and per family, the p-values adjusted
 * over that set (Holm by default: docs/check.md#multiplicity). `metric` picks what a pair is: a
 * cell's correctness by default (`accuracy`), or another measure a protocol names (paraphrase's
 * `saa`: one pair per item, docs/check.md#metric).
 */

export interface CompareResult {
  protocol: string;
  suite: CheckedSuite;
  base: ModelRef;
  new: ModelRef;
  alpha: number;
  /** What the pairs compare: `accuracy` (each cell's correctness) or a protocol's measure (`saa`). */
  metric: string;
  /** What a pair and a cluster are. */
  unit: CompareDef['unit'];
  /** All pairs together: the first of `tests`. */
  comparison: PairedComparison;
  /** Answers without a partner, or without a verdict (a KB response not judged). */
  unpaired: { base: number; new: number; unscored: number };
  /** The non-inferiority margin; absent: the gate fails only on a significant loss. */
  margin?: number;
  /** How the p-values of `tests` are adjusted, and over how many. */
  adjust: Adjustment;
  /** All pairs, then each family when there are two or more, each with its adjusted p. */
  tests: ScopeTest[];
  /** The gate fails: some test's verdict is a failure. */
  worse: boolean;
  better: boolean;
  verdict: string;
}

/** One test of the family: all pairs (`all`) or one family's. */
export interface ScopeTest {
  scope: string;
  comparison: PairedComparison;
  /** McNemar's exact p adjusted over the tests (equal to it with one test or `none`). */
  pAdjusted: number;
  worse: boolean;
  better: boolean;
  verdict: string;
}

export interface CompareOptions {
  config: WaverConfig;
  protocols: readonly CheckProtocol[];
  base: string;
  new: string;
  /** The protocol to compare on, by name (--protocol). */
  protocol?: string;
  /** A suite chosen with --suite. */
  suite?: CheckedSuite;
  alpha: number;
  /** Non-inferiority margin on new - base (a share): pass only when the CI's low end is above -margin. */
  margin?: number;
  /** Adjustment of the p-values over all pairs and the families; Holm by default. */
  adjust?: Adjustment;
  /** What a pair compares (`--metric`): `accuracy` by default, or a measure of the protocol's `compare.metrics`. */
  metric?: string;
}

/** Two models' answers to the same tests, paired, as the comparison and `waver plan`'s pilot read them. */
export interface ComparedPairs {
  protocol: CheckProtocol;
  suite: CheckedSuite;
  base: ModelRef;
  new: ModelRef;
  metric: string;
  unit: CompareDef['unit'];
  pairs: PairedObservation[];
  unpaired: CompareResult['unpaired'];
}

export function comparedPairs(store: Store, opts: Omit<CompareOptions, 'alpha'>): ComparedPairs {
  const { suite, protocol } = pickSuite(store, opts);
  const metric = opts.metric ?? ACCURACY;
  const def = measureOf(protocol, metric) as CompareMeasure;
  const base = resolveModel(store, suite.hash, opts.base, 'base');
  const next = resolveModel(store, suite.hash, opts.new, 'new');
  if (base.identity === next.identity)
    throw new InputError(`base and new are the same model (${base.identity})`, { field: '--compare' });
  const verdicts = def.verdicts(store, suite.hash, { base, new: next }, opts.config);
  const { pairs, unpaired } = joinVerdicts(verdicts.base, verdicts.new);
  return { protocol, suite, base, new: next, metric, unit: def.unit, pairs, unpaired };
}

/** The measure a protocol compares on under `metric`; undefined when it has none of that name. */
function measureOf(protocol: CheckProtocol, metric: string): CompareMeasure | undefined {
  const def = protocol.compare;
  if (!def) return undefined;
  return metric === ACCURACY ? def : def.metrics?.[metric];
}

/** Every metric the protocols' comparisons take (`--metric`): `accuracy`, then their own measures. */
export function compareMetrics(protocols: readonly CheckProtocol[]): string[] {
  const own = protocols.flatMap((p) => Object.keys(p.compare?.metrics ?? {}));
  return [ACCURACY, ...new Set(own)];
}

export function compareModels(store: Store, opts: CompareOptions): CompareResult {
  const { protocol, suite, base, new: next, metric, unit, pairs, unpaired } = comparedPairs(store, opts);
  const adjust = opts.adjust ?? 'holm';
  const families = [...new Set(pairs.flatMap((p) => (p.family === undefined ? [] : [p.family])))];
  const scopes: { scope: string; pairs: PairedObservation[] }[] = [
    { scope: 'all', pairs },
    ...(families.length >= 2
      ? families.map((f) => ({ scope: f, pairs: pairs.filter((p) => p.family === f) }))
      : []),
  ];
  const confidence = familyConfidence(opts.alpha, scopes.length, adjust);
  const comparisons = scopes.map(({ pairs: these }) => pairedComparison(these, { confidence }));
  const adjusted = adjustPValues(
    comparisons.map((c) => c.mcnemar.p),
    adjust,
  );
  const tests = comparisons.map((comparison, i) =>
    decideTest(scopes[i]?.scope as string, comparison, adjusted[i] as number, opts, unit.cluster),
  );
  const all = tests[0] as ScopeTest;
  const failed = tests.filter((t) => t.worse);
  const verdict =
    failed.length === 0 || (failed.length === 1 && failed[0] === all)
      ? all.verdict
      : `${all.worse ? `${all.verdict}; ` : ''}fails in ${failed
          .filter((t) => t !== all)
          .map((t) => t.scope)
          .join(', ')}`;
  return {
    protocol: protocol.protocol,
    suite,
    base,
    new: next,
    alpha: opts.alpha,
    metric,
    unit,
    comparison: all.comparison,
    unpaired,
    ...(opts.margin !== undefined && { margin: opts.margin }),
    adjust,
    tests,
    worse: failed.length > 0,
    better: all.better,
    verdict,
  };
}

/**
 * One test's decision (docs/check.md#compare), for the gate and the report's comparison alike.
 * Without a margin: worse when the adjusted p < alpha, b > c and the CI lies below 0 (better, the
 * mirror image). With a margin: worse unless the CI's low end is above -margin.
 */
export function decideTest(
  scope: string,
  comparison: PairedComparison,
  pAdjusted: number,
  opts: { alpha: number; margin?: number },
  cluster: string,
): ScopeTest {
  const { b, c } = comparison.mcnemar;
  const d = comparison.difference;
  const alpha = opts.alpha;
  const conf = `${Number((d.confidence * 100).toFixed(2))}%`;
  const significant = pAdjusted < alpha;
  const better = significant && c > b && d.low !== undefined && d.low > 0;
  let worse: boolean;
  let verdict: string;
  if (comparison.n === 0) {
    worse = opts.margin !== undefined;
    verdict = 'no pairs: the two models have no test answered by both';
  } else if (opts.margin !== undefined) {
    const m = opts.margin;
    worse = !(d.low !== undefined && d.low > -m);
    verdict = worse
      ? `not non-inferior at margin ${m}: the ${conf} CI's lower end ${d.low === undefined ? 'is unavailable' : `${d.low.toFixed(3)} is not above -${m}`}`
      : `non-inferior at margin ${m}: the ${conf} CI's lower end ${(d.low as number).toFixed(3)} is above -${m}`;
  } else {
    worse = significant && b > c && d.high !== undefined && d.high < 0;
    verdict = worse
      ? `new is significantly worse at alpha ${alpha}`
      : better
        ? `new is significantly better at alpha ${alpha}`
        : significant
          ? `McNemar p < ${alpha}, but the clustered CI of the difference includes 0: not significant once pairs that share a ${cluster} are allowed to be correlated`
          : `no significant difference at alpha ${alpha}`;
  }
  return { scope, comparison, pAdjusted, worse, better, verdict };
}

/** The protocols whose answers are right or wrong: those a comparison can run on. */
export function comparable(protocols: readonly CheckProtocol[]): CheckProtocol[] {
  return protocols.filter((p) => p.compare !== undefined);
}

function pickSuite(
  store: Store,
  opts: Omit<CompareOptions, 'alpha'>,
): { suite: CheckedSuite; protocol: CheckProtocol } {
  const metric = opts.metric ?? ACCURACY;
  const candidates = comparable(opts.protocols).filter((p) => measureOf(p, metric) !== undefined);
  const names = candidates.map((p) => p.protocol);
  if (candidates.length === 0)
    throw new InputError(
      `no protocol compares on '${metric}' (expected one of ${compareMetrics(opts.protocols).join(', ')})`,
      { field: '--metric' },
    );
  if (opts.suite) {
    const chosen = opts.suite;
    const protocol = candidates.find((p) => p.protocol === chosen.protocol);
    if (!protocol)
      throw new InputError(
        metric === ACCURACY
          ? `a paired comparison needs a ${orList(names)} suite (${chosen.protocol} has no correctness)`
          : `--metric ${metric} compares ${orList(names)} suites, and --suite is a ${chosen.protocol} suite`,
        { field: '--suite' },
      );
    if (opts.protocol && opts.protocol !== chosen.protocol)
      throw new InputError(`--suite is a ${chosen.protocol} suite but --protocol is ${opts.protocol}`, {
        field: '--protocol',
      });
    return { suite: chosen, protocol };
  }
  const found: { suite: CheckedSuite; protocol: CheckProtocol }[] = [];
  for (const protocol of candidates.filter((p) => !opts.protocol || p.protocol === opts.protocol)) {
    // The most recent suite of the protocol that both models answered.
    const hash = protocolSuites(store, protocol).find(
      (h) => hasModel(store, h, opts.base) && hasModel(store, h, opts.new),
    );
    if (hash)
      found.push({ suite: { protocol: protocol.protocol, hash, name: protocol.suiteName }, protocol });
  }
  const [first, second] = found;
  if (!first)
    throw new InputError(
      `no ${opts.protocol ?? orList(names)} suite in ${store.path} has cells of both '${opts.base}' and '${opts.new}'`,
      { field: '--compare' },
    );
  if (second)
    throw new InputError(
      `both a ${first.protocol.protocol} and a ${second.protocol.protocol} suite have both models: pass --protocol ${found.map((f) => f.protocol.protocol).join('|')}`,
      { field: '--protocol' },
    );
  return first;
}

function hasModel(store: Store, suiteHash: string, name: string): boolean {
  return store.suites.models(suiteHash).some((r) => r.model === name || r.modelIdentity === name);
}

/** A model by its label or identity; a label shared by two identities must be given as an identity. */
function resolveModel(store: Store, suiteHash: string, name: string, role: string): ModelRef {
  const rows = store.suites.models(suiteHash);
  const byIdentity = rows.find((r) => r.modelIdentity === name);
  if (byIdentity) return { label: byIdentity.model, identity: byIdentity.modelIdentity };
  const byLabel = rows.filter((r) => r.model === name);
  if (byLabel.length === 1) {
    const r = byLabel[0] as SuiteModel;
    return { label: r.model, identity: r.modelIdentity };
  }
  if (byLabel.length > 1)
    throw new InputError(
      `${role} model '${name}' names ${byLabel.length} identities in suite ${suiteHash.slice(0, 12)}; give one of: ${byLabel.map((r) => r.modelIdentity).join(', ')}`,
      { field: '--compare' },
    );
  throw new InputError(
    `${role} model '${name}' has no cells in suite ${suiteHash.slice(0, 12)} (models there: ${rows.map((r) => r.model).join(', ') || 'none'})`,
    { field: '--compare' },
  );
}

/** Joins two models' verdicts on a key; a verdict of undefined (not scored) leaves the pair out. */
export function joinVerdicts(
  baseCells: ReadonlyMap<string, Verdict>,
  newCells: ReadonlyMap<string, Verdict>,
): { pairs: PairedObservation[]; unpaired: CompareResult['unpaired'] } {
  const pairs: PairedObservation[] = [];
  let unscored = 0;
  let baseOnly = 0;
  for (const [key, b] of baseCells) {
    const n = newCells.get(key);
    if (!n) {
      baseOnly++;
      continue;
    }
    if (b.correct === undefined || n.correct === undefined) {
      unscored++;
      continue;
    }
    pairs.push({
      cluster: b.cluster,
      base: b.correct,
      new: n.correct,
      ...(b.family !== undefined && { family: b.family }),
    });
  }
  let newOnly = 0;
  for (const key of newCells.keys()) if (!baseCells.has(key)) newOnly++;
  return { pairs, unpaired: { base: baseOnly, new: newOnly, unscored } };
}

/**
 * One model's verdicts from a results loader's cells per model (a CompareDef's helper): `verdict`
 * gives a cell's pair key and verdict. A model without cells has none.
 */
export function modelVerdicts<C>(
  models: readonly { identity: string; cells: readonly C[] }[],
  model: ModelRef,
  verdict: (cell: C) => [key: string, Verdict],
): Map<string, Verdict> {
  return new Map((models.find((m) => m.identity === model.identity)?.cells ?? []).map(verdict));
}
