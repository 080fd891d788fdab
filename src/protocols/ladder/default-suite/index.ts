import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { InputError } from '../../../errors.js';
import { packageFile } from '../../../util/package-file.js';
import type { AdmissionContext } from '../admission-table.js';
import { GRADE_SCHOOL_SEEDS } from '../data/grade-school.js';
import { ladderFamilies, ladderFamily } from '../families/registry.js';
import { baselineTest } from '../suite.js';
import { ladderTestId } from '../suite-file.js';
import { GateSchema, SeveritySchema } from '../test-meta.js';
import {
  type AdmissionRow,
  type Family,
  type GateVerdict,
  type LadderTest,
  LEVELS,
  type Level,
  type NumberSeed,
  testAnswerOf,
} from '../types.js';
import { type Measured, measureLine } from './measure.js';

/**
 * The default ladder suite: a reviewed dataset of the built-in seeds (docs/ladder-suite.md#default-suite,
 * decision E51). One JSONL file per family in this folder, one line per seed x level:
 * a test accepted against the written criteria, with its review record and its measure, or the cell
 * left out with its reason. A plain `waver ladder` and `waver suite build` run it as it is: nothing
 * is generated, so its tests and its content hash are the same on every machine.
 */

export const DEFAULT_SUITE = {
  name: 'ladder-default',
  version: 2,
  criteria: 'ladder-default-review/2',
} as const;

/** The families' files, in the paper's order. */
export const DEFAULT_SUITE_FILES: Record<Family, string> = {
  SV: 'sv.jsonl',
  IQ: 'iq.jsonl',
  F: 'f.jsonl',
  CI: 'ci.jsonl',
  CL: 'cl.jsonl',
  CIS: 'cis.jsonl',
  KB: 'kb.jsonl',
};

const LevelSchema = z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal(5)]);

const ReviewSchema = z
  .object({
    verdict: z.literal('accepted'),
    by: z.string().min(1),
    criteria: z.string().min(1),
    note: z.string().min(1),
  })
  .strict();

const MeasuredSchema = z
  .object({
    level: LevelSchema.optional(),
    by: z.string().min(1),
    severity: SeveritySchema,
    gates: z.array(GateSchema),
  })
  .strict();

const CellBase = { seed: z.string().min(1), family: z.string().min(1), level: LevelSchema };

const LineSchema = z.union([
  z
    .object({
      ...CellBase,
      text: z.string().min(1),
      review: ReviewSchema,
      measured: MeasuredSchema.optional(),
    })
    .strict(),
  z.object({ ...CellBase, omitted: z.string().min(1) }).strict(),
]);

/** A cell of the dataset: an accepted test, or a cell left out with its reason. */
interface CellAt {
  seed: string;
  family: Family;
  level: Level;
  file: string;
  line: number;
}
export interface AcceptedCell extends CellAt {
  text: string;
  review: z.infer<typeof ReviewSchema>;
  measured?: Measured;
}
export interface OmittedCell extends CellAt {
  omitted: string;
}
export type DefaultSuiteCell = AcceptedCell | OmittedCell;

/** The folder of the files, from the package root: the same from the sources, dist/ and the CLI's bundle. */
export function defaultSuiteDir(): string {
  return fileURLToPath(packageFile('src/protocols/ladder/default-suite/'));
}

const SEED_ORDER = new Map(GRADE_SCHOOL_SEEDS.map((s, i) => [s.id, i]));

function parseLine(raw: string, where: { file: string; line: number }): z.infer<typeof LineSchema> {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (e) {
    throw new InputError(`not valid JSON (${(e as Error).message})`, where);
  }
  const parsed = LineSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  // A union's issues say little; the branch the line means (text or omitted) says what is wrong.
  const branch = (value as { omitted?: unknown } | null)?.omitted !== undefined ? 1 : 0;
  const shape = LineSchema.options[branch] as z.ZodType;
  const issue = shape.safeParse(value).error?.issues[0] ?? parsed.error.issues[0];
  let field = (issue?.path ?? []).map(String).join('.') || undefined;
  let message = issue?.message ?? 'invalid line';
  if (issue?.code === 'unrecognized_keys') {
    field = [...issue.path.map(String), issue.keys[0] ?? ''].join('.');
    message = 'unknown field';
  }
  throw new InputError(message, { ...where, ...(field && { field }) });
}

/** Reads one family's file; every problem is an InputError naming the file, the line and the field. */
export function readDefaultSuiteFile(file: string, family: Family): DefaultSuiteCell[] {
  const cells: DefaultSuiteCell[] = [];
  const seen = new Map<string, number>();
  const lines = readFileSync(file, 'utf8').split('\n');
  let last = -1;
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i] as string;
    if (raw.trim() === '') continue;
    const where = { file, line: i + 1 };
    const cell = parseLine(raw, where);
    const at = (field: string) => ({ ...where, field });
    if (cell.family !== family)
      throw new InputError(`family '${cell.family}' in the ${family} file`, at('family'));
    const order = SEED_ORDER.get(cell.seed);
    if (order === undefined) throw new InputError(`unknown built-in seed '${cell.seed}'`, at('seed'));
    const key = `${cell.seed}/${cell.level}`;
    const earlier = seen.get(key);
    if (earlier !== undefined)
      throw new InputError(`cell given twice (first on line ${earlier})`, at('level'));
    seen.set(key, where.line);
    const rank = order * 10 + cell.level;
    if (rank < last) throw new InputError('lines not in seed order, then level', at('seed'));
    last = rank;
    cells.push({ ...cell, family, ...where } as DefaultSuiteCell);
  }
  return cells;
}

