import { exactMcNemarN, exactMcNemarPower } from '../stats/mcnemar-power.js';
import {
  ciWidthN,
  clusteredProportionsN,
  collapsePointOf,
  collapseShiftPower,
  discordantShares,
  meanDifferenceN,
  minimumDetectableDifference,
  mostDiscordance,
  oneProportionN,
  pairedMinimumDetectableDifference,
  pairedProportionsN,
  saaItemRate,
  smallestN,
  type Test,
  twoProportionsN,
} from '../stats/power.js';

/**
 * `waver plan` (docs/plan.md): the items and repeats a claim needs before a run, and the difference
 * a run could detect after it. Each design takes stated rates (or a pilot's, pilot.ts) and gives
 * one result object, the same for the text and the JSON.
 */

export const DESIGNS = [
  'two-proportions',
  'one-proportion',
  'ci-width',
  'mean-difference',
  'paired-proportions',
  'ladder-level',
  'saa',
  'collapse-shift',
  'mdd',
] as const;
export type Design = (typeof DESIGNS)[number];

/** The paired test a paired design sizes: McNemar's exact test (what `check --compare` runs) or Connor's normal approximation. */
export const PAIRED_TESTS = ['exact', 'asymptotic'] as const;
export type PairedTest = (typeof PAIRED_TESTS)[number];

/** Beyond this many pairs the exact power is not summed: the normal approximation is used and said. */
const EXACT_UP_TO = 50_000;

export interface PlanInput extends Required<Pick<Test, 'alpha' | 'power' | 'sides'>> {
  design: Design;
  /** The two rates compared (or one, for mdd). */
  p?: readonly number[];
  /** The share of pairs on which the two disagree (paired designs). */
  discordance?: number;
  /** Paired designs: which test to size; exact by default. */
  test?: PairedTest;
  repeats?: number;
  icc?: number;
  /** ladder-level: the share of seeds the suite admits a test at the level for (its fill). */
  fill?: number;
  /** Cells per item (phrasings x repeats) for SAA. */
  cells?: number;
  curveA?: readonly number[];
  curveB?: readonly number[];
  collapseRatio?: number;
  /** ci-width: the CI's half-width wanted. */
  width?: number;
  /** mean-difference: the difference, and the standard deviation of the per-pair differences. */
  difference?: number;
  sd?: number;
  /** mdd: the n a run had (per arm, or pairs). */
  n?: number;
  /** SAA from a pilot: the per-item SAA of the two models (every cell of the item right). */
  pilotItems?: readonly { a: boolean; b: boolean }[];
  /** Paired designs from a pilot: the design effect of its clusters, and their mean size. */
  pilotClustering?: { designEffect: number; pairsPerCluster: number; cluster: string };
}

export interface PlanResult {
  design: Design;
  alpha: number;
  power: number;
  sides: number;
  /** What the numbers are: the formula or the simulation. */
  method: string;
  /** The items (per arm), pairs or seeds needed; absent for mdd. */
  n?: number;
  /** What n counts. */
  unit?: string;
  /** Everything else the design gives: cells, the design effect, the exact power at n... */
  details: Record<string, number | string | undefined>;
}

function need<T>(v: T | undefined, what: string): T {
  if (v === undefined) throw new RangeError(`the ${what} is needed for this design`);
  return v;
}

function two(p: readonly number[] | undefined): [number, number] {
  if (p?.length !== 2) throw new RangeError('two rates are needed: --p A,B');
  return [p[0] as number, p[1] as number];
}

/** Rates equal to 9 decimals: no n detects the difference, so none is given. */
function different(a: number, b: number, what: string): void {
  if (Math.abs(a - b) < 1e-9)
    throw new RangeError(`the two ${what} are equal (${a}): no n detects a difference of 0`);
}

/**
 * Pairs for McNemar from the discordant shares: the exact test's smallest n (docs/plan.md#exact)
 * or Connor's; both are given, with the exact power at each.
 */
function pairedSizing(
  p10: number,
  p01: number,
  test: Test,
  which: PairedTest,
): { n: number | undefined; details: Record<string, number | string | undefined>; method: string } {
  const asymptotic = pairedProportionsN(p10, p01, test);
  const exactInput = { p10, p01, alpha: test.alpha ?? 0.05, sides: test.sides ?? 2 };
  const tooMany = asymptotic > EXACT_UP_TO;
  const exact = tooMany ? undefined : exactMcNemarN(exactInput, test.power ?? 0.8, asymptotic, EXACT_UP_TO);
  const connor = 'Connor (1987), the normal approximation';
  const method =
    which === 'asymptotic' || tooMany
      ? `McNemar's test sized by ${connor}${tooMany && which === 'exact' ? `: over ${EXACT_UP_TO} pairs the exact power is not summed` : ''}`
      : "McNemar's exact test (the test check --compare runs), the smallest n whose exact power reaches the target";
  const n = which === 'exact' && exact ? exact.n : asymptotic;
  return {
    n,
    method,
    details: {
      p10,
      p01,
      asymptoticN: asymptotic,
      exactPowerAtAsymptoticN: tooMany ? undefined : exactMcNemarPower(asymptotic, exactInput),
      ...(exact && { exactN: exact.n, exactPower: exact.power }),
    },
  };
}

