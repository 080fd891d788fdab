import { z } from 'zod';
import { MAX_TIMER_MS, ModelSpecSchema } from '../models/spec.js';

/**
 * The one typed config. The CLI builds it from flags, `waver.yaml` supplies it from a file, and the
 * library API takes it as is: the same object, validated by the same schema, flows through all three.
 * That schema is composed: the base fields here, and a section for each protocol that has one
 * (`ladder:`, `sago:`...), handed in by the protocols themselves (configSchema).
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

/**
 * `--shard K/N` (`shard: 2/3` in waver.yaml): this process runs the K-th of N parts of each suite of
 * the systems under test, tests dealt round-robin by their position in the suite
 * (docs/decisions.md#e19-shards-deal-tests-round-robin). Written as the string `K/N` everywhere.
 */
const shardRule = (text: string) =>
  `expected K/N with 1 <= K <= N (the K-th of N shards, e.g. 2/3), got '${text}'`;

export const ShardSchema = z
  .string()
  .regex(/^\d+\/\d+$/, { error: (issue) => shardRule(String(issue.input)) })
  .transform((text, ctx) => {
    const [index, count] = text.split('/').map(Number) as [number, number];
    if (count >= 1 && index >= 1 && index <= count) return { index, count };
    ctx.issues.push({ code: 'custom', input: text, message: shardRule(text) });
    return z.NEVER;
  });

export const BaseConfig = z
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
    timeoutMs: z.int().positive().max(MAX_TIMER_MS).default(120_000),
    /** The most bytes an interactive answer's body may have (64 MiB); past it the call fails. */
    maxResponseBytes: z
      .int()
      .positive()
      .default(64 * 1024 * 1024),
    maxRetries: z.int().nonnegative().default(4),
    /** Backoff between retries: full jitter over min(capMs, baseMs * 2^retry); Retry-After wins when sent. */
    backoff: z
      .object({
        baseMs: z.int().nonnegative().max(MAX_TIMER_MS).default(500),
        capMs: z.int().nonnegative().max(MAX_TIMER_MS).default(30_000),
      })
      .strict()
      .default({ baseMs: 500, capMs: 30_000 }),
    /** Run only the K-th of N shards of each suite of the systems under test: `K/N`. */
    shard: ShardSchema.optional(),
    /** Reuse stored responses; false calls again and overwrites. */
    cache: z.boolean().default(true),
    /**
     * Send the cells of `openai:` and `anthropic:` models through the provider's batch API, at half
     * the price, answered within a day (docs/batch.md); other models are called as usual.
     */
    batch: z.boolean().default(false),
    /** How often an open batch is asked whether it has ended. */
    batchPollMs: z.int().positive().max(MAX_TIMER_MS).default(30_000),
    /** Requests per batch at most, below the provider's own limit (docs/batch.md#limits). */
    batchMaxRequests: z.int().positive().optional(),
    /** false: submit the batches and stop, their cells pending; the same command later collects them. */
    batchWait: z.boolean().default(true),
    /** Print what would be called, and an estimate of tokens and cost, then stop. */
    dryRun: z.boolean().default(false),
    /** A model whose share of done cells is below this is reported as incomplete. */
    minCoverage: z.number().min(0).max(1).default(0.9),
    params: GenerationParams.default(GenerationParams.parse({})),
  })
  .strict();

/** A top-level section of waver.yaml that a protocol (`ladder:`) or the check (`check:`) owns, checked by its owner's schema. */
export interface ConfigSection {
  key: string;
  schema: z.ZodType;
}

/**
 * The protocols' sections as a config may carry them, each declared by the protocol that owns it
 * (a `declare module` beside its schema), so this file imports none. Typed as written: a protocol
 * reads its section through its own schema (`ladderSettings(config)`), defaults filled there.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging, one section per protocol
export interface ConfigSections {}

export type WaverConfig = z.infer<typeof BaseConfig> & ConfigSections;
/** What a user writes: every field optional where a default exists. */
export type WaverConfigInput = z.input<typeof BaseConfig> & ConfigSections;
/** The composed schema: the base fields and the protocols' sections. */
export type ConfigSchema = z.ZodType<WaverConfig, WaverConfigInput>;

/** The config with these sections beside the base fields, in this order; any other key is an unknown field. */
export function configSchema(sections: readonly ConfigSection[]): ConfigSchema {
  const owned = Object.fromEntries(sections.map((s) => [s.key, s.schema.optional()]));
  return BaseConfig.extend(owned).strict() as unknown as ConfigSchema;
}

/**
 * The config for a caller that holds no protocols: the base fields are checked, and any other
 * key is taken as a section (an object) and kept as written, for its protocol to check when it
 * reads it.
 */
export const OPEN_CONFIG = BaseConfig.catchall(z.record(z.string(), z.unknown())) as unknown as ConfigSchema;

/** The JSON schema editors use for `waver.yaml` (see `waver schema`). */
export function configJsonSchema(schema: ConfigSchema): Record<string, unknown> {
  return {
    ...z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }),
    title: 'waver.yaml',
    description: 'Configuration for waver. CLI flags override these values.',
  };
}
