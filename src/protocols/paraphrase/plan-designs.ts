import { compareCheck, different, pairedSizing, two } from '../../plan/common.js';
import type { DesignContext, PlanDesign, PlanInput, PlanResult } from '../../plan/types.js';
import { allRightRate } from '../../stats/power.js';

/**
 * Paraphrase's design of `waver plan` (docs/plan.md#saa), handed in by its module (`designs`): the
 * items a difference in Stability-Adjusted Accuracy needs, an item scoring 1 when every phrasing x
 * repeat of it is right.
 */

function saaPlan(input: PlanInput, { head, test, which }: DesignContext): PlanResult {
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
    saaA = allRightRate(p1, cells, icc);
    saaB = allRightRate(p2, cells, icc);
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
    // The test it sizes, which pairs items as the pilot was read (docs/check.md#metric).
    check: compareCheck(input, '--metric', 'saa', '--protocol', 'paraphrase'),
  };
}

export const PARAPHRASE_DESIGNS: readonly PlanDesign[] = [{ name: 'saa', metric: 'saa', plan: saaPlan }];
