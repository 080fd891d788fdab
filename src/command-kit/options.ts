import { type Command, Option } from 'commander';
import type { ConfigContext } from '../config/load.js';
import { BaseConfig, type WaverConfig, type WaverConfigInput } from '../config/schema.js';
import { InputError } from '../errors.js';

/**
 * The shared flags by what they set, so a command shows only the flags that apply to it
 * (`suite build` asks no system under test: no `--models`, `--temperature` or `--repeats`).
 */
export type FlagGroup =
  /** The systems under test and what they are asked: --models, --repeats, --temperature, --max-tokens. */
  | 'models'
  | 'judge'
  | 'generator'
  | 'embedder'
  | 'dataset'
  /** --store, --no-cache. */
  | 'store'
  /** --format, --out. */
  | 'output'
  | 'seed'
  /** How calls are made: --concurrency, --timeout-ms, --max-retries, --batch. */
  | 'calls'
  /** --shard K/N: commands that run systems under test. */
  | 'shard'
  | 'dryRun';

export const FLAG_GROUPS: readonly FlagGroup[] = [
  'models',
  'judge',
  'generator',
  'embedder',
  'dataset',
  'store',
  'output',
  'seed',
  'calls',
  'shard',
  'dryRun',
];

/** The config's defaults, which `--help` shows: one source for both. */
const DEFAULTS = BaseConfig.parse({});

/** Each shared flag with its group, in the order help lists them. */
const COMMON_OPTIONS: readonly [FlagGroup, () => Option][] = [
  [
    'models',
    () =>
      new Option(
        '--models <specs>',
        'systems under test, comma-separated (e.g. gguf:./m.gguf,openai:gpt-4o-mini)',
      ),
  ],
  ['judge', () => new Option('--judge <spec>', 'judge model')],
  ['generator', () => new Option('--generator <spec>', 'generator model (writes perturbations)')],
  ['embedder', () => new Option('--embedder <spec>', 'embedder model')],
  ['dataset', () => new Option('--dataset <name>', 'dataset name or file')],
  ['store', () => new Option('--store <file>', `SQLite store (default ${DEFAULTS.store})`)],
  [
    'output',
    () =>
      new Option('--format <format>', `summary format (default ${DEFAULTS.format})`).choices(['md', 'json']),
  ],
  ['output', () => new Option('--out <file>', 'also write the summary to this file')],
  ['seed', () => new Option('--seed <n>', `seed for every random choice (default ${DEFAULTS.seed})`)],
  [
    'calls',
    () => new Option('--concurrency <n>', `parallel calls per model (default ${DEFAULTS.concurrency})`),
  ],
  ['models', () => new Option('--repeats <n>', `calls per (test, model) (default ${DEFAULTS.repeats})`)],
  [
    'calls',
    () =>
      new Option('--timeout-ms <n>', `per-request timeout in milliseconds (default ${DEFAULTS.timeoutMs})`),
  ],
  [
    'calls',
    () =>
      new Option(
        '--max-retries <n>',
        `retries after a retryable error (429, 5xx, reset, timeout) (default ${DEFAULTS.maxRetries})`,
      ),
  ],
  [
    'shard',
    () =>
      new Option(
        '--shard <K/N>',
        'run the K-th of N parts of the suite (tests dealt round-robin); merge the stores with waver merge',
      ),
  ],
  [
    'models',
    () => new Option('--temperature <t>', `sampling temperature (default ${DEFAULTS.params.temperature})`),
  ],
  [
    'models',
    () => new Option('--max-tokens <n>', `output token cap per call (default ${DEFAULTS.params.maxTokens})`),
  ],
  [
    'store',
    () => new Option('--no-cache', 'call the models even for cells already stored, and overwrite them'),
  ],
  [
    'calls',
    () =>
      new Option(
        '--batch',
        "send openai: and anthropic: models' calls through their batch APIs (half price, within a day)",
      ),
  ],
  [
    'calls',
    () =>
      new Option(
        '--no-batch-wait',
        'with --batch: submit the batches and stop (exit 3); the same command later collects them',
      ),
  ],
  ['dryRun', () => new Option('--dry-run', 'print calls, estimated tokens and cost, then stop')],
];

/**
 * The flags protocol commands share, defined once: `--config`, and those of `groups` (default
 * all). Each maps onto a field of the typed config; only flags the user actually typed override
 * `waver.yaml`, and a flag a command lacks is simply not given.
 */
