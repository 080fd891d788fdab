/**
 * Adjusted p-values for a family of tests (docs/check.md#multiplicity), each comparable with the
 * family-wise level alpha directly. Holm (1979): sort ascending p_(1) <= ... <= p_(k);
 * adjusted p_(i) = max_{j <= i} min(1, (k - j + 1) p_(j)). Bonferroni: min(1, k p). `none` leaves
 * them as they are.
 */

export const ADJUSTMENTS = ['holm', 'bonferroni', 'none'] as const;
export type Adjustment = (typeof ADJUSTMENTS)[number];

export function adjustPValues(ps: readonly number[], method: Adjustment): number[] {
  const k = ps.length;
  if (method === 'none') return [...ps];
  if (method === 'bonferroni') return ps.map((p) => Math.min(1, k * p));
  const order = ps.map((p, i) => ({ p, i })).sort((a, b) => a.p - b.p);
  const out = new Array<number>(k);
  let running = 0;
  order.forEach(({ p, i }, rank) => {
    running = Math.max(running, Math.min(1, (k - rank) * p));
    out[i] = running;
  });
  return out;
}

/**
 * The confidence of intervals that go with the adjusted tests: 1 - alpha / k for Holm and
 * Bonferroni (Bonferroni's simultaneous intervals; Holm has no interval of its own, and its first
 * step is Bonferroni's), 1 - alpha with none.
 */
export function familyConfidence(alpha: number, k: number, method: Adjustment): number {
  return method === 'none' ? 1 - alpha : 1 - alpha / Math.max(1, k);
}
