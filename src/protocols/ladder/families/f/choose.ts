import type { PyRandom } from '../../../../util/random.js';
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
