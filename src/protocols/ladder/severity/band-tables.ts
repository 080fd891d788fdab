import type { KbType } from '../types.js';
import type { BandTable } from './bands.js';

/**
 * The band tables a suite bins by, each by its key in waver.yaml's `ladder.bands`: the families'
 * own, as their cards declare them (`SV`; Context Load's `CL`, null for none, and `clExpansion`),
 * and the generic scale (docs/method.md#level-bands). Resolved (levels.ts), every family's is there.
 */
export type BandTables = { readonly generic: BandTable } & { readonly [key: string]: BandTable | null };

/** Tables as given: any of them, the rest docs/method.md's. */
export type BandTablesInput = { readonly [key: string]: BandTable | null | undefined };

export interface MeasureOptions {
  /** Band tables (partial: the rest are docs/method.md's). */
  bands?: BandTablesInput;
  /**
   * Context Load: bin by the paper's expansion-ratio bands (default true); false bins it by the
   * magnitude on the generic scale, as the reference code does (docs/ladder-measure.md#levels).
   */
  strictLoadBands?: boolean;
  /**
   * A score outside every band of its family: false (default) leaves it without a level, so the
   * suite rejects it at gate `level`; true bins it on the generic scale, as the reference code does.
   */
  genericFallback?: boolean;
  /**
   * `content` (default): a family that reads its level off its content (IQ by the share of words
   * altered, F by its kind of layout) is levelled so; `measure`: by its magnitude bands, as the
   * reference code (docs/ladder-measure.md#content-levels, docs/fidelity.md L58).
   */
  levelBy?: 'content' | 'measure';
  /** Knowledge Boundary: the boundary type, which is the level. */
  kbType?: KbType;
}

/** A table resolved tables always hold (a built-in family's own, `clExpansion`): it is a bug when absent. */
export function tableIn(tables: BandTables, key: string): BandTable {
  const table = tables[key];
  if (!table) throw new Error(`no band table '${key}' among ${Object.keys(tables).join(', ')}`);
  return table;
}
