import { describe, expect, it } from 'vitest';
import { sharedDataEnv, sharedFile } from '../../../test-support/shared.js';
import { resolveLadderSeeds } from '../data/datasets.js';
import { computeFillTable, formatFillTable } from '../fill-table.js';
import type { Family } from '../types.js';

/**
 * The rules' fill on choice and text seeds (docs/ladder-families.md#answer-types): the share of
 * the first 20 seeds of each dataset whose candidate passes the structural, answer and family gates
 * at the requested level, printed, and held to floors a little under what was measured. SV is not
 * held: the rules give short questions almost nothing to reword; nor IQ above L1, whose word rates
 * (docs/ladder-families.md#iq-noise) keep a short question below L2's band (use the model generator).
 */

const env = sharedDataEnv;
const SEEDS = 20;

/** Floors (of 20) per family, L1-L5; measured on the first 20 seeds, suite seed 0, 2 attempts. */
const FLOORS: Record<string, Readonly<Record<Family, readonly number[]>>> = {
  // Measured: IQ 20 2 5 5 4, F 19 20 13 16 14, CI 11 9 7 4 3, CL, CIS and KB 20 everywhere.
  'arc-challenge': {
    IQ: [19, 1, 3, 3, 2],
    F: [17, 18, 11, 14, 12],
    CI: [9, 7, 5, 2, 1],
    CL: [19, 19, 19, 19, 19],
    CIS: [20, 20, 20, 20, 20],
    KB: [20, 20, 20, 20, 20],
  },
  // Measured: IQ 20 0 0 0 0, F 20 20 20 9 16, CI 20 17 2 3 5 (one-sentence stems, five options).
  commonsenseqa: {
    IQ: [19, 0, 0, 0, 0],
    F: [18, 18, 18, 7, 14],
    CI: [18, 15, 1, 1, 3],
    CL: [19, 19, 19, 19, 19],
    CIS: [20, 20, 20, 20, 20],
    KB: [20, 20, 20, 20, 20],
  },
  // Measured: IQ 20 0 0 0 0, F 20 20 20 16 18, CI 11 10 16 20 20, CL 1 8 15 17 20.
  triviaqa: {
    IQ: [19, 0, 0, 0, 0],
    F: [18, 18, 18, 14, 16],
    CI: [9, 8, 14, 18, 18],
    CL: [0, 6, 13, 15, 18],
    CIS: [20, 20, 20, 20, 20],
    KB: [20, 20, 20, 20, 20],
  },
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
        for (const [family, floor] of Object.entries(floors))
          floor.forEach((min, i) => {
            const cell = cells.find((c) => c.family === family && c.level === i + 1);
            expect(
              cell?.filled,
              `${name} ${family} L${i + 1}: ${JSON.stringify(cell?.outcomes)}`,
            ).toBeGreaterThanOrEqual(min);
          });
        // No candidate of a choice or text seed reaches the family gate with its answer broken.
        for (const c of cells) expect(c.outcomes['gate:answer'] ?? 0, `${c.family} L${c.level}`).toBe(0);
      },
      120_000,
    );
  }
});
