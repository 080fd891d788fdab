import type { SagoAxis } from './constants.js';

/**
 * A model's Delta table being filled, for a waver run (results.ts) and an imported one
 * (import/imported-results.ts) alike: per computed axis a prompts x variations array, NaN where no
 * value could be had, and per axis how many values are missing for each reason (the tables print
 * them beside the axis, so a gap is never a silent 0).
 */
export class DeltaTableBuilder {
  readonly deltas: Partial<Record<SagoAxis, Float64Array>> = {};
  readonly missing: Partial<Record<SagoAxis, Record<string, number>>> = {};

  constructor(axes: readonly SagoAxis[], size: number) {
    for (const axis of axes) this.deltas[axis] = new Float64Array(size).fill(Number.NaN);
  }

  /** Whether the axis is computed for this model. */
  has(axis: SagoAxis): boolean {
    return this.deltas[axis] !== undefined;
  }

  miss(axis: SagoAxis, why: string): void {
    const m = this.missing[axis] ?? {};
    m[why] = (m[why] ?? 0) + 1;
    this.missing[axis] = m;
  }

  /** Stores a value as it is. */
  set(axis: SagoAxis, at: number, value: number): void {
    (this.deltas[axis] as Float64Array)[at] = value;
  }

  /** Stores a finite value; an undefined or non-finite one is counted missing for `why`. */
  put(axis: SagoAxis, at: number, value: number | undefined, why: string): void {
    const arr = this.deltas[axis];
    if (!arr) return;
    if (value === undefined || !Number.isFinite(value)) this.miss(axis, why);
    else arr[at] = value;
  }
}