/** Pairs to clusters with a pilot's design effect (docs/plan.md#pilot); unchanged without one. */
function clustered(
  n: number | undefined,
  c: PlanInput['pilotClustering'],
): Record<string, number | string | undefined> {
  if (n === undefined || !c) return {};
  const pairs = Math.ceil(n * c.designEffect - 1e-9);
  return {
    designEffect: c.designEffect,
    clusteredPairs: pairs,
    clusters: Math.ceil(pairs / c.pairsPerCluster - 1e-9),
    clusterUnit: `${c.cluster}s of ${Number(c.pairsPerCluster.toFixed(2))} pairs on average (the pilot's)`,
  };
}

export function plan(input: PlanInput): PlanResult {
  const test: Test = { alpha: input.alpha, power: input.power, sides: input.sides };
  const head = { design: input.design, alpha: input.alpha, power: input.power, sides: input.sides };
  const which = input.test ?? 'exact';
  switch (input.design) {
    case 'two-proportions': {
      const [p1, p2] = two(input.p);
      different(p1, p2, 'rates');
      const n = twoProportionsN(p1, p2, test);
      return {
        ...head,
        method: 'z test of two independent proportions, pooled variance (Fleiss, Levin & Paik 2003)',
        n,
        unit: 'items per arm',
        details: { p1, p2, total: 2 * n },
      };
    }
    case 'one-proportion': {
      const [p1, p0] = two(input.p);
      different(p1, p0, 'rates');
      return {
        ...head,
        method: 'z test of one proportion against a fixed rate (Fleiss, Levin & Paik 2003)',
        n: oneProportionN(p1, p0, test),
        unit: 'items',
        details: { p: p1, fixedRate: p0 },
      };
    }
    case 'ci-width': {
      const p = need(input.p?.[0], 'expected rate (--p)');
      const width = need(input.width, 'CI half-width wanted (--width)');
      const cells = input.cells;
      // With --cells, the rate is per cell and the CI is SAA's, on items (docs/plan.md#saa).
      const rate = cells === undefined ? p : saaItemRate(p, cells, input.icc ?? 0);
      return {
        ...head,
        method: `normal-approximation (1 - alpha) CI of ${cells === undefined ? 'a proportion' : "SAA's per-item rate"}: n = z^2 p q / w^2 (its expected half-width)`,
        n: ciWidthN(rate, width, input.alpha),
        unit: cells === undefined ? 'items' : 'items (each asked in every phrasing x repeat)',
        details: {
          p,
          ...(cells !== undefined && { cells, icc: input.icc ?? 0, saa: rate }),
          halfWidth: width,
        },
      };
    }
    case 'mean-difference': {
      const d = need(input.difference, 'difference of the means (--diff)');
      const sd = need(input.sd, 'standard deviation of the per-pair differences (--sd)');
      return {
        ...head,
        method:
          'paired t test of a mean difference (SGS between two models on the same prompts), by the t quantiles at n - 1 df',
        n: meanDifferenceN(d, sd, test),
        unit: 'pairs (prompts both models answer)',
        details: { difference: d, sd },
      };
    }
    case 'paired-proportions': {
      const [p1, p2] = two(input.p);
      different(p1, p2, 'rates');
      const psi = need(input.discordance, 'share of discordant pairs (--discordance)');
      const { p10, p01 } = discordantShares(p1, p2, psi);
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
      };
    }
    case 'ladder-level': {
      const [p1, p2] = two(input.p);
      different(p1, p2, 'rates');
      const repeats = input.repeats ?? 1;
      const icc = input.icc ?? 0;
      const r = clusteredProportionsN(p1, p2, repeats, icc, test);
      const fill = input.fill ?? 1;
      return {
        ...head,
        method: `two proportions on cells, inflated by Kish's design effect 1 + (repeats - 1) * icc for repeats of one seed${
          input.fill === undefined
            ? ''
            : ', then divided by the fill: the share of seeds with a test at the level'
        }`,
        n: Math.ceil(r.clusters / fill - 1e-9),
        unit:
          input.fill === undefined
            ? 'seeds per model with a test at the level'
            : 'seeds per model to build (a share fill of them has a test at the level)',
        details: {
          p1,
          p2,
          repeats,
          icc,
          cells: r.cells,
          designEffect: r.designEffect,
          independentCells: r.independentCells,
          seedsAtLevel: r.clusters,
          ...(input.fill !== undefined && { fill }),
        },
      };
    }
    case 'saa':
      return saaPlan(input, test, which, head);
    case 'collapse-shift': {
      const a = need(input.curveA, 'accuracy curve of the first model (--curve)');
      const b = need(input.curveB, 'accuracy curve of the second model (--curve-b)');
      const ratio = input.collapseRatio ?? 0.8;
      const cpA = collapsePointOf(a, ratio);
      const cpB = collapsePointOf(b, ratio);
      if (cpA >= cpB)
        throw new RangeError(
          `the first curve must collapse earlier than the second (Collapse Points ${cpA} and ${cpB} at ratio ${ratio})`,
        );
      const repeats = input.repeats ?? 1;
      const found = smallestN((n) => collapseShiftPower(a, b, n, repeats, ratio), input.power, {
        maxN: 20_000,
      });
      const never = (cp: number, curve: readonly number[]) => (cp >= curve.length ? 'never' : `L${cp}`);
      return {
        ...head,
        method:
          "exact: each level's accuracy a binomial count over n x repeats cells, the Collapse Point's distribution summed over the baseline's count; the power is the chance that the first model's estimated Collapse Point comes before the second's, and n the smallest reaching it",
        ...(found && { n: found.n }),
        unit: 'seeds (each asked at every level)',
        details: {
          collapseA: never(cpA, a),
          collapseB: never(cpB, b),
          repeats,
          collapseRatio: ratio,
          exactPower: found?.power,
          ...(!found && { unavailable: 'no n up to 20,000 reaches the power' }),
        },
      };
    }
    case 'mdd':
      return mddPlan(input, test, which, head);
  }
}

