import { GRADE_SCHOOL_SEEDS } from '../data/grade-school.js';
import { ladderFamilies } from '../families/registry.js';
import { type Family, LEVELS, type Level } from '../types.js';
import { type AcceptedCell, type DefaultSuiteCell, defaultSuiteSource } from './index.js';
import { type Measured, measureLine } from './measure.js';

/**
 * The default suite's fill table (docs/ladder-suite.md#default-suite): per family x level, the
 * tests accepted, the cells left out, and the share of accepted tests whose fresh measure is the
 * level they were written for; and each file line as the bench tool writes it back.
 */

export interface FillCell {
  family: Family;
  level: Level;
  accepted: number;
  omitted: number;
  /** Accepted tests measured at their written level. */
  onLevel: number;
  /** Accepted tests that fail a gate (structural, family, level, gold). */
  failing: number;
  /** Cells of the 48 seeds not in the file at all. */
  missing: number;
}

const SEED = new Map(GRADE_SCHOOL_SEEDS.map((s) => [s.id, s]));

/** A fresh measure of an accepted line. */
export function measureCell(cell: AcceptedCell): Measured {
  const seed = SEED.get(cell.seed);
  if (seed === undefined) throw new Error(`unknown seed ${cell.seed}`);
  return measureLine(seed, cell.family, cell.level, cell.text);
}

export function fillTable(cells: readonly DefaultSuiteCell[]): FillCell[] {
  const out: FillCell[] = [];
  for (const family of ladderFamilies().map((f) => f.code))
    for (const level of LEVELS) {
      const own = cells.filter((c) => c.family === family && c.level === level);
      const accepted = own.filter((c): c is AcceptedCell => 'text' in c).map(measureCell);
      out.push({
        family,
        level,
        accepted: accepted.length,
        omitted: own.length - accepted.length,
        onLevel: accepted.filter((m) => m.level === level).length,
        failing: accepted.filter((m) => m.gates.some((g) => g.verdict === 'fail')).length,
        missing: GRADE_SCHOOL_SEEDS.length - own.length,
      });
    }
  return out;
}

export function formatFillTable(rows: readonly FillCell[]): string {
  const lines = [
    `Default suite fill: ${defaultSuiteSource()}, ${GRADE_SCHOOL_SEEDS.length} seeds`,
    '',
    '| Family | L1 | L2 | L3 | L4 | L5 | omitted | measured at written level | failing a gate | missing |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const family of [...new Set(rows.map((r) => r.family))]) {
    const own = rows.filter((r) => r.family === family);
    const sum = (k: keyof FillCell) => own.reduce((a, r) => a + (r[k] as number), 0);
    const accepted = sum('accepted');
    const share = accepted === 0 ? '— (none accepted)' : `${sum('onLevel')}/${accepted}`;
    lines.push(
      `| ${family} | ${own.map((r) => r.accepted).join(' | ')} | ${sum('omitted')} | ${share} | ${sum('failing')} | ${sum('missing')} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** A line of a family file: its keys in the documented order, `measured` last. */
export function cellLine(cell: DefaultSuiteCell, measured?: Measured): string {
  const head = { seed: cell.seed, family: cell.family, level: cell.level };
  if ('omitted' in cell) return JSON.stringify({ ...head, omitted: cell.omitted });
  return JSON.stringify({ ...head, text: cell.text, review: cell.review, ...(measured && { measured }) });
}
