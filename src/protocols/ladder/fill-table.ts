/**
 * The `rules` fill table: for each family and requested level, how many seeds got
 * a rules candidate, within the attempts allowed, that passes the structural, answer and family gates and
 * whose measured level is the requested one. Seeds its generators the way the suite builder does,
 * one PyRandom per (suite seed, item, family, level, attempt).
 */

import { deriveSeed, PyRandom } from '../../util/random.js';
import { rulesUnavailable, typedRules } from './answer-types/typed-rules.js';
import type { RulesOptions } from './families/contract.js';
import { ladderFamilies, ladderFamily } from './families/registry.js';
import { answerGate } from './gates/answer-gate.js';
import { structuralGate } from './gates/structural-gate.js';
import { measureSeverity } from './severity/measure.js';
import { type Family, LEVELS, type Level, type Seed } from './types.js';

export interface FillCell {
  family: Family;
  level: Level;
  /** Seeds with an on-level, gated candidate. */
  filled: number;
  seeds: number;
  /** What the first attempt of each seed measured, or why it had none: `L1`..`L5`, `none`, `gate:structural`, `gate:answer`, `gate:family`. */
  outcomes: Record<string, number>;
  /** Seeds whose answer type the family's rules do not write, and why: not counted as unfilled. */
  unavailable?: { seeds: number; reason: string };
}

export interface FillOptions extends Omit<RulesOptions, 'rngSeed'> {
  families?: readonly Family[];
  levels?: readonly Level[];
  attempts?: number;
  /** The suite seed (default 0). */
  seed?: number;
}

export function computeFillTable(seeds: readonly Seed[], opts: FillOptions = {}): FillCell[] {
  const cells: FillCell[] = [];
  const attempts = opts.attempts ?? 2;
  for (const code of opts.families ?? ladderFamilies().map((f) => f.code)) {
    const family = ladderFamily(code);
    for (const level of opts.levels ?? LEVELS) {
      const cell: FillCell = { family: code, level, filled: 0, seeds: seeds.length, outcomes: {} };
      for (const seed of seeds) {
        const reason = rulesUnavailable(family, seed);
        if (reason !== undefined) {
          cell.unavailable = { seeds: (cell.unavailable?.seeds ?? 0) + 1, reason };
          continue;
        }
        for (let attempt = 1; attempt <= attempts; attempt++) {
          const rngSeed = deriveSeed(opts.seed ?? 0, seed.id, code, level, attempt);
          const rulesOpts = {
            bands: opts.bands,
            strictLoadBands: opts.strictLoadBands,
            genericFallback: opts.genericFallback,
            levelBy: opts.levelBy,
            rngSeed,
          };
          // Each family on the seed's answer type, with the answer gate (docs/ladder-families.md#answer-types).
          const typed = typedRules(family, seed, level, attempt, new PyRandom(rngSeed), rulesOpts);
          const candidate = typed?.candidate;
          let outcome: string;
          if (!candidate) outcome = 'none';
          else if (
            family.preserves.numbers &&
            structuralGate(seed.question, candidate.text).verdict !== 'pass'
          ) {
            outcome = 'gate:structural';
          } else if (answerGate(seed, family.preserves, candidate.text)?.verdict === 'fail')
            outcome = 'gate:answer';
          else if (family.familyGate(seed.question, candidate.text, level).verdict !== 'pass')
            outcome = 'gate:family';
          else {
            const measured = measureSeverity(family, seed.question, candidate.text, {
              bands: opts.bands,
              strictLoadBands: opts.strictLoadBands,
              genericFallback: opts.genericFallback,
              levelBy: opts.levelBy,
              kbType: candidate.kbType,
            }).level;
            outcome = measured === undefined ? 'unbinned' : `L${measured}`;
          }
          if (attempt === 1) cell.outcomes[outcome] = (cell.outcomes[outcome] ?? 0) + 1;
          if (outcome === `L${level}`) {
            cell.filled++;
            break;
          }
        }
      }
      cells.push(cell);
    }
  }
  return cells;
}

/** The table as Markdown: one row per family, one column per level, `filled/seeds (percent)`. */
export function formatFillTable(cells: readonly FillCell[]): string {
  const families = [...new Set(cells.map((c) => c.family))];
  const levels = [...new Set(cells.map((c) => c.level))].sort();
  const lines = [
    `| family | ${levels.map((l) => `L${l}`).join(' | ')} |`,
    `|---|${levels.map(() => '---:').join('|')}|`,
  ];
  for (const family of families) {
    const row = levels.map((level) => {
      const c = cells.find((x) => x.family === family && x.level === level);
      if (!c) return '—';
      const over = c.seeds - (c.unavailable?.seeds ?? 0);
      if (over === 0) return '— (unavailable)';
      const note = c.unavailable ? ` (${c.unavailable.seeds} unavailable)` : '';
      return `${c.filled}/${over} (${Math.round((100 * c.filled) / over)}%)${note}`;
    });
    lines.push(`| ${family} | ${row.join(' | ')} |`);
  }
  // Each unavailable family once, with its reason (issue 36: unavailable, never 0).
  const notes = families.flatMap((family) => {
    const c = cells.find((x) => x.family === family && x.unavailable);
    return c?.unavailable
      ? [`${family} unavailable on ${c.unavailable.seeds} of ${c.seeds} seeds: ${c.unavailable.reason}.`]
      : [];
  });
  return [...lines, ...(notes.length > 0 ? ['', ...notes] : [])].join('\n');
}
