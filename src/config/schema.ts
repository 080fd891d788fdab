import { z } from 'zod';
import { MAX_TIMER_MS, ModelSpecSchema } from '../models/spec.js';
import { withFlag } from './setting-flags.js';

/**
 * The one typed config. The CLI builds it from flags, `waver.yaml` supplies it from a file, and the
 * library API takes it as is: the same object, validated by the same schema, flows through all three.
 * That schema is composed: the base fields here, and a section for each protocol that has one
 * (`ladder:`, `sago:`...), handed in by the protocols themselves (configSchema).
 */
export const GenerationParams = z
  .object({
    /** 0 by default: waver measures how behaviour changes with the question, not sampling noise. */
    temperature: withFlag(z.number().min(0).max(2).default(0), {
      flag: '--temperature <t>',
      help: 'sampling temperature',
      group: 'models',
    }),
    maxTokens: withFlag(z.int().positive().default(256), {
      flag: '--max-tokens <n>',
      help: 'output token cap per call',
      group: 'models',
    }),
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
    models: withFlag(z.array(ModelSpecSchema).default([]), {
      flag: '--models <specs>',
      help: 'systems under test, comma-separated (e.g. gguf:./m.gguf,openai:gpt-4o-mini)',
      group: 'models',
    }),
    judge: withFlag(ModelSpecSchema.optional(), {
      flag: '--judge <spec>',
      help: 'judge model',
      group: 'judge',
    }),
    generator: withFlag(ModelSpecSchema.optional(), {
      flag: '--generator <spec>',
      help: 'generator model (writes perturbations)',
      group: 'generator',
    }),
    embedder: withFlag(ModelSpecSchema.optional(), {
      flag: '--embedder <spec>',
      help: 'embedder model',
      group: 'embedder',
    }),
    /**
     * Provider modules registered before the models are read (docs/providers.md#from-waveryaml):
     * paths relative to the config file, each module's default export a provider descriptor.
     */
    providers: z.array(z.string().min(1)).optional(),
    /** A dataset name or file (protocol commands). */
    dataset: withFlag(z.string().min(1).optional(), {
      flag: '--dataset <name>',
      help: 'dataset name or file',
      group: 'dataset',
    }),
    /** A suite file: JSONL, one test per line (`waver run`). */
    suite: z.string().min(1).optional(),
    /** The SQLite store: every request, response and error of every run. */
    store: withFlag(z.string().min(1).default('.waver/store.db'), {
      flag: '--store <file>',
      help: 'SQLite store',
      group: 'store',
    }),
    format: withFlag(z.enum(['md', 'json']).default('md'), {
      flag: '--format <format>',
      help: 'summary format',
      group: 'output',
    }),
    /** Write the summary here as well as printing it. */
    out: withFlag(z.string().min(1).optional(), {
      flag: '--out <file>',
      help: 'also write the summary to this file',
      group: 'output',
    }),
    seed: withFlag(z.int().default(0), {
      flag: '--seed <n>',
      help: 'seed for every random choice',
      group: 'seed',
    }),
    /** Parallel calls per model (a model's own `concurrency` wins). */
    concurrency: withFlag(z.int().positive().default(4), {
      flag: '--concurrency <n>',
      help: 'parallel calls per model',
      group: 'calls',
    }),
    /** Calls per (test, model); each repeat is a real call, not a cache hit. */
    repeats: withFlag(z.int().positive().default(1), {
      flag: '--repeats <n>',
      help: 'calls per (test, model)',
      group: 'models',
    }),
    timeoutMs: withFlag(z.int().positive().max(MAX_TIMER_MS).default(120_000), {
      flag: '--timeout-ms <n>',
      help: 'per-request timeout in milliseconds',
      group: 'calls',
    }),
    /**
     * The most bytes an interactive answer's body may have (64 MiB); past it the call fails, not
     * retried. The bodies read at once share it as one budget (docs/architecture.md#bounds-on-what-a-call-takes).
     */
    maxResponseBytes: z
      .int()
      .positive()
      .default(64 * 1024 * 1024),
    maxRetries: withFlag(z.int().nonnegative().default(4), {
      flag: '--max-retries <n>',
      help: 'retries after a retryable error (429, 5xx, reset, timeout)',
      group: 'calls',
    }),
    /** Backoff between retries: full jitter over min(capMs, baseMs * 2^retry); Retry-After wins when sent. */
    backoff: z
      .object({
        baseMs: z.int().nonnegative().max(MAX_TIMER_MS).default(500),
        capMs: z.int().nonnegative().max(MAX_TIMER_MS).default(30_000),
      })
      .strict()
      .default({ baseMs: 500, capMs: 30_000 }),
    /** Run only the K-th of N shards of each suite of the systems under test: `K/N`. */
    shard: withFlag(ShardSchema.optional(), {
      flag: '--shard <K/N>',
      help: 'run the K-th of N parts of the suite (tests dealt round-robin); merge the stores with waver merge',
      group: 'shard',
    }),
    /** Reuse stored responses; false calls again and overwrites. */
    cache: withFlag(z.boolean().default(true), {
      flag: '--no-cache',
      help: 'call the models even for cells already stored, and overwrite them',
      group: 'cache',
    }),
    /**
     * Send the cells of `openai:` and `anthropic:` models through the provider's batch API, at half
     * the price, answered within a day (docs/batch.md); other models are called as usual.
     */
    batch: withFlag(z.boolean().default(false), {
      flag: '--batch',
      help: "send openai: and anthropic: models' calls through their batch APIs (half price, within a day)",
      group: 'calls',
    }),
    /** How often an open batch is asked whether it has ended. */
    batchPollMs: z.int().positive().max(MAX_TIMER_MS).default(30_000),
    /** Requests per batch at most, below the provider's own limit (docs/batch.md#limits). */
    batchMaxRequests: z.int().positive().optional(),
    /** false: submit the batches and stop, their cells pending; the same command later collects them. */
    batchWait: withFlag(z.boolean().default(true), {
      flag: '--no-batch-wait',
      help: 'with --batch: submit the batches and stop (exit 3); the same command later collects them',
      group: 'calls',
    }),
    /** Print what would be called, and an estimate of tokens and cost, then stop. */
    dryRun: withFlag(z.boolean().default(false), {
      flag: '--dry-run',
      help: 'print calls, estimated tokens and cost, then stop',
      group: 'dryRun',
    }),
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
