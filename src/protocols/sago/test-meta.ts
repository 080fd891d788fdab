import { z } from 'zod';
import type { Suite } from '../../run/types.js';
import { type TypedTest, typedTests } from '../test-meta.js';
import type {
  MeaningCheck,
  VariationFamily,
  VariationPosition,
  VariationSubtype,
} from './variations/types.js';

const FAMILIES = ['register', 'noise', 'structural'] as const satisfies readonly VariationFamily[];
const SUBTYPES = [
  'politeness',
  'spacing',
  'punctuation',
  'casing',
  'length',
  'interrogative',
  'imperative',
] as const satisfies readonly VariationSubtype[];
const POSITIONS = ['prefix', 'suffix', 'global', 'none'] as const satisfies readonly VariationPosition[];

const MeaningCheckSchema: z.ZodType<MeaningCheck> = z.union([
  z.object({ method: z.literal('by-construction') }),
  z.object({
    method: z.enum(['bertscore', 'embedding-cosine']),
    embedder: z.string(),
    score: z.number(),
    threshold: z.number(),
    passed: z.boolean(),
  }),
  z.object({ method: z.literal('unchecked'), reason: z.string() }),
]);

/** Test meta of the responses suite: which prompt a test asks, and how it was varied. */
export const SagoTestMetaSchema = z.object({
  dataset: z.string(),
  promptId: z.string(),
  /**
   * `baseline`: the prompt itself; `variant`: a variation of it; `pair-baseline`: in an imported run,
   * the response to the prompt recorded beside one variant (each row of the authors' files has its
   * own, separately sampled one).
   */
  role: z.enum(['baseline', 'variant', 'pair-baseline']),
  /** Variants only. */
  family: z.enum(FAMILIES).optional(),
  subtype: z.enum(SUBTYPES).optional(),
  strength: z.number().optional(),
  position: z.enum(POSITIONS).optional(),
  generator: z.string().optional(),
  achievedRatio: z.number().optional(),
  meaningCheck: MeaningCheckSchema.optional(),
  /** pair-baseline: the id of the variant test it was recorded with. */
  pairOf: z.string().optional(),
  /** Imported tests: the run folder and the CSV line the row came from. */
  imported: z.object({ run: z.string(), line: z.number() }).optional(),
});
export type SagoTestMeta = z.infer<typeof SagoTestMetaSchema>;
export type SagoTest = TypedTest<SagoTestMeta>;

/** The tests of a stored responses suite, their meta read (see typedTests). */
export function sagoTests(suite: Suite): SagoTest[] {
  return typedTests(suite, SagoTestMetaSchema);
}
