import { exactMcNemarPower } from '../stats/mcnemar-power.js';
import {
  allRightRate,
  ciWidthN,
  discordantShares,
  meanDifferenceN,
  minimumDetectableDifference,
  mostDiscordance,
  nonInferiorityPairsN,
  nonInferiorityPower,
  pairedMinimumDetectableDifference,
  type Test,
  twoProportionsN,
} from '../stats/power.js';
import {
  clustered,
  compareCheck,
  different,
  EXACT_UP_TO,
  need,
  onFlag,
  PlanInputError,
  pairedSizing,
  two,
} from './common.js';
import {
  DESIGNS,
  type PairedTest,
  type PlanDesign,
  type PlanHead,
  type PlanInput,
  type PlanResult,
} from './types.js';

export {
  DESIGNS,
  PAIRED_TESTS,
  type PairedTest,
  type PlanDesign,
  type PlanInput,
  type PlanResult,
} from './types.js';

/**
 * `waver plan` (docs/plan.md): the items and repeats a claim needs before a run, and the difference
 * a run could detect after it. Each design takes stated rates (or a pilot's, pilot.ts; or a suite's
 * fill, suite-shape.ts) and gives one result object, the same for the text and the JSON. The
 * designs here belong to no protocol; a protocol's own are handed in (`designs`, its module's).
 */

export function plan(input: PlanInput, designs: readonly PlanDesign[] = []): PlanResult {
  const test: Test = { alpha: input.alpha, power: input.power, sides: input.sides };
  const head: PlanHead = { design: input.design, alpha: input.alpha, power: input.power, sides: input.sides };
  const which = input.test ?? 'exact';
  switch (input.design) {
    case 'two-proportions':
      return twoProportionsPlan(input, test, head);
    case 'ci-width':
      return ciWidthPlan(input, head);
    case 'mean-difference':
      return meanDifferencePlan(input, test, head);
    case 'paired-proportions':
      return pairedProportionsPlan(input, test, which, head);
    case 'non-inferiority':
      return nonInferiorityPlan(input, head);
    case 'mdd':
      return mddPlan(input, test, which, head);
  }
  const handed = designs.find((d) => d.name === input.design);
  if (!handed)
    throw new PlanInputError(
      `unknown design '${input.design}' (expected one of ${[...DESIGNS, ...designs.map((d) => d.name)].join(', ')})`,
      '--design',
    );
  return handed.plan(input, { head, test, which });
}

function twoProportionsPlan(input: PlanInput, test: Test, head: PlanHead): PlanResult {
  const [p1, p2] = two(input.p);
  different(p1, p2, 'rates');
  const n = twoProportionsN(p1, p2, test);
  return {
    ...head,
    method: 'z test of two independent proportions, pooled variance (Fleiss, Levin & Paik 2003)',
    n,
    unit: 'items per arm',
    // From a pilot, items as clustered as its cells (a model's accuracy over its clusters).
    details: { p1, p2, total: 2 * n, ...clustered(n, input.pilotClustering, 'arm') },
  };
}

/**
 * The interval `waver check --min-saa` prints beside SAA (and the report beside it): its items
 * are independent (SAA is one verdict per item), so the normal-approximation half-width is what
 * the bootstrap over items gives (docs/plan.md#ci-width, docs/decisions.md E56).
 */
function ciWidthPlan(input: PlanInput, head: PlanHead): PlanResult {
  const p = need(input.p?.[0], 'expected per-cell rate', '--p');
  const width = need(input.width, 'CI half-width wanted', '--width');
  const cells = need(
    input.cells,
    'cells per item (phrasings x repeats) of SAA, whose interval this sizes',
    '--cells',
  );
  const rate = allRightRate(p, cells, input.icc ?? 0);
  return {
    ...head,
    method: `normal-approximation (1 - alpha) CI of SAA's per-item rate (the interval waver check --min-saa and the report print, a bootstrap over items): n = z^2 s (1 - s) / w^2, s the items' SAA from the per-cell rate (its expected half-width)`,
    n: ciWidthN(rate, width, input.alpha),
    unit: 'items (each asked in every phrasing x repeat)',
    details: { p, cells, icc: input.icc ?? 0, saa: rate, halfWidth: width },
    check: 'waver check --min-saa X',
  };
}

function meanDifferencePlan(input: PlanInput, test: Test, head: PlanHead): PlanResult {
  const d = need(input.difference, 'difference of the means', '--diff');
  const sd = need(input.sd, 'standard deviation of the per-pair differences', '--sd');
  return {
    ...head,
    method:
      'paired t test of a mean difference (SGS between two models on the same prompts), by the t quantiles at n - 1 df',
    n: meanDifferenceN(d, sd, test),
    unit: 'pairs (prompts both models answer)',
    details: { difference: d, sd },
  };
}

function pairedProportionsPlan(input: PlanInput, test: Test, which: PairedTest, head: PlanHead): PlanResult {
  const [p1, p2] = two(input.p);
  different(p1, p2, 'rates');
  const psi = need(input.discordance, 'share of discordant pairs', '--discordance');
  const { p10, p01 } = onFlag('--discordance', () => discordantShares(p1, p2, psi));
  const sized = pairedSizing(p10, p01, test, which);
  return {
    ...head,
    method: sized.method,
    ...(sized.n !== undefined && { n: sized.n }),
    unit: 'pairs (items both models answer), independent',
    details: {
      p1,
      p2,
      discordance: psi,
      ...sized.details,
      ...clustered(sized.n, input.pilotClustering),
    },
    check: compareCheck(input),
  };
}

