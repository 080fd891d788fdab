import {
  clusteredProportionsN,
  collapsePointOf,
  collapseShiftPower,
  discordantShares,
  minimumDetectableDifference,
  type PairedCluster,
  pairedMinimumDetectableDifference,
  pairedProportionsN,
  saaPower,
  simulatedItems,
  smallestN,
  type Test,
  twoProportionsN,
} from '../stats/power.js';
import { PyRandom } from '../util/random.js';

/**
 * `waver plan` (docs/plan.md): the items and repeats a claim needs before a run, and the difference
 * a run could detect after it. Each design takes stated rates (or a pilot's, pilot.ts) and gives
 * one result object, the same for the text and the JSON.
 */

export const DESIGNS = [
  'two-proportions',
  'paired-proportions',
  'ladder-level',
  'saa',
  'collapse-shift',
  'mdd',
] as const;
export type Design = (typeof DESIGNS)[number];

export interface PlanInput extends Required<Pick<Test, 'alpha' | 'power' | 'sides'>> {
  design: Design;
  /** The two rates compared (or one, for mdd). */
  p?: readonly number[];
  /** The share of pairs on which the two disagree (paired designs). */
  discordance?: number;
  repeats?: number;
  icc?: number;
  /** Cells per item (phrasings x repeats) for SAA. */
  cells?: number;
  curveA?: readonly number[];
  curveB?: readonly number[];
  collapseRatio?: number;
  /** mdd: the n a run had (per arm, or pairs). */
  n?: number;
  simulations?: number;
  seed?: number;
  /** A pilot's items for SAA (from a store). */
  pilot?: readonly PairedCluster[];
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
  /** Everything else the design gives: cells, the design effect, the simulated power at n... */
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

export function plan(input: PlanInput): PlanResult {
  const test: Test = { alpha: input.alpha, power: input.power, sides: input.sides };
  const head = { design: input.design, alpha: input.alpha, power: input.power, sides: input.sides };
  const sims = input.simulations ?? 1000;
  const seed = input.seed ?? 0;
  switch (input.design) {
    case 'two-proportions': {
      const [p1, p2] = two(input.p);
      const n = twoProportionsN(p1, p2, test);
      return {
        ...head,
        method: 'z test of two independent proportions, pooled variance (Fleiss, Levin & Paik 2003)',
        n,
        unit: 'items per arm',
        details: { p1, p2, total: 2 * n },
      };
    }
    case 'paired-proportions': {
      const [p1, p2] = two(input.p);
      const psi = need(input.discordance, 'share of discordant pairs (--discordance)');
      const { p10, p01 } = discordantShares(p1, p2, psi);
      return {
        ...head,
        method: "McNemar's test from the discordant shares (Connor 1987)",
        n: pairedProportionsN(p10, p01, test),
        unit: 'pairs (items both models answer)',
        details: { p1, p2, discordance: psi, p10, p01 },
      };
    }
    case 'ladder-level': {
      const [p1, p2] = two(input.p);
      const repeats = input.repeats ?? 1;
      const icc = input.icc ?? 0;
      const r = clusteredProportionsN(p1, p2, repeats, icc, test);
      return {
        ...head,
        method:
          "two proportions on cells, inflated by Kish's design effect 1 + (repeats - 1) * icc for repeats of one seed",
        n: r.clusters,
        unit: 'seeds per model at the level',
        details: {
          p1,
          p2,
          repeats,
          icc,
          cells: r.cells,
          designEffect: r.designEffect,
          independentCells: r.independentCells,
        },
      };
    }
    case 'saa': {
      const pool =
        input.pilot ??
        (() => {
          const [p1, p2] = two(input.p);
          return simulatedItems(p1, p2, input.cells ?? 1, input.icc ?? 0, 20_000, new PyRandom(seed));
        })();
      const found = smallestN((n, rng) => saaPower(pool, n, rng, test, sims), input.power, {
        seed: seed + 1,
      });
      const saa = (side: 'a' | 'b') => pool.filter((c) => c[side].every(Boolean)).length / pool.length;
      return {
        ...head,
        method: `cluster bootstrap by simulation: ${sims} studies of n items drawn from ${
          input.pilot
            ? `the pilot's ${pool.length} items`
            : `${pool.length} items simulated from the stated rates`
        }, each a z test of the paired SAA difference`,
        ...(found && { n: found.n }),
        unit: 'items (each asked in every phrasing x repeat)',
        details: {
          saaA: saa('a'),
          saaB: saa('b'),
          ...(input.pilot
            ? { pilotItems: pool.length }
            : { p1: input.p?.[0], p2: input.p?.[1], cells: input.cells ?? 1, icc: input.icc ?? 0 }),
          simulatedPower: found?.power,
          ...(!found && { unavailable: 'no n up to 100,000 reaches the power' }),
        },
      };
    }
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
      const found = smallestN(
        (n, rng) => collapseShiftPower(a, b, n, repeats, rng, ratio, sims),
        input.power,
        {
          seed,
          maxN: 20_000,
        },
      );
      const never = (cp: number, curve: readonly number[]) => (cp >= curve.length ? 'never' : `L${cp}`);
      return {
        ...head,
        method: `simulation: ${sims} studies, binomial cells at each level; the power is the share whose estimated Collapse Point of the first model comes before the second's`,
        ...(found && { n: found.n }),
        unit: 'seeds (each asked at every level)',
        details: {
          collapseA: never(cpA, a),
          collapseB: never(cpB, b),
          repeats,
          collapseRatio: ratio,
          simulatedPower: found?.power,
          ...(!found && { unavailable: 'no n up to 20,000 reaches the power' }),
        },
      };
    }
    case 'mdd': {
      const n = need(input.n, 'n the run had (--n)');
      const p1 = need(input.p?.[0], 'rate of the first model (--p)');
      const unpaired = minimumDetectableDifference(n, p1, test);
      const paired =
        input.discordance === undefined
          ? undefined
          : pairedMinimumDetectableDifference(n, input.discordance, test);
      return {
        ...head,
        method:
          'the inverse of the two-proportions n (and of McNemar from the discordance): the smallest difference n detects at the power',
        details: {
          n,
          p1,
          unpaired,
          ...(input.discordance !== undefined && { discordance: input.discordance, paired }),
          ...(unpaired === undefined && {
            unavailable: 'n is too small to detect any difference at this power',
          }),
        },
      };
    }
  }
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
