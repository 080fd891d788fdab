import { describe, expect, it } from 'vitest';
import { sharedDataEnv, sharedFile } from '../../../test-support/shared.js';
import { resolveLadderSeeds } from '../data/datasets.js';
import { computeFillTable, formatFillTable } from '../fill-table.js';
import type { Family } from '../types.js';

/**
 * The rules' fill on choice and text seeds (docs/ladder-families.md#answer-types): the share of
 * the first 20 seeds of each dataset whose candidate passes the structural, answer and family gates
 * at the requested level, printed, and held to floors a little under what was measured. SV, CI, CL
 * and KB make no rule test there: they are unavailable, with the reason (issue 36). IQ is levelled
 * by the share of words altered, which a one-sentence question reaches only from L3 or L4.
 */

const env = sharedDataEnv;
const SEEDS = 20;

/** Families the rules do not write on choice and text seeds (docs/ladder-families.md#unavailable). */
const UNAVAILABLE: readonly Family[] = ['SV', 'CI', 'CL', 'KB'];

/** Floors (of 20) per family, L1-L5; measured on the first 20 seeds, suite seed 0, 2 attempts. */
const FLOORS: Record<string, Readonly<Partial<Record<Family, readonly number[]>>>> = {
  // Measured: IQ 20 17 18 19 19, F 20 at L1-L4, CIS 19-20 (a directive pointing at the key is
  // dropped). F L5 0: a choice item's fence wraps at one width no narrower than its longest option,
  // and on these items that is no heavier than the quoted outline of L4 (E77).
  'arc-challenge': { IQ: [19, 15, 16, 17, 17], F: [19, 19, 19, 19, 0], CIS: [18, 18, 18, 18, 18] },
  // Measured: IQ 20 1 5 11 17, F 20 at L1-L4 and 0 at L5 (as ARC), CIS 17-20 (one-sentence stems, five options).
  commonsenseqa: { IQ: [19, 0, 4, 9, 15], F: [19, 19, 19, 19, 0], CIS: [16, 16, 16, 16, 16] },
  // Measured: IQ 20 0 4 13 19, F 0 20 0 0 20: F's L1 (a break between sentences), L3 (a nested
  // list) and L4 (a quote holding a list) need two whole sentences or clauses, which none of these
  // one-clause questions has; the rules no longer cut them mid-phrase, and the runner strips an
  // indent (docs/ladder-families.md#f-units, issue 36). F L5 20 -> 6: a fence of prose wraps at
  // least twice, above every lower level of the seed (review v8, E81).
  triviaqa: { IQ: [19, 0, 3, 11, 17], F: [0, 19, 0, 0, 5], CIS: [20, 20, 20, 20, 20] },
};
const FILES: Record<string, string> = {
  'arc-challenge': 'arc-challenge/arc_challenge.jsonl',
  commonsenseqa: 'commonsenseqa/dev_rand_split.jsonl',
  triviaqa: 'triviaqa/triviaqa_sm_sub.jsonl',
};

describe('rules fill on choice and text seeds', () => {
  for (const [name, floors] of Object.entries(FLOORS)) {
    const file = FILES[name] as string;
    const gone = sharedFile(`data/${file}`) ? '' : ` (skipped: ../shared/data/${file} not there)`;
    it.skipIf(gone !== '')(
      `${name}: every family's fill, the floors held${gone}`,
      async () => {
        const seeds = await resolveLadderSeeds(name, { env, limit: SEEDS });
        const cells = computeFillTable(seeds);
        console.log(`${name}, ${SEEDS} seeds:\n${formatFillTable(cells)}`);
        for (const [family, floor] of Object.entries(floors) as [string, readonly number[]][])
          floor.forEach((min, i) => {
            const cell = cells.find((c) => c.family === family && c.level === i + 1);
            expect(
              cell?.filled,
              `${name} ${family} L${i + 1}: ${JSON.stringify(cell?.outcomes)}`,
            ).toBeGreaterThanOrEqual(min);
          });
        for (const family of UNAVAILABLE)
          for (const c of cells.filter((x) => x.family === family)) {
            expect(c.unavailable, `${family} L${c.level}`).toEqual({
              seeds: SEEDS,
              reason: expect.stringMatching(/^needs --generator: /),
            });
            expect(c.filled).toBe(0);
          }
        expect(formatFillTable(cells)).toMatch(/\| SV \| — \(unavailable\) \|/);
        // No candidate of a choice or text seed reaches the family gate with its answer broken.
        for (const c of cells) expect(c.outcomes['gate:answer'] ?? 0, `${c.family} L${c.level}`).toBe(0);
      },
      120_000,
    );
  }
});
