/**
 * The rules fill table: for each family x requested level, the share of seeds
 * that got, within 2 attempts, a gated candidate measured at that level. Goal: >= 80% per cell.
 *
 * Semantic Variation falls short at L3-L5 (and L2 on the built-in set) and is held to floors a
 * little under what it measures today: it now uses no raw WordNet synonym, never asks
 * the question first and moves no sentence ahead of what it points back to, and a score below its
 * L1 band is rejected rather than binned L1 by the generic scale; the reason for L3-L5 is in
 * docs/ladder-families.md#sv-fill: docs/method.md's SV bands ask for magnitudes (>= .35, .60, .85)
 * that difflib only gives a short problem (under 200 characters, no autojunk) when most of its
 * characters change, which meaning-preserving rewording within 1.3x the words cannot do; even a
 * human rewrite of the shortest problems measures about .65. Input Quality falls short at L2-L5 for
 * the same measure (realistic noise on a short problem stays in the L1 band), and Knowledge
 * Boundary at L4 where a fabricated entity reads as English nowhere in the problem; KNOWN_SHORT
 * says each.
 */
import { describe, expect, it } from 'vitest';
import { loadLadderSeedsCsv } from '../../data/number/seeds-csv.js';
import { sharedFile } from '../../test-support/shared.js';
import { GRADE_SCHOOL_SEEDS } from './data/grade-school.js';
import { computeFillTable, type FillCell, formatFillTable } from './fill-table.js';
import type { Family, Level, Seed } from './types.js';

const GOAL = 0.8;

/** Cells below the goal, with the share they are held to (see the header comment). */
const KNOWN_SHORT: Record<'paper' | 'builtin', Partial<Record<`${Family}${Level}`, number>>> = {
  // SV is held to what it measures with the reviewed lexicon (no stilted or meaning-shifting
  // rewrite, nothing inside quotes, no sentence opened with a numeral, and since issue 36 no
  // framing sentence): L1-L5 78, 62, 41, 21, 5 of the paper's 100 and 41, 24, 2, 0, 0 of the 48
  // built-in (docs/ladder-families.md#sv-fill; L3 46 -> 41 and 3 -> 2 since E71: word swaps in
  // place are no L3). Since E77 (review v6) a level needs as many words changed as it says (autojunk
  // off): 78, 48, 18, 12, 3 of 100 and 39, 18, 0, 0, 0 of 48, floors lowered to match. IQ is levelled by its share of altered words
  // (docs/ladder-measure.md#content-levels) and fills every level.
  // KB L2-L4 rewrite an amount in place only where it reads as English, its value stands once in
  // the problem and a rate stays with it (issue 36): L2 67 of 100; L3 only a price still to be set,
  // L5 never a minus sign (E66) nor a coherent shortfall (E75): 5 and 59 of 100, 7 and 26 of 48
  // built-in; L4 only a given a class-matched invented thing's public property can stand for
  // (E75, blind read v6): 7 of 100 (was 62, every one a comparison the read rejected), 10 of 48
  // built-in. CIS names the problem's own
  // quantities only: 97 of 100 (three state theirs in words).
  paper: {
    SV1: 0.76,
    SV2: 0.46,
    SV3: 0.16,
    SV4: 0.1,
    SV5: 0.02,
    KB2: 0.65,
    KB3: 0.04,
    KB4: 0.07,
    KB5: 0.5,
    CIS1: 0.95,
    CIS2: 0.95,
    CIS3: 0.95,
    CIS4: 0.95,
    CIS5: 0.95,
  },
  builtin: { SV2: 0.35, SV3: 0, SV4: 0, SV5: 0, KB3: 0.14, KB4: 0.2, KB5: 0.3 },
};

/** Families the rules write on no seed (docs/decisions.md E62): unavailable, never a 0% cell. */
const NO_RULES = new Set<Family>(['CI', 'CL']);

function check(cells: readonly FillCell[], set: 'paper' | 'builtin'): void {
  for (const c of cells) {
    if (NO_RULES.has(c.family)) {
      expect(c.unavailable, `${c.family} L${c.level}`).toEqual({
        seeds: c.seeds,
        reason: expect.stringMatching(/^needs --generator: /),
      });
      continue;
    }
    const share = c.filled / c.seeds;
    const floor = KNOWN_SHORT[set][`${c.family}${c.level}`] ?? GOAL;
    expect(
      share,
      `${set} ${c.family} L${c.level}: ${c.filled}/${c.seeds} ${JSON.stringify(c.outcomes)}`,
    ).toBeGreaterThanOrEqual(floor);
  }
}

const csv = sharedFile('fixtures/ladder-reference/gsm8k_symbolic100.csv');

describe('rules fill table', () => {
  it.skipIf(!csv)(
    `the paper's 100 seeds${csv ? '' : ' (skipped: ../shared/fixtures/ladder-reference/gsm8k_symbolic100.csv is missing)'}`,
    () => {
      const seeds: Seed[] = loadLadderSeedsCsv(csv as string);
      expect(seeds).toHaveLength(100);
      const cells = computeFillTable(seeds);
      console.log(`rules fill table, the paper's 100 seeds (2 attempts):\n${formatFillTable(cells)}`);
      check(cells, 'paper');
      expect(formatFillTable(cells)).toMatch(/\| CI \| — \(unavailable\) \|/);
    },
    60_000,
  );

  it('the built-in seeds', () => {
    const cells = computeFillTable(GRADE_SCHOOL_SEEDS);
    console.log(
      `rules fill table, ${GRADE_SCHOOL_SEEDS.length} built-in seeds (2 attempts):\n${formatFillTable(cells)}`,
    );
    check(cells, 'builtin');
  }, 60_000);
});
