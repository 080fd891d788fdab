import { different, need, onFlag, PlanInputError, pairedSizing, two } from '../../plan/common.js';
import { type ScopeShape, scopeShape } from '../../plan/suite-shape.js';
import type { DesignContext, PlanDesign, PlanDetails, PlanInput, PlanResult } from '../../plan/types.js';
import { designEffect, discordantShares, smallestN, unequalClusterDesignEffect } from '../../stats/power.js';
import { collapsePointOf, collapseShiftPower } from './collapse.js';

/**
 * The ladder's designs of `waver plan` (docs/plan.md#suite), handed in by its module (`designs`):
 * the Collapse Point shift, one level's accuracy and one family's paired test, each sized on the suite's fill (the seeds with a test at each level,
 * the baseline's repeats) when a suite is given, and on the stated fill and repeats otherwise.
 */

const SLACK = 1e-9;

/** The suite's shape for the design's family, or undefined without a suite file. */
function shapeOf(input: PlanInput): ScopeShape | undefined {
  if (!input.suite || input.suite.tests.length === 0) return undefined;
  return scopeShape(input.suite, input.family, {
    ...(input.repeats !== undefined && { repeats: input.repeats }),
    ...(input.baselineRepeats !== undefined && { baselineRepeats: input.baselineRepeats }),
  });
}

/** `fill` as people read it: `L1 41/48, L2 43/48, ...`. */
function fillText(shape: ScopeShape, levels: readonly number[]): string {
  return levels.map((l) => `L${l} ${shape.levels.get(l)?.clusters ?? 0}/${shape.clusters}`).join(', ');
}

/**
 * The discordance of the paired designs: stated, or the one two models with independent errors
 * have, p1 q2 + p2 q1 (conservative when their errors go together, as on shared seeds: a smaller
 * discordance needs fewer pairs).
 */
function discordanceOf(input: PlanInput, p1: number, p2: number): { psi: number; details: PlanDetails } {
  if (input.discordance !== undefined)
    return { psi: input.discordance, details: { discordance: input.discordance } };
  const psi = p1 * (1 - p2) + p2 * (1 - p1);
  return {
    psi,
    details: {
      discordance: psi,
      discordanceFrom: 'independent errors, p1 q2 + p2 q1 (conservative; pass --discordance or --pilot)',
    },
  };
}

