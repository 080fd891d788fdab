/**
 * Measured severity of a ladder candidate (docs/method.md#level-bands): the level is read off what
 * the candidate IS, not what was asked of the generator. See docs/ladder-measure.md#levels.
 */
import { z } from 'zod';
import { InputError } from '../../../errors.js';
import { pyRound, pySplit } from '../../../text-measures/python.js';
import { FAMILIES, type Family, KB_LEVEL, type KbType, type Level, type Severity } from '../types.js';
import { conflictExplicitness } from './ces.js';
import { magnitudeOf, sim } from './similarity.js';

/** `[lo, hi)`; `hi` null means no upper bound (the generic scale's L5 is `>= .75`). */
export type Band = readonly [lo: number, hi: number | null];
/** Bands for L1..L5, in that order. */
export type BandTable = readonly [Band, Band, Band, Band, Band];

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

/** docs/method.md's tables. IQ, F and CI overlap on purpose; the first band (lowest level) wins. */
export const DEFAULT_BANDS: BandTables = {
  SV: [
    [0.05, 0.15],
    [0.15, 0.35],
    [0.35, 0.6],
    [0.6, 0.85],
    [0.85, 0.95],
  ],
  IQ: [
    [0, 0.05],
    [0.03, 0.1],
    [0.08, 0.18],
    [0.15, 0.3],
    [0.25, 0.5],
  ],
  F: [
    [0.01, 0.06],
    [0.04, 0.1],
    [0.08, 0.15],
    [0.12, 0.22],
    [0.18, 0.35],
  ],
  CI: [
    [0.05, 0.15],
    [0.12, 0.25],
    [0.2, 0.38],
    [0.28, 0.48],
    [0.38, 0.65],
  ],
  CL: null,
  generic: [
    [0, 0.1],
    [0.1, 0.25],
    [0.25, 0.5],
    [0.5, 0.75],
    [0.75, null],
  ],
  clExpansion: [
    [1.1, 1.2],
    [1.2, 1.3],
    [1.3, 1.4],
    [1.4, 1.5],
    [1.5, 1.6],
  ],
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

/** The first band, in L1..L5 order, with lo <= score < hi; undefined when none holds it. */
export function levelFromBands(table: BandTable, score: number): Level | undefined {
  for (let i = 0; i < table.length; i++) {
    const [lo, hi] = table[i] as Band;
    if (lo <= score && (hi === null || score < hi)) return (i + 1) as Level;
  }
  return undefined;
}

/** The characters whose arrival makes a Format L1 candidate an L2 (markdown structure). */
export const FORMAT_MARKUP_CHARS = ['#', '-', '>', '*', '|', '`'] as const;

/** Markup characters the candidate has and the original lacks (presence, as the reference checks). */
export function addedMarkup(original: string, candidate: string): string[] {
  return FORMAT_MARKUP_CHARS.filter((c) => candidate.includes(c) && !original.includes(c));
}

/** Context Load expansion: words(G) / words(O) by Python's `split()`, 4 decimals (1 for an empty original). */
export function expansionRatio(original: string, candidate: string): number {
  const base = pySplit(original).length;
  if (base === 0) return 1;
  return pyRound(pySplit(candidate).length / base, 4);
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

/** How severe `candidate` is as a `family` perturbation of `original`. */
export function measureSeverity(
  family: Family,
  original: string,
  candidate: string,
  opts: MeasureOptions = {},
): Severity {
  if (!(FAMILIES as readonly string[]).includes(family)) {
    throw new InputError(`unknown family "${family}" (one of ${FAMILIES.join(', ')})`, { field: 'family' });
  }
  const bands = resolveBandTables(opts.bands);
  const similarity = sim(original, candidate);
  const magnitude = magnitudeOf(similarity);
  const base = { sim: similarity, magnitude };

  if (family === 'KB') {
    if (opts.kbType === undefined || !(opts.kbType in KB_LEVEL)) {
      throw new InputError(`Knowledge Boundary severity needs a boundary type, got ${String(opts.kbType)}`, {
        field: 'kbType',
      });
    }
    return { ...base, score: magnitude, level: KB_LEVEL[opts.kbType], via: 'kb-type' };
  }

  if (family === 'CIS') {
    const { ces, cesNorm } = conflictExplicitness(original, candidate);
    // docs/method.md: Level = CES, and a candidate with no conflict phrase (CES 0) counts as L1.
    return { ...base, score: ces, level: Math.max(1, ces) as Level, via: 'ces', ces, cesNorm };
  }

  if (family === 'CL') {
    const ratio = expansionRatio(original, candidate);
    if (opts.strictLoadBands ?? true) {
      // Outside the admission bands the candidate has no level; the suite builder rejects it.
      return {
        ...base,
        score: ratio,
        level: levelFromBands(bands.clExpansion, ratio),
        via: 'band',
        expansionRatio: ratio,
      };
    }
    return { ...byMagnitude(bands.CL, bands.generic, magnitude, base), expansionRatio: ratio };
  }

  const severity = byMagnitude(bands[family], opts.genericFallback ? bands.generic : null, magnitude, base);
  // An L1 candidate is one binned L1 or one below F's L1 band (which the generic scale would call L1).
  const l1Candidate = severity.level === 1 || (severity.level === undefined && magnitude < bands.F[0][0]);
  if (family === 'F' && l1Candidate && addedMarkup(original, candidate).length > 0) {
    return { ...severity, level: 2, via: 'format-l1-rule' };
  }
  return severity;
}

/** The family's band, else (when `generic` is given) the generic scale, else no level. */
function byMagnitude(
  table: BandTable | null,
  generic: BandTable | null,
  magnitude: number,
  base: { sim: number; magnitude: number },
): Severity {
  const banded = table ? levelFromBands(table, magnitude) : undefined;
  if (banded !== undefined || generic === null)
    return { ...base, score: magnitude, level: banded, via: 'band' };
  return { ...base, score: magnitude, level: levelFromBands(generic, magnitude), via: 'generic' };
}
