/**
 * The band tables a ladder suite bins by (docs/method.md#level-bands): the built-in families' own
 * (families/<code>/bands.ts) and the generic scale, as waver.yaml's `ladder.bands` may override
 * them. Light: the config schema is made from BandTablesSchema. How a candidate is measured is
 * severity/measure.ts and each family's `severity`.
 */
import { z } from 'zod';
import { InputError } from '../../../errors.js';
import { builtInFamilyCodes, familyCard } from '../families/roster.js';
import type { BandTables, BandTablesInput } from './band-tables.js';
import { type BandTable, GENERIC_BANDS } from './bands.js';

/**
 * docs/method.md's tables: the built-in families' (each card's `bands`, from its folder's bands.ts)
 * and the generic scale.
 */
export const DEFAULT_BANDS: BandTables = {
  ...Object.assign({}, ...builtInFamilyCodes().map((code) => familyCard(code).bands ?? {})),
  generic: GENERIC_BANDS,
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
 * lo < hi, and lo strictly increasing from L1 to L5; a table whose default is none (`CL`) may be
 * null. Tables left out keep docs/method.md's defaults (`resolveBandTables` fills them in). Its keys
 * are the built-in families' tables: a registered family's bands are its own (docs/decisions.md E46).
 */
export const BandTablesSchema: z.ZodType<BandTablesInput> = z
  .object(
    Object.fromEntries(
      Object.entries(DEFAULT_BANDS).map(([key, table]) => [
        key,
        (table === null ? BandTableSchema.nullable() : BandTableSchema).optional(),
      ]),
    ),
  )
  .strict() as unknown as z.ZodType<BandTablesInput>;

// Validated once per tables object: measureSeverity runs thousands of times with the same one.
const resolved = new WeakMap<object, BandTables>();

/**
 * Full tables from a partial set (defaults for the rest), validated: a malformed table is an
 * InputError whose field names the key, e.g. `bands.IQ.2` (`where.field` replaces the `bands`
 * prefix, e.g. `ladder.bands` for a config section).
 */
export function resolveBandTables(
  input?: BandTablesInput,
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
  const tables: Record<string, BandTable | null> = { ...DEFAULT_BANDS };
  for (const [key, table] of Object.entries(parsed.data)) if (table !== undefined) tables[key] = table;
  resolved.set(input, tables as BandTables);
  return tables as BandTables;
}