function collapseShiftPlan(input: PlanInput, { head }: DesignContext): PlanResult {
  const a = need(input.curveA, 'accuracy curve of the first model', '--curve');
  const b = need(input.curveB, 'accuracy curve of the second model', '--curve-b');
  if (a.length !== b.length || a.length < 2)
    throw new PlanInputError(
      'the two accuracy curves need the same levels, the baseline and at least one more',
      '--curve-b',
    );
  const ratio = input.collapseRatio ?? 0.8;
  const shape = shapeOf(input);
  // Per level of the curves (index 0 the baseline): tests per seed built, and the repeats of each.
  let perSeed: number[];
  let repeats: number[];
  if (shape) {
    const top = Math.max(...shape.levels.keys());
    if (a.length - 1 < top)
      throw new PlanInputError(
        `the suite has ${shape.scope} tests up to L${top}: give both curves from L0 to L${top}`,
        '--curve',
      );
    if (shape.reference.tests === 0)
      throw new PlanInputError('the suite has no baseline (level 0) tests', '--suite');
    const at = (l: number) => (l === 0 ? shape.reference : shape.levels.get(l));
    perSeed = a.map((_, l) => (at(l)?.tests ?? 0) / shape.clusters);
    repeats = a.map((_, l) => {
      const s = at(l);
      return s && s.tests > 0 ? Math.round(s.cells / s.tests) : 0;
    });
  } else {
    perSeed = a.map(() => 1);
    const r = input.repeats ?? input.suite?.repeats.perturbed ?? 1;
    const r0 = need(
      input.baselineRepeats ?? input.suite?.repeats.reference,
      'times the baseline is asked',
      '--baseline-repeats',
    );
    repeats = a.map((_, l) => (l === 0 ? r0 : r));
  }
  const cellsAt = (n: number) => perSeed.map((s, l) => Math.floor(n * s + SLACK) * (repeats[l] as number));
  const tested = (l: number) => (perSeed[l] as number) > 0;
  const cpA = collapsePointOf(a, ratio, tested);
  const cpB = collapsePointOf(b, ratio, tested);
  if (cpA >= cpB)
    throw new PlanInputError(
      `the first curve must collapse earlier than the second (Collapse Points ${cpA} and ${cpB} at ratio ${ratio}${shape ? ', over the levels the suite has' : ''})`,
      '--curve',
    );
  const found = smallestN((n) => collapseShiftPower(a, b, cellsAt(n), ratio), input.power, { maxN: 20_000 });
  const never = (cp: number) => (cp >= a.length ? 'never' : `L${cp}`);
  const levels = a.map((_, l) => l).slice(1);
  return {
    ...head,
    method:
      "exact: each level's accuracy a binomial count over its cells (the seeds with a test there x its repeats; the baseline's asked baselineRepeats times), the Collapse Point's distribution summed over the baseline's count; the power is the chance that the first model's estimated Collapse Point comes before the second's, and n the smallest reaching it. The two models' counts are taken as independent, and so are the cells of a seed",
    ...(found && { n: found.n }),
    unit: shape
      ? `seeds to build (the suite's fill: a share of them has a ${shape.scope} test at each level)`
      : 'seeds (each with a test at every level)',
    details: {
      ...(shape && { family: shape.scope, suiteSeeds: shape.clusters, fill: fillText(shape, levels) }),
      collapseA: never(cpA),
      collapseB: never(cpB),
      baselineRepeats: repeats[0],
      repeats: repeats.find((r, l) => l > 0 && r > 0),
      collapseRatio: ratio,
      exactPower: found?.power,
      ...(found && {
        cellsAtN: cellsAt(found.n)
          .map((c, l) => `L${l} ${c}`)
          .join(', '),
      }),
      ...(!found && { unavailable: 'no n up to 20,000 reaches the power' }),
    },
  };
}

/**
 * One level's accuracy, two models on the same seeds: McNemar on the level's pairs (test x repeat,
 * as check --compare pairs them), the independent pairs inflated by Kish's design effect for the
 * pairs of one seed, then divided by the fill (the share of seeds with a test at the level).
 */
function ladderLevelPlan(input: PlanInput, { head, test, which }: DesignContext): PlanResult {
  const [p1, p2] = two(input.p);
  different(p1, p2, 'rates');
  const { psi, details: psiDetails } = discordanceOf(input, p1, p2);
  const { p10, p01 } = onFlag('--discordance', () => discordantShares(p1, p2, psi));
  const shape = shapeOf(input);
  let fill: number;
  let pairsPerSeed: number;
  let from: PlanDetails;
  if (shape) {
    if (input.fill !== undefined)
      throw new PlanInputError('give the fill (--fill) or a suite (--suite), not both', '--fill');
    const level = need(input.level, 'measured level', '--level');
    const at = shape.levels.get(level);
    if (!at) throw new PlanInputError(`the suite has no ${shape.scope} test at L${level}`, '--level');
    fill = at.clusters / shape.clusters;
    pairsPerSeed = at.cells / at.clusters;
    from = { family: shape.scope, level: `L${level}`, fill: `${at.clusters}/${shape.clusters}` };
  } else {
    fill = input.fill ?? 1;
    pairsPerSeed = input.repeats ?? input.suite?.repeats.perturbed ?? 1;
    from = input.fill === undefined ? {} : { fill };
  }
  const icc = input.icc ?? 0;
  const sized = pairedSizing(p10, p01, test, which);
  const deff = pilotOr(input, designEffect(pairsPerSeed, icc));
  const seedsAtLevel = sized.n === undefined ? undefined : Math.ceil((sized.n * deff) / pairsPerSeed - SLACK);
  return {
    ...head,
    method: `${sized.method}, on the level's pairs (test x repeat) of two models answering the same seeds; the independent pairs times Kish's design effect 1 + (m - 1) icc for the m pairs of a seed, divided by m, then by the fill (the share of seeds with a test at the level)`,
    ...(seedsAtLevel !== undefined && { n: Math.ceil(seedsAtLevel / fill - SLACK) }),
    unit:
      fill === 1 && !shape
        ? 'seeds with a test at the level (both models answer each)'
        : 'seeds to build (the fill: a share of them has a test at the level; both models answer each)',
    details: {
      p1,
      p2,
      ...psiDetails,
      ...from,
      pairsPerSeed,
      icc,
      designEffect: deff,
      designEffectFrom: fromPilot(input) ? "the pilot's pairs (no --icc)" : 'Kish, from --icc',
      ...sized.details,
      seedsAtLevel,
    },
  };
}