function saaPlan(
  input: PlanInput,
  test: Test,
  which: PairedTest,
  head: Pick<PlanResult, 'design' | 'alpha' | 'power' | 'sides'>,
): PlanResult {
  let saaA: number;
  let saaB: number;
  let p10: number;
  let p01: number;
  let source: Record<string, number | undefined>;
  if (input.pilotItems) {
    const items = input.pilotItems;
    const share = (f: (i: { a: boolean; b: boolean }) => boolean) => items.filter(f).length / items.length;
    saaA = share((i) => i.a);
    saaB = share((i) => i.b);
    p10 = share((i) => i.a && !i.b);
    p01 = share((i) => !i.a && i.b);
    source = { pilotItems: items.length };
  } else {
    const [p1, p2] = two(input.p);
    different(p1, p2, 'rates');
    const cells = input.cells ?? 1;
    const icc = input.icc ?? 0;
    saaA = saaItemRate(p1, cells, icc);
    saaB = saaItemRate(p2, cells, icc);
    // The models' item chances drawn apart: conservative, as a real pilot pairs them (docs/plan.md#saa).
    p10 = saaA * (1 - saaB);
    p01 = saaB * (1 - saaA);
    source = { p1, p2, cells, icc };
  }
  different(saaA, saaB, 'SAA rates');
  const sized = pairedSizing(p10, p01, test, which);
  return {
    ...head,
    method: `${sized.method}, on items: an item's SAA is 1 when every cell of it is right (${
      input.pilotItems
        ? "the pilot's per-item SAA"
        : 'from the stated per-cell rates by the beta-binomial chance that all cells are right'
    })`,
    ...(sized.n !== undefined && { n: sized.n }),
    unit: 'items (each asked in every phrasing x repeat)',
    details: { saaA, saaB, ...source, ...sized.details },
  };
}

function mddPlan(
  input: PlanInput,
  test: Test,
  which: PairedTest,
  head: Pick<PlanResult, 'design' | 'alpha' | 'power' | 'sides'>,
): PlanResult {
  const n = need(input.n, 'n the run had (--n)');
  const p1 = need(input.p?.[0], 'rate of the first model (--p)');
  const down = minimumDetectableDifference(n, p1, test, -1);
  const up = minimumDetectableDifference(n, p1, test, 1);
  const psi = input.discordance;
  if (psi !== undefined && psi > mostDiscordance(p1) + 1e-12)
    throw new RangeError(
      `a discordance of ${psi} is impossible at a rate of ${p1} with a small difference: it must be at most ${Number(mostDiscordance(p1).toPrecision(12))} (2 min(p, 1 - p))`,
    );
  const exactInput = { alpha: test.alpha ?? 0.05, sides: test.sides ?? 2 };
  const paired =
    psi === undefined
      ? undefined
      : pairedMinimumDetectableDifference(
          n,
          psi,
          test,
          which === 'exact' && n <= EXACT_UP_TO
            ? (p10, p01) => exactMcNemarPower(n, { p10, p01, ...exactInput }) >= (test.power ?? 0.8)
            : undefined,
        );
  return {
    ...head,
    method: `the inverse of the two-proportions n, downwards (p2 = p1 - d) and upwards (p2 = p1 + d)${
      psi === undefined
        ? ''
        : `, and of McNemar's ${which === 'exact' && n <= EXACT_UP_TO ? 'exact power' : 'n by Connor'} from the discordance`
    }: the smallest difference n detects at the power`,
    details: {
      n,
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
  return `${lines.join('\n')}\n`;
}
