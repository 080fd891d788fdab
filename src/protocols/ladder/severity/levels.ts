/**
 * The band tables a ladder suite bins by (docs/method.md#level-bands): the built-in families' own
 * (families/<code>/bands.ts) and the generic scale, as waver.yaml's `ladder.bands` may override
 * them. Light: the config schema is made from BandTablesSchema. How a candidate is measured is
 * severity/measure.ts and each family's `severity`.
 */
import { z } from 'zod';
import { InputError } from '../../../errors.js';
import { CI_BANDS } from '../families/ci/bands.js';
import { CL_BANDS, CL_EXPANSION_BANDS } from '../families/cl/bands.js';
import { F_BANDS } from '../families/f/bands.js';
import { IQ_BANDS } from '../families/iq/bands.js';
import { SV_BANDS } from '../families/sv/bands.js';
import type { KbType } from '../types.js';
import { type BandTable, GENERIC_BANDS } from './bands.js';

export interface BandTables {
  SV: BandTable;
  IQ: BandTable;
  F: BandTable;
  CI: BandTable;
  /** null: Context Load has no family bands and uses the generic scale (the reference code has none). */
  CL: BandTable | null;
  /** For a score outside every band of its family, or a family without bands. */
  generic: BandTable;
  /** Context Load expansion ratio words(G)/words(O), applied only with `strictLoadBands`. */
  clExpansion: BandTable;
}

/** docs/method.md's tables, each from its family's folder. */
export const DEFAULT_BANDS: BandTables = {
  SV: SV_BANDS,
  IQ: IQ_BANDS,
  F: F_BANDS,
  CI: CI_BANDS,
  CL: CL_BANDS,
  generic: GENERIC_BANDS,
  clExpansion: CL_EXPANSION_BANDS,
};

const BandSchema = z.tuple([z.number(), z.number().nullable()]);
const BandTableSchema = z
  .tuple([BandSchema, BandSchema, BandSchema, BandSchema, BandSchema])
  .superRefine((table, ctx) => {
    table.forEach(([lo, hi], i) => {
      if (hi !== null && !(lo < hi)) {
        ctx.addIssue({
          code: 'custom',
          path: [i],
          message: `L${i + 1} band [${lo}, ${hi}) is empty: lo must be < hi`,
        });
      }
      const before = table[i - 1];
      if (before && !(lo > before[0])) {
        ctx.addIssue({
          code: 'custom',
          path: [i],
          message: `band table is not increasing: L${i + 1} starts at ${lo}, not above L${i}'s ${before[0]}`,
        });
      }
    });
  });

/**
 * The `bands` config: any of the tables, each five `[lo, hi]` pairs for L1..L5 (`hi` null = open),
 * lo < hi, and lo strictly increasing from L1 to L5. Tables left out keep docs/method.md's defaults
 * (`resolveBandTables` fills them in).
 */
export const BandTablesSchema = z
  .object({
    SV: BandTableSchema.optional(),
    IQ: BandTableSchema.optional(),
    F: BandTableSchema.optional(),
    CI: BandTableSchema.optional(),
    CL: BandTableSchema.nullable().optional(),
    generic: BandTableSchema.optional(),
    clExpansion: BandTableSchema.optional(),
  })
  .strict();
export type BandTablesInput = z.input<typeof BandTablesSchema>;

// Validated once per tables object: measureSeverity runs thousands of times with the same one.
const resolved = new WeakMap<object, BandTables>();

/**
 * Full tables from a partial set (defaults for the rest), validated: a malformed table is an
 * InputError whose field names the key, e.g. `bands.IQ.2` (`where.field` replaces the `bands`
 * prefix, e.g. `ladder.bands` for a config section).
 */
export function resolveBandTables(
  input?: BandTablesInput | Partial<BandTables>,
  where: { file?: string; line?: number; field?: string } = {},
): BandTables {
  if (input === undefined) return DEFAULT_BANDS;
  const cached = resolved.get(input);
  if (cached) return cached;
  const parsed = BandTablesSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue?.path ?? [];
    const field = [where.field ?? 'bands', ...path.map(String)].join('.');
    throw new InputError(issue?.message ?? 'invalid band table', {
      file: where.file,
      line: where.line,
      field,
    });
  }
  const tables: BandTables = { ...DEFAULT_BANDS };
  for (const [key, table] of Object.entries(parsed.data)) {
    if (table !== undefined) (tables as unknown as Record<string, BandTable | null>)[key] = table;
  }
  resolved.set(input, tables);
  return tables;
}

export interface MeasureOptions {
  /** Band tables (partial: the rest are docs/method.md's). */
  bands?: BandTablesInput | Partial<BandTables>;
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
  /** Knowledge Boundary: the boundary type, which is the level. */
  kbType?: KbType;
}
