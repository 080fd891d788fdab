import { SUITE_SCANS } from '../../../suite-scans.js';
import type { LadderTest, Seed } from '../../../types.js';

/** A CIS test of `seed` at `level` with `text`, as a suite stores it, for the scans to read. */
export function cisTest(seed: Seed, level: number, text: string): LadderTest {
  return {
    family: 'CIS',
    seedId: seed.id,
    requestedLevel: level,
    measuredLevel: level,
    original: seed.question,
    text,
    gold: seed.gold,
    ...(seed.answerType && { answerType: seed.answerType }),
    ...(seed.answerType === 'choice' && { options: seed.options }),
  } as LadderTest;
}

/** One scan's check by its id. */
export const scanCheck = (id: string) =>
  SUITE_SCANS.find((s) => s.id === id)?.check as (t: LadderTest) => string | undefined;