/** Pairs for check's margin rule (docs/plan.md#non-inferiority); --p gives the base's rate, then the new model's. */
function nonInferiorityPlan(input: PlanInput, head: PlanHead): PlanResult {
  if (input.sides !== 2)
    throw new PlanInputError(
      "check's margin rule reads a two-sided CI: for a one-sided level a, give --alpha 2a",
      '--sides',
    );
  const [pBase, pNew] = two(input.p);
  const psi = need(input.discordance, 'share of discordant pairs', '--discordance');
  const margin = need(input.margin, 'non-inferiority margin', '--margin');
  onFlag('--discordance', () => discordantShares(pBase, pNew, psi));
  const n = onFlag('--margin', () =>
    nonInferiorityPairsN(pBase, pNew, psi, margin, { alpha: input.alpha, power: input.power }),
  );
  return {
    ...head,
    method: `check --compare --margin ${margin}: pass when the lower end of the two-sided ${1 - input.alpha} CI of new - base is above -${margin}; Wald variance of a paired difference, (psi - d^2) / n, d = p_new - p_base: n = (z(1 - alpha/2) + z(power))^2 (psi - d^2) / (d + margin)^2`,
    n,
    unit: 'pairs (items both models answer), independent',
    details: {
      pBase,
      pNew,
      discordance: psi,
      margin,
      powerAtN: nonInferiorityPower(n, pBase, pNew, psi, margin, input.alpha),
      ...clustered(n, input.pilotClustering),
    },
    check: compareCheck(input, '--margin', String(margin)),
  };
}

/**
 * The smallest difference a run of n could detect. From a pilot, n counts pairs of correlated
 * cells: the paired figure is taken at n / the paired design effect, the unpaired ones at n / one
 * model's (docs/plan.md#pilot); a stated --n is independent pairs.
 */
function mddPlan(input: PlanInput, test: Test, which: PairedTest, head: PlanHead): PlanResult {
  const n = need(input.n, 'n the run had', '--n');
  const p1 = need(input.p?.[0], 'rate of the first model', '--p');
  const c = input.pilotClustering;
  const armN = c ? n / c.armDesignEffect : n;
  const pairedN = c ? n / c.designEffect : n;
  const down = armN < 1 ? undefined : minimumDetectableDifference(armN, p1, test, -1);
  const up = armN < 1 ? undefined : minimumDetectableDifference(armN, p1, test, 1);
  const psi = input.discordance;
  if (psi !== undefined && psi > mostDiscordance(p1) + 1e-12)
    throw new PlanInputError(
      `a discordance of ${psi} is impossible at a rate of ${p1} with a small difference: it must be at most ${Number(mostDiscordance(p1).toPrecision(12))} (2 min(p, 1 - p))`,
      '--discordance',
    );
  const exactInput = { alpha: test.alpha ?? 0.05, sides: test.sides ?? 2 };
  // The exact power sums over whole pairs: the effective pairs rounded down (conservative).
  const wholePairs = Math.floor(pairedN + 1e-9);
  const exact = which === 'exact' && wholePairs <= EXACT_UP_TO;
  const paired =
    psi === undefined || wholePairs < 1
      ? undefined
      : pairedMinimumDetectableDifference(
          pairedN,
          psi,
          test,
          exact
            ? (p10, p01) => exactMcNemarPower(wholePairs, { p10, p01, ...exactInput }) >= (test.power ?? 0.8)
            : undefined,
        );
  return {
    ...head,
    method: `the inverse of the two-proportions n, downwards (p2 = p1 - d) and upwards (p2 = p1 + d)${
      psi === undefined
        ? ''
        : `, and of McNemar's ${exact ? 'exact power' : 'n by Connor'} from the discordance`
    }: the smallest difference n detects at the power${
      c
        ? `; n the pilot's pairs over their design effect (the paired difference's for McNemar, one model's accuracy's for the unpaired figures: pairs that share a ${c.cluster} are correlated)`
        : ''
    }`,
    details: {
      n,
      ...(c && {
        designEffect: c.designEffect,
        effectivePairs: pairedN,
        armDesignEffect: c.armDesignEffect,
        effectiveItemsPerArm: armN,
      }),
      p1,
      unpaired: down,
      unpairedUp: up,
      ...(psi !== undefined && { discordance: psi, paired }),
      ...(down === undefined &&
        up === undefined && {
          unavailable: 'n is too small to detect any difference at this power',
        }),
    },
  };
}

export function formatPlan(r: PlanResult): string {
  const lines = [`design ${r.design}: power ${r.power}, alpha ${r.alpha} (${r.sides}-sided)`];
  if (r.n !== undefined) lines.push(`n = ${r.n} ${r.unit ?? ''}`.trimEnd());
  else if (r.design !== 'mdd') lines.push(`n unavailable: ${r.details.unavailable ?? 'not reached'}`);
  for (const [k, v] of Object.entries(r.details))
    if (v !== undefined && k !== 'unavailable')
      lines.push(`  ${k}: ${typeof v === 'number' ? Number(v.toFixed(4)) : v}`);
  if (r.design === 'mdd' && r.details.unavailable) lines.push(`  ${r.details.unavailable}`);
  lines.push(`method: ${r.method}`);
  if (r.check) lines.push(`sizes: ${r.check}`);
  return `${lines.join('\n')}\n`;
}