/**
 * Every family's cells. A family whose file this copy does not hold is left out as a whole
 * (reported by the fill table), so a build without it still runs the others.
 */
export function readDefaultSuite(dir: string = defaultSuiteDir()): DefaultSuiteCell[] {
  const cells: DefaultSuiteCell[] = [];
  for (const family of ladderFamilies().map((f) => f.code)) {
    const name = DEFAULT_SUITE_FILES[family];
    if (name === undefined || !existsSync(join(dir, name))) continue;
    cells.push(...readDefaultSuiteFile(join(dir, name), family));
  }
  return cells;
}

/** What the suite's admission table says of where its tests came from. */
export function defaultSuiteSource(): string {
  return `reviewed dataset ${DEFAULT_SUITE.name} v${DEFAULT_SUITE.version} (criteria ${DEFAULT_SUITE.criteria})`;
}

/** A line without `measured` (written, not yet measured by the bench tool) is measured as it is read. */
function testOf(seed: NumberSeed, cell: AcceptedCell): LadderTest {
  const base = { seedId: seed.id, family: cell.family, requestedLevel: cell.level, text: cell.text } as const;
  const review: GateVerdict = {
    gate: 'review',
    verdict: 'pass',
    reason: `${cell.review.verdict} by ${cell.review.by} against ${cell.review.criteria}: ${cell.review.note}`,
  };
  const subtype = ladderFamily(cell.family).boundaryType?.(cell.level);
  const measured = cell.measured ?? measureLine(seed, cell.family, cell.level, cell.text);
  return {
    id: ladderTestId(base),
    ...base,
    ...(subtype !== undefined && { subtype }),
    measuredLevel: measured.level,
    severity: measured.severity,
    original: seed.question,
    ...testAnswerOf(seed, cell.family === 'KB'),
    gates: [...measured.gates, review],
    generator: {
      kind: 'reviewed',
      dataset: DEFAULT_SUITE.name,
      version: DEFAULT_SUITE.version,
      criteria: cell.review.criteria,
      by: cell.review.by,
    },
  };
}

export interface DefaultSuiteOptions {
  /** The first N built-in seeds (`ladder.seeds`). */
  seeds?: number;
  families?: readonly Family[];
  levels?: readonly Level[];
}

export interface DefaultSuite {
  tests: LadderTest[];
  admission: { rows: AdmissionRow[]; context: AdmissionContext };
}

/**
 * The default suite as `waver ladder` runs it: per seed its baseline, then its accepted tests in
 * the paper's family order and level order, each carrying its review record (its `generator` and
 * `review` gate) and its measured level. The admission table counts a cell left out as rejected at
 * gate `omitted`.
 */
export function defaultLadderSuite(opts: DefaultSuiteOptions = {}, dir?: string): DefaultSuite {
  const seeds = GRADE_SCHOOL_SEEDS.slice(0, opts.seeds ?? GRADE_SCHOOL_SEEDS.length);
  const families = ladderFamilies()
    .map((f) => f.code)
    .filter((f) => opts.families === undefined || opts.families.includes(f));
  const levels = LEVELS.filter((l) => opts.levels === undefined || opts.levels.includes(l));
  const wanted = (c: DefaultSuiteCell) =>
    families.includes(c.family) && levels.includes(c.level) && seeds.some((s) => s.id === c.seed);
  const cells = readDefaultSuite(dir).filter(wanted);
  const tests: LadderTest[] = [];
  for (const seed of seeds) {
    tests.push(baselineTest(seed));
    for (const family of families)
      for (const cell of cells)
        if (cell.seed === seed.id && cell.family === family && 'text' in cell) tests.push(testOf(seed, cell));
  }
  return {
    tests,
    admission: {
      rows: admissionRows(cells, families),
      context: { seeds: seeds.length, generator: defaultSuiteSource() },
    },
  };
}

function admissionRows(cells: readonly DefaultSuiteCell[], families: readonly Family[]): AdmissionRow[] {
  return families.map((family) => {
    const own = cells.filter((c) => c.family === family);
    const row: AdmissionRow = {
      family,
      candidates: own.length,
      admitted: 0,
      rejectedByGate: {},
      admittedByLevel: { '1': 0, '2': 0, '3': 0, '4': 0, '5': 0 },
      offLevel: 0,
      superseded: 0,
    };
    for (const c of own) {
      if ('omitted' in c) {
        row.rejectedByGate.omitted = (row.rejectedByGate.omitted ?? 0) + 1;
        continue;
      }
      row.admitted++;
      const level = c.measured?.level ?? c.level;
      if (level !== undefined)
        row.admittedByLevel[String(level)] = (row.admittedByLevel[String(level)] ?? 0) + 1;
      if (level !== c.level) row.offLevel++;
    }
    return row;
  });
}
