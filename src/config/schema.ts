import { z } from 'zod';
import { checkConfigSchema } from '../check/config.js';
import { ModelSpecSchema } from '../models/spec.js';
// TEMPORARY until the protocol registry lands: ladderCheck, paraphraseCheck and sagoCheck build `check:`.
import { ladderCheck } from '../protocols/ladder/check.js';
import { LadderConfigSchema } from '../protocols/ladder/config.js';
import { paraphraseCheck } from '../protocols/paraphrase/check.js';
import { ParaphraseConfig } from '../protocols/paraphrase/config.js';
import { sagoCheck } from '../protocols/sago/check.js';
import { SagoConfig } from '../protocols/sago/config.js';

/**
 * The one typed config. The CLI builds it from flags, `waver.yaml` supplies it from a file, and the
 * library API takes it as is: the same object, validated by the same schema, flows through all three.
 */
export const GenerationParams = z
  .object({
    /** 0 by default: waver measures how behaviour changes with the question, not sampling noise. */
    temperature: z.number().min(0).max(2).default(0),
    maxTokens: z.int().positive().default(256),
    topP: z.number().gt(0).max(1).optional(),
    seed: z.int().optional(),
    stop: z.array(z.string()).optional(),
    /** Ask for per-token log-probs where the model can give them. */
    logprobs: z.boolean().default(false),
    topLogprobs: z.int().min(0).max(20).optional(),
  })
  .strict();

export const WaverConfig = z
  .object({
    /** Systems under test. */
    models: z.array(ModelSpecSchema).default([]),
    judge: ModelSpecSchema.optional(),
    generator: ModelSpecSchema.optional(),
    embedder: ModelSpecSchema.optional(),
    /** A dataset name or file (protocol commands). */
    dataset: z.string().min(1).optional(),
    /** A suite file: JSONL, one test per line (`waver run`). */
    suite: z.string().min(1).optional(),
    /** The SQLite store: every request, response and error of every run. */
    store: z.string().min(1).default('.waver/store.db'),
    format: z.enum(['md', 'json']).default('md'),
    /** Write the summary here as well as printing it. */
    out: z.string().min(1).optional(),
    seed: z.int().default(0),
    /** Parallel calls per model (a model's own `concurrency` wins). */
    concurrency: z.int().positive().default(4),
    /** Calls per (test, model); each repeat is a real call, not a cache hit. */
    repeats: z.int().positive().default(1),
    timeoutMs: z.int().positive().default(120_000),
    maxRetries: z.int().nonnegative().default(4),
    /** Backoff between retries: full jitter over min(capMs, baseMs * 2^retry); Retry-After wins when sent. */
    backoff: z
      .object({ baseMs: z.int().nonnegative().default(500), capMs: z.int().nonnegative().default(30_000) })
      .strict()
      .default({ baseMs: 500, capMs: 30_000 }),
    /** Reuse stored responses; false calls again and overwrites. */
    cache: z.boolean().default(true),
    /** Print what would be called, and an estimate of tokens and cost, then stop. */
    dryRun: z.boolean().default(false),
    /** A model whose share of done cells is below this is reported as incomplete. */
    minCoverage: z.number().min(0).max(1).default(0.9),
    params: GenerationParams.default(GenerationParams.parse({})),
    /** `waver sago` settings (docs/sago.md). */
    sago: SagoConfig.optional(),
    /** `waver ladder` settings (docs/ladder.md). */
    ladder: LadderConfigSchema.optional(),
    /** `waver paraphrase` settings (docs/paraphrase.md). */
    paraphrase: ParaphraseConfig.optional(),
    /** `waver check` thresholds (docs/check.md); TEMPORARY: the registry's protocols will build it. */
    check: checkConfigSchema([ladderCheck, paraphraseCheck, sagoCheck]).optional(),
  })
  .strict();

export type WaverConfig = z.infer<typeof WaverConfig>;
/** What a user writes: every field optional where a default exists. */
export type WaverConfigInput = z.input<typeof WaverConfig>;

/** The JSON schema editors use for `waver.yaml` (see `waver schema`). */
export function configJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(WaverConfig, { io: 'input', unrepresentable: 'any' }),
    title: 'waver.yaml',
    description: 'Configuration for waver. CLI flags override these values.',
  };
}