/**
 * One family's test as `check --compare` runs it (docs/check.md#compare): McNemar's exact test on
 * every pair of the family (all its levels, every repeat), its p adjusted over the 1 + F tests the
 * check runs on the suite (all pairs, and each of the F scopes, the baseline's too), so sized at
 * alpha / (1 + F) (Holm's first step; Holm rejects at least what that rejects); the independent
 * pairs times Kish's design effect for the family's unequal pairs per seed, over the pairs a
 * seed of the suite brings.
 */
function ladderFamilyPlan(input: PlanInput, { head, test, which }: DesignContext): PlanResult {
  const shape = shapeOf(input);
  if (!shape)
    throw new PlanInputError(
      'this design sizes the test check runs on a suite: give it (--suite)',
      '--suite',
    );
  const [p1, p2] = two(input.p);
  different(p1, p2, 'rates');
  const { psi, details: psiDetails } = discordanceOf(input, p1, p2);
  const { p10, p01 } = onFlag('--discordance', () => discordantShares(p1, p2, psi));
  const adjust = input.adjust ?? 'holm';
  const tests = shape.scopes.length >= 2 ? 1 + shape.scopes.length : 1;
  // Holm's first step and Bonferroni: alpha / k (the level of check's intervals, multiplicity.ts).
  const level = adjust === 'none' ? input.alpha : input.alpha / tests;
  const sized = pairedSizing(p10, p01, { ...test, alpha: level }, which);
  const icc = input.icc ?? 0;
  const deff = pilotOr(input, unequalClusterDesignEffect(shape.cellsPerCluster, icc));
  const pairsPerSeed = shape.cellsPerCluster.reduce((s, m) => s + m, 0) / shape.clusters;
  const pairs = sized.n === undefined ? undefined : Math.ceil(sized.n * deff - SLACK);
  return {
    ...head,
    method: `${sized.method}, on every pair (test x repeat) of the family, at alpha / k for the k tests check --compare adjusts over (${adjust}); the independent pairs times Kish's design effect 1 + (sum m^2 / sum m - 1) icc for the family's m pairs per seed, over the pairs a seed of the suite brings`,
    ...(pairs !== undefined && { n: Math.ceil(pairs / pairsPerSeed - SLACK) }),
    unit: `seeds to build (each brings the suite's ${Number(pairsPerSeed.toFixed(2))} ${shape.scope} pairs on average; both models answer each)`,
    details: {
      family: shape.scope,
      p1,
      p2,
      ...psiDetails,
      suiteSeeds: shape.clusters,
      checkTests: tests,
      adjust,
      testAlpha: level,
      pairsPerSeed,
      icc,
      designEffect: deff,
      designEffectFrom: fromPilot(input) ? "the pilot's pairs (no --icc)" : 'Kish, from --icc',
      ...sized.details,
      clusteredPairs: pairs,
    },
  };
}

/**
 * The design effect of a seed's pairs: the one a pilot measured (docs/plan.md#pilot) unless an
 * intra-seed correlation is stated (`--icc`), else Kish's from it.
 */
function pilotOr(input: PlanInput, kish: number): number {
  return fromPilot(input) ? (input.pilotClustering?.designEffect as number) : kish;
}

function fromPilot(input: PlanInput): boolean {
  return input.icc === undefined && input.pilotClustering !== undefined;
}

/** In the order `waver plan` lists them (`--design`'s choices, "--suite sizes ..."). */
export const LADDER_DESIGNS: readonly PlanDesign[] = [
  { name: 'collapse-shift', suite: true, plan: collapseShiftPlan },
  { name: 'ladder-level', suite: true, plan: ladderLevelPlan },
  { name: 'ladder-family', suite: true, plan: ladderFamilyPlan },
];
