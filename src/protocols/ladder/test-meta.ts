import { z } from 'zod';
import { DatasetSourceSchema } from '../../data/provenance.js';
import type { Suite, SuiteTest } from '../../run/types.js';
import { type TypedTest, typedMeta } from '../test-meta.js';
import { FamilyCodeSchema } from './families/roster.js';
import { ANSWER_TYPES, type LadderTest } from './types.js';

const Level = z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal(5)]);
const LevelOr0 = z.union([z.literal(0), Level]);

export const SeveritySchema = z
  .object({
    sim: z.number().min(0).max(1),
    magnitude: z.number().min(0).max(1),
    score: z.number(),
    level: Level.optional(),
    via: z.enum(['band', 'generic', 'format-l1-rule', 'ces', 'kb-type', 'content']),
    expansionRatio: z.number().optional(),
    ces: z.number().optional(),
    cesNorm: z.number().optional(),
  })
  .strict();

export const GateSchema = z
  .object({ gate: z.string().min(1), verdict: z.enum(['pass', 'fail', 'not-run']), reason: z.string() })
  .strict();

const GeneratorSchema = z.discriminatedUnion('kind', [
  z
    .object({ kind: z.literal('rules'), name: z.string().min(1), seed: z.int(), attempt: z.int().positive() })
    .strict(),
  z
    .object({
      kind: z.literal('model'),
      model: z.string().min(1),
      temperature: z.number().min(0),
      attempt: z.int().positive(),
    })
    .strict(),
  z
    .object({
      kind: z.literal('reviewed'),
      dataset: z.string().min(1),
      version: z.int().positive(),
      criteria: z.string().min(1),
      by: z.string().min(1),
    })
    .strict(),
]);

/** A ladder test, as a suite file holds it (suite-file.ts) and, but for its id, as the SUT suite's meta does. */
export const LadderTestSchema = z
  .object({
    id: z.string().min(1),
    seedId: z.string().min(1),
    family: z.union([z.literal('baseline'), FamilyCodeSchema]),
    subtype: z.string().min(1).optional(),
    requestedLevel: LevelOr0,
    measuredLevel: LevelOr0.optional(),
    severity: SeveritySchema.optional(),
    original: z.string().min(1),
    text: z.string().min(1),
    answerType: z.enum(ANSWER_TYPES).optional(),
    gold: z.union([z.number(), z.string().min(1)]),
    options: z
      .array(
        z
          .object({ letter: z.string().regex(/^[A-Z]$/, 'must be one letter A-Z'), text: z.string().min(1) })
          .strict(),
      )
      .min(2, 'needs at least two options')
      .optional(),
    aliases: z.array(z.string().min(1)).optional(),
    gates: z.array(GateSchema),
    generator: GeneratorSchema.optional(),
    dataset: DatasetSourceSchema.optional(),
  })
  .strict();

/** The meta of a test of the SUT suite: the LadderTest but its id (the test's own). */
export type LadderTestMeta = Omit<LadderTest, 'id'>;
export type LadderSuiteTest = TypedTest<LadderTestMeta>;

export const LadderTestMetaSchema = LadderTestSchema.omit({ id: true });

/**
 * The LadderTest a stored test of the SUT suite carries, its meta read through the schema; once
 * for each test object (a report reads a suite's tests in its loader and again in its transcript).
 */
export function ladderTestOf(suite: Pick<Suite, 'name' | 'hash'>, test: SuiteTest): LadderTest {
  let read = ladderTests.get(test);
  if (read === undefined) {
    read = { ...typedMeta(suite, test, LadderTestMetaSchema), id: test.id };
    ladderTests.set(test, read);
  }
  return read;
}

const ladderTests = new WeakMap<SuiteTest, LadderTest>();
