import { type Command, Option } from 'commander';
import type { ConfigContext } from '../config/load.js';
import type { WaverConfig, WaverConfigInput } from '../config/schema.js';
import { InputError } from '../errors.js';

/**
 * The flags every protocol command shares, defined once. Each maps onto a field of the typed
 * config; only flags the user actually typed override `waver.yaml`.
 */
export function addCommonOptions(cmd: Command): Command {
  return cmd
    .option('-c, --config <file>', 'config file (default: ./waver.yaml when present)')
    .option('--models <specs>', 'systems under test, comma-separated (e.g. gguf:./m.gguf,openai:gpt-4o-mini)')
    .option('--judge <spec>', 'judge model')
    .option('--generator <spec>', 'generator model (writes perturbations)')
    .option('--embedder <spec>', 'embedder model')
    .option('--dataset <name>', 'dataset name or file')
    .option('--store <file>', 'SQLite store (default .waver/store.db)')
    .addOption(new Option('--format <format>', 'summary format').choices(['md', 'json']))
    .option('--out <file>', 'also write the summary to this file')
    .option('--seed <n>', 'seed for every random choice')
    .option('--concurrency <n>', 'parallel calls per model')
    .option('--repeats <n>', 'calls per (test, model)')
    .option('--timeout-ms <n>', 'per-request timeout in milliseconds')
    .option('--max-retries <n>', 'retries after a retryable error (429, 5xx, reset, timeout)')
    .option('--temperature <t>', 'sampling temperature (default 0)')
    .option('--max-tokens <n>', 'output token cap per call')
    .option('--no-cache', 'call the models even for cells already stored, and overwrite them')
    .option('--dry-run', 'print calls, estimated tokens and cost, then stop');
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
  cache?: boolean;
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
      cache: typed('cache') ? o.cache : undefined,
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
