import type { PyRandom } from '../../../../util/random.js';
import { layoutChange } from '../../severity/content-level.js';
import { magnitude as measured } from '../../severity/similarity.js';
import { assess } from '../aim.js';
import type { AimTarget } from '../contract.js';
import type { Layout } from './layouts.js';

/**
 * One of the layouts that pass the gates and measure at the target's level, drawn by the rng; else
 * (the paper's magnitude binning, where a kind may land elsewhere) the gated one measured nearest,
 * which the suite admits at its measured level; else undefined.
 */
export function chooseLayout(
  layouts: readonly Layout[],
  target: AimTarget,
  rng: PyRandom,
): Layout | undefined {
  const gated = layouts
    .map((layout) => ({ layout, ...assess(target, layout.text) }))
    .filter((x) => x.gatesPass && x.severity.level !== undefined);
  const fits = gated.filter((x) => x.severity.level === target.level);
  if (fits.length > 0) return fits[rng.randrange(fits.length)]?.layout;
  const distance = (x: (typeof gated)[number]) => Math.abs((x.severity.level ?? 0) - target.level);
  return gated.reduce<(typeof gated)[number] | undefined>(
    (best, x) => (!best || distance(x) < distance(best) ? x : best),
    undefined,
  )?.layout;
}

/**
 * The layouts that move the text no more, on the paper's measure, than the lightest of `heavier`
 * (the next level's): an L1 measured above the same seed's L2 reads as no L1 (issue 36: 0.083
 * above its L3's 0.044).
 */
export function noHeavierThan(
  layouts: readonly Layout[],
  heavier: readonly Layout[],
  original: string,
): Layout[] {
  const magnitude = (l: Layout) => measured(original, l.text);
  const ceiling = Math.min(...heavier.map(magnitude));
  return layouts.filter((l) => magnitude(l) <= ceiling);
}

/**
 * How far an L5 must stand above its seed's heaviest L4, as a share of the L4's change on each
 * measure: trivia-28's .066 over .065 (1.5%) read as no step (review v6), the reviewed default
 * suite's L5s stand 8% and more above their L4s (E77).
 */
export const L5_STEP = 1.05;

/** Whether `heavier` moves `original` at least L5_STEP times `lighter`, on the paper's measure and with autojunk off. */
export function clearlyHeavier(original: string, heavier: string, lighter: string): boolean {
  return (
    measured(original, heavier) >= measured(original, lighter) * L5_STEP &&
    layoutChange(original, heavier) >= layoutChange(original, lighter) * L5_STEP
  );
}

/**
 * The layouts clearly heavier than every one of `lighter` (the seed's L4s): a fence that disrupts
 * less than the same seed's quoted outline inverts the ladder (review v6: arc-challenge-11, .021
 * against .058), so that seed gets no L5.
 */
export function heavierThanAll(
  layouts: readonly Layout[],
  lighter: readonly Layout[],
  original: string,
): Layout[] {
  return layouts.filter((l) => lighter.every((x) => clearlyHeavier(original, l.text, x.text)));
}