export function addCommonOptions(cmd: Command, groups: readonly FlagGroup[] = FLAG_GROUPS): Command {
  cmd.option('-c, --config <file>', 'config file (default: ./waver.yaml when present)');
  for (const [group, option] of COMMON_OPTIONS) if (groups.includes(group)) cmd.addOption(option());
  return cmd;
}

interface CommonFlags {
  config?: string;
  models?: string;
  judge?: string;
  generator?: string;
  embedder?: string;
  dataset?: string;
  store?: string;
  format?: 'md' | 'json';
  out?: string;
  seed?: string;
  concurrency?: string;
  repeats?: string;
  timeoutMs?: string;
  maxRetries?: string;
  temperature?: string;
  maxTokens?: string;
  shard?: string;
  cache?: boolean;
  batch?: boolean;
  batchWait?: boolean;
  dryRun?: boolean;
}

/** The typed-config fragment the user's flags set (undefined = not given). */
export function flagsToConfig(cmd: Command): { file?: string; flags: WaverConfigInput } {
  const o = cmd.opts<CommonFlags>();
  const typed = (name: keyof CommonFlags) => cmd.getOptionValueSource(name) === 'cli';
  return {
    file: o.config,
    flags: {
      models: o.models !== undefined ? splitList(o.models) : undefined,
      judge: o.judge,
      generator: o.generator,
      embedder: o.embedder,
      dataset: o.dataset,
      store: o.store,
      format: o.format,
      out: o.out,
      seed: int(o.seed, '--seed'),
      concurrency: int(o.concurrency, '--concurrency'),
      repeats: int(o.repeats, '--repeats'),
      timeoutMs: int(o.timeoutMs, '--timeout-ms'),
      maxRetries: int(o.maxRetries, '--max-retries'),
      shard: o.shard,
      cache: typed('cache') ? o.cache : undefined,
      batch: typed('batch') ? o.batch : undefined,
      batchWait: typed('batchWait') ? o.batchWait : undefined,
      dryRun: typed('dryRun') ? o.dryRun : undefined,
      params: {
        temperature: num(o.temperature, '--temperature'),
        maxTokens: int(o.maxTokens, '--max-tokens'),
      },
    },
  };
}

/**
 * The typed config of a protocol command: waver.yaml, the common flags over it, and the command's
 * own (`own`: `--suite`, and the protocol's flags as fields of its section, `{ ladder: {...} }`)
 * over those, a flag inside a section replacing that field only; validated once by the composed
 * schema, so a bad value is an InputError naming its field (`ladder.seeds`).
 */
export function commandConfig(cmd: Command, config: ConfigContext, own: WaverConfigInput = {}): WaverConfig {
  const { file, flags } = flagsToConfig(cmd);
  return config.resolve({ file, flags: { ...flags, ...own } });
}

export function splitList(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * `--fields question=problem,answer=solution.text` -> `{ question: 'problem', answer: 'solution.text' }`:
 * which field of a dataset's records holds each part (docs/datasets.md#fields). The protocol's
 * config schema checks the names.
 */
export function fieldMap(value: string, flag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of splitList(value)) {
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq).trim();
    const path = pair.slice(eq + 1).trim();
    if (eq < 1 || path === '')
      throw new InputError(`expected NAME=FIELD pairs separated by commas, got '${pair}'`, { field: flag });
    if (out[name] !== undefined) throw new InputError(`'${name}' is given twice`, { field: flag });
    out[name] = path;
  }
  if (Object.keys(out).length === 0) throw new InputError('no field given', { field: flag });
  return out;
}

/** `--help`'s closing lines: a few commands to copy, each under what it does. */
export function addExamples(cmd: Command, examples: readonly [string, string][]): Command {
  const lines = examples.map(([c, what]) => `  # ${what}\n  $ ${c}`);
  return cmd.addHelpText('after', `\nExamples:\n${lines.join('\n')}\n`);
}

export function positiveInt(value: string, flag: string): number {
  if (!/^\d+$/.test(value.trim()) || Number(value) < 1)
    throw new InputError(`expected a positive integer, got '${value}'`, { field: flag });
  return Number(value);
}

function int(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value.trim()))
    throw new InputError(`expected an integer, got '${value}'`, { field: flag });
  return Number(value);
}

function num(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n))
    throw new InputError(`expected a number, got '${value}'`, { field: flag });
  return n;
}
