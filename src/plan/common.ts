import { exactMcNemarN, exactMcNemarPower } from '../stats/mcnemar-power.js';
import { pairedProportionsN, type Test } from '../stats/power.js';
import type { PairedTest, PlanDetails, PlanInput } from './types.js';

/** What the designs share: their inputs' checks and McNemar's sizing (docs/plan.md). */

/** Beyond this many pairs the exact power is not summed: the normal approximation is used and said. */
export const EXACT_UP_TO = 50_000;

/** An input a design cannot take, naming the flag that gave it, so the error names that field. */
export class PlanInputError extends RangeError {
  constructor(
    message: string,
    readonly flag: string,
  ) {
    super(message);
    this.name = 'PlanInputError';
  }
}

/** A statistics function's range error put on the flag whose value it refused. */
export function onFlag<T>(flag: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof RangeError && !(e instanceof PlanInputError)) throw new PlanInputError(e.message, flag);
    throw e;
  }
}

export function need<T>(v: T | undefined, what: string, flag: string): T {
  if (v === undefined) throw new PlanInputError(`the ${what} is needed for this design (${flag})`, flag);
  return v;
}

export function two(p: readonly number[] | undefined): [number, number] {
  if (p?.length !== 2) throw new PlanInputError('two rates are needed: --p A,B', '--p');
  return [p[0] as number, p[1] as number];
}

/** Rates equal to 9 decimals: no n detects the difference, so none is given. */
export function different(a: number, b: number, what: string): void {
  if (Math.abs(a - b) < 1e-9)
    throw new PlanInputError(`the two ${what} are equal (${a}): no n detects a difference of 0`, '--p');
}

/**
 * Pairs for McNemar from the discordant shares: the exact test's smallest n (docs/plan.md#exact)
 * or Connor's; both are given, with the exact power at each.
 */
export function pairedSizing(
  p10: number,
  p01: number,
  test: Test,
  which: PairedTest,
): { n: number | undefined; details: PlanDetails; method: string } {
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

/**
 * Pairs (or one arm's items) to clusters with a pilot's design effect (docs/plan.md#pilot): the
 * paired difference's for pairs, one model's accuracy's for an arm; unchanged without a pilot.
 */
export function clustered(
  n: number | undefined,
  c: PlanInput['pilotClustering'],
  of: 'pairs' | 'arm' = 'pairs',
): PlanDetails {
  if (n === undefined || !c) return {};
  const deff = of === 'pairs' ? c.designEffect : c.armDesignEffect;
  const cells = Math.ceil(n * deff - 1e-9);
  const what = of === 'pairs' ? 'pairs' : 'cells';
  return {
    [of === 'pairs' ? 'designEffect' : 'armDesignEffect']: deff,
    [of === 'pairs' ? 'clusteredPairs' : 'clusteredCellsPerArm']: cells,
    clusters: Math.ceil(cells / c.pairsPerCluster - 1e-9),
    clusterUnit: `${c.cluster}s of ${Number(c.pairsPerCluster.toFixed(2))} ${what} on average (the pilot's)`,
  };
}

/**
 * The `waver check --compare` a design sizes, with the pilot's models when it had them; a name
 * that is not a plain word is quoted for a POSIX shell.
 */
export function compareCheck(input: PlanInput, ...flags: string[]): string {
  const list = (input.models ?? ['BASE', 'NEW']).join(',');
  const arg = /^[\w:./@=+,-]+$/.test(list) ? list : `'${list.replace(/'/g, `'\\''`)}'`;
  // check's own alpha is 0.05: another level sized for is named.
  const alpha = input.alpha === 0.05 ? [] : ['--alpha', String(input.alpha)];
  return ['waver check --compare', arg, ...flags, ...alpha].join(' ');
}
