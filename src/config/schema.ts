import { z } from 'zod';
import { MAX_TIMER_MS, ModelSpecSchema } from '../models/spec.js';
import { schedulerShard } from './scheduler-shard.js';
import { unwrapped, withFlag } from './setting-flags.js';

/** The output cap of a call when neither the config nor the protocol sets one. */
export const DEFAULT_MAX_TOKENS = 256;

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
    /**
     * Output-token cap of a system-under-test call; a protocol's own setting wins over it. Unset:
     * the protocol's default, else DEFAULT_MAX_TOKENS (docs/protocols.md#request).
     */
    maxTokens: withFlag(z.int().positive().optional(), {
      flag: '--max-tokens <n>',
      help: 'output token cap per call',
      shownDefault: `${DEFAULT_MAX_TOKENS}`,
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
 * (docs/decisions.md#e19-shards-deal-tests-round-robin). Written as the string `K/N` everywhere;
 * `auto` is the shard the scheduler's variables say, read when the config is
 * (docs/decisions.md#e48-shard-auto-reads-the-schedulers-index).
 */
const shardRule = (text: string) =>
  `expected K/N with 1 <= K <= N (the K-th of N shards, e.g. 2/3) or auto, got '${text}'`;

export const ShardSchema = z
  .string()
  .regex(/^(\d+\/\d+|auto)$/, { error: (issue) => shardRule(String(issue.input)) })
  .transform((text, ctx) => {
    if (text === 'auto') {
      const found = schedulerShard(process.env);
      if ('shard' in found) return found.shard;
      ctx.issues.push({ code: 'custom', input: text, message: found.error });
      return z.NEVER;
    }
    const [index, count] = text.split('/').map(Number) as [number, number];
    if (count >= 1 && index >= 1 && index <= count) return { index, count };
    ctx.issues.push({ code: 'custom', input: text, message: shardRule(text) });
    return z.NEVER;
  });

/** The default of `maxRepeats` (docs/decisions.md#e38-repeats-are-bounded-a-lines-own-wins). */
export const DEFAULT_MAX_REPEATS = 1000;

/** The settings that ask calls per (test, model), each bounded by `maxRepeats`: `repeats`, a protocol's own. */
const REPEATS_SETTINGS = new WeakSet<z.ZodType>();

/**
 * `schema` declared a repeats setting (`paraphrase.repeats`, `ladder.baselineRepeats`): the config
 * refuses it above `maxRepeats`, naming its field (docs/decisions.md#e38-repeats-are-bounded-a-lines-own-wins).
 */
export function repeatsSetting<T extends z.ZodType>(schema: T): T {
  REPEATS_SETTINGS.add(schema);
  return schema;
}

/** Why `repeats` asked above the limit is refused: the one message for `--repeats`, waver.yaml and a suite line. */
export function repeatsAboveLimit(repeats: number, limit: number): string {
  return `${repeats} is above the limit of ${limit} (maxRepeats in waver.yaml raises it)`;
}

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
    /**
     * Calls per (test, model); each repeat is a real call, not a cache hit. A suite line's own
     * `repeats` wins over it (docs/decisions.md#e38-repeats-are-bounded-a-lines-own-wins).
     */
    repeats: repeatsSetting(
      withFlag(z.int().positive().default(1), {
        flag: '--repeats <n>',
        help: "calls per (test, model); a suite line's own repeats wins",
        group: 'models',
      }),
    ),
    /** The most repeats `repeats` or a suite line may ask: a typo of a billion is bad input, not a run (E38). */
    maxRepeats: z.int().positive().default(DEFAULT_MAX_REPEATS),
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
    /**
     * The command's budget (docs/decisions.md#e37-a-budget-stops-a-command-its-cells-left-pending):
     * once it is reached no call starts, the calls in flight finish, the cells left stay pending for
     * the same command to resume, and it exits 5. Tries on the wire, retries included, of every model
     * and role.
     */
    maxCalls: withFlag(z.int().positive().optional(), {
      flag: '--max-calls <n>',
      help: 'stop before the call past this many (retries count; every model and role); cells left pending, exit 5',
      group: 'calls',
    }),
    /** USD at known prices and the usage each answer reports; a call starts only if its worst case fits. */
    maxCost: withFlag(z.number().positive().optional(), {
      flag: '--max-cost <usd>',
      help: 'stop before a call whose worst case could take the spend past this many USD (known prices); exit 5',
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
    /** Run only the K-th of N shards of each suite of the systems under test: `K/N`, or `auto`. */
    shard: withFlag(ShardSchema.optional(), {
      flag: '--shard <K/N|auto>',
      help: 'run the K-th of N parts of the suite (tests dealt round-robin; auto: the Slurm array task or Indexed Job pod); merge the stores with waver merge',
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
  const repeats = [['repeats'], ...sections.flatMap((s) => repeatsFields(s.schema).map((f) => [s.key, f]))];
  return BaseConfig.extend(owned)
    .strict()
    .superRefine((config, ctx) => betweenFields(config, ctx, repeats)) as unknown as ConfigSchema;
}

/** The repeats settings of a section's schema, by field. */
function repeatsFields(schema: z.ZodType): string[] {
  const inner = unwrapped(schema);
  if (!(inner instanceof z.ZodObject)) return [];
  return Object.entries(inner.shape)
    .filter(([, field]) => REPEATS_SETTINGS.has(field as z.ZodType))
    .map(([key]) => key);
}

/**
 * The rules between fields, which no one field's schema can hold; each issue names its field.
 * `repeats`: where the repeats settings sit (`['paraphrase', 'repeats']`).
 */
function betweenFields(parsed: object, ctx: z.RefinementCtx, repeats: readonly string[][]): void {
  // Every composed schema holds the base fields, parsed by now.
  const config = parsed as z.infer<typeof BaseConfig>;
  for (const path of repeats) {
    const asked = path.reduce<unknown>(
      (at, key) => (at as Record<string, unknown> | undefined)?.[key],
      config,
    );
    if (typeof asked === 'number' && asked > config.maxRepeats)
      ctx.addIssue({ code: 'custom', path, message: repeatsAboveLimit(asked, config.maxRepeats) });
  }
  // A batch is submitted whole and billed when it ends: no try of it could be refused (docs/batch.md).
  const limit =
    config.maxCalls !== undefined ? 'maxCalls' : config.maxCost !== undefined ? 'maxCost' : undefined;
  if (config.batch && limit)
    ctx.addIssue({
      code: 'custom',
      path: [limit],
      message:
        'a budget does not apply to --batch (a batch is billed whole when it ends): drop --batch or the budget',
    });
}

/**
 * The config for a caller that holds no protocols: the base fields are checked, and any other
 * key is taken as a section (an object) and kept as written, for its protocol to check when it
 * reads it.
 */
export const OPEN_CONFIG = BaseConfig.catchall(z.record(z.string(), z.unknown())).superRefine((config, ctx) =>
  betweenFields(config, ctx, [['repeats']]),
) as unknown as ConfigSchema;

/** The JSON schema editors use for `waver.yaml` (see `waver schema`). */
export function configJsonSchema(schema: ConfigSchema): Record<string, unknown> {
  return {
    ...z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }),
    title: 'waver.yaml',
    description: 'Configuration for waver. CLI flags override these values.',
  };
}
