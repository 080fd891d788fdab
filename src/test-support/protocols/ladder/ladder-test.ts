import { ladderTestId } from '../../../protocols/ladder/suite-file.js';
import {
  type Family,
  type KbType,
  type LadderTest,
  type Level,
  type Seed,
  testAnswerOf,
} from '../../../protocols/ladder/types.js';

/**
 * A ladder test as the suite builder would admit it, for tests that need a suite without building
 * one: measured at its requested level with the given magnitude (by default 0.1 per level), a KB
 * test binned by its boundary type.
 */
export function ladderTest(
  seed: Seed,
  family: Family | 'baseline',
  level: Level | 0,
  text: string,
  opts: { magnitude?: number; kbType?: KbType } = {},
): LadderTest {
  const base = { seedId: seed.id, family, requestedLevel: level, text };
  const magnitude = opts.magnitude ?? 0.1 * level;
  return {
    id: ladderTestId(base),
    ...base,
    ...(opts.kbType && { subtype: opts.kbType }),
    measuredLevel: level,
    ...(family !== 'baseline' && {
      severity: {
        sim: 1 - magnitude,
        magnitude,
        score: magnitude,
        level: level as Level,
        via: family === 'KB' ? ('kb-type' as const) : ('band' as const),
      },
    }),
    original: seed.question,
    ...testAnswerOf(seed, family === 'KB'),
    gates: [],
  };
}
