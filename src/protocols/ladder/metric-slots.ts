import { InputError } from '../../errors.js';
import { familyCodes, keepsNoAnswer } from './families/roster.js';
import { type Family, KB_LEVEL, KB_TYPES, LEVELS, type Level } from './types.js';

/**
 * Where each set of responses sits in the metrics' sum vectors (metrics.ts), laid out for the
 * families known when the metrics are computed: the roster's, in its order, so a registered family
 * has its slots like the seven (docs/decisions.md E46). Base slots come first: a response lands in
 * exactly one (the baseline, its family x measured level, or its family's unbinned slot). The pooled
 * slots after them (family overall, level over all families, boundary type) are sums of base slots,
 * so a resample adds up base slots only.
 */
export interface SlotLayout {
  /** The families, a family's index its place here. */
  families: readonly Family[];
  baseSlots: number;
  slots: number;
  familyLevel(f: number, k: Level): number;
  unbinned(f: number): number;
  family(f: number): number;
  level(k: Level): number;
  /** By boundary type (KB_TYPES' order): the type is the level of a family that keeps no answer (docs/method.md). */
  boundaryType(t: number): number;
  /** The families that keep no answer (Knowledge Boundary), pooled by boundary type. */
  boundaryFamilies: readonly number[];
  /** A family's index; a code no family has is bad input. */
  indexOf(family: Family): number;
}

export const SLOT_BASELINE = 0;

export function slotLayout(families: readonly Family[] = familyCodes()): SlotLayout {
  const F = families.length;
  const baseSlots = 1 + F * 6;
  const index = new Map(families.map((f, i) => [f, i]));
  return {
    families,
    baseSlots,
    slots: baseSlots + F + 5 + KB_TYPES.length,
    familyLevel: (f, k) => 1 + f * 5 + (k - 1),
    unbinned: (f) => 1 + F * 5 + f,
    family: (f) => baseSlots + f,
    level: (k) => baseSlots + F + (k - 1),
    boundaryType: (t) => baseSlots + F + 5 + t,
    boundaryFamilies: families.flatMap((f, i) => (keepsNoAnswer(f) ? [i] : [])),
    indexOf: (family) => {
      const f = index.get(family);
      if (f === undefined) throw new InputError(`unknown family '${family}' in the responses scored`);
      return f;
    },
  };
}

/**
 * Fills the pooled slots of a vector (width numbers per slot) from its base slots: each family over
 * its levels and unbinned, each level over the families, each boundary type from its level of the
 * families that keep no answer. Runs once per bootstrap resample, so the (pooled, base) pairs are
 * listed once per layout.
 */
export function derive(L: SlotLayout, v: Float64Array, width: number): void {
  v.fill(0, L.baseSlots * width);
  const pairs = poolingOf(L);
  for (let p = 0; p < pairs.length; p += 2) {
    const to = (pairs[p] as number) * width;
    const from = (pairs[p + 1] as number) * width;
    for (let i = 0; i < width; i++) v[to + i] = (v[to + i] as number) + (v[from + i] as number);
  }
}

const pooling = new WeakMap<SlotLayout, Uint32Array>();

function poolingOf(L: SlotLayout): Uint32Array {
  const known = pooling.get(L);
  if (known) return known;
  const pairs: number[] = [];
  for (let f = 0; f < L.families.length; f++) {
    for (const k of LEVELS) pairs.push(L.family(f), L.familyLevel(f, k), L.level(k), L.familyLevel(f, k));
    pairs.push(L.family(f), L.unbinned(f));
  }
  for (const b of L.boundaryFamilies)
    KB_TYPES.forEach((t, i) => {
      pairs.push(L.boundaryType(i), L.familyLevel(b, KB_LEVEL[t]));
    });
  const made = Uint32Array.from(pairs);
  pooling.set(L, made);
  return made;
}
