import { z } from 'zod';
import { InputError } from '../errors.js';

/**
 * A setting is declared once, as a field of the config's zod schema; its flag is declared on that
 * field (`withFlag`), so the command's options, the typed config they set, the JSON schema of
 * waver.yaml and what a run records all come from the one declaration (docs/protocols.md#settings).
 * How the flag's text becomes the value follows from the field's type (an integer, a number, one of
 * an enum, a comma-separated list of those, a switch); `parse` says it where the type does not.
 */
export interface FlagSpec {
  /** `--n <n>`, `--families <list>`; a switch has no value (`--reference`, `--no-cache` for a setting true by default). */
  flag: string;
  help: string;
  /** What help shows as the default: the field's own default unless said here (`builtin`), or none (false). */
  shownDefault?: string | false;
  /**
   * Former names of the flag, still taken (hidden from help) with a one-line note on stderr that
   * names the flag to use: one flag per concept across commands (`--seeds` and `--n` are `--limit`).
   */
  aliases?: readonly string[];
  /** One value in messages: `unknown family 'XX'`, `no family given`. */
  noun?: string;
  /** The flag's text as the field's value, where the field's type does not say how (a map, a spec). */
  parse?: (raw: string, flag: string) => unknown;
  /** Which commands offer a base flag (they ask for groups); a section's flags are its command's. */
  group?: FlagGroup;
  /**
   * The common flag of that name (`--max-tokens`) also sets this setting in the command that offers
   * it, whose help this replaces there: the protocol's own default differs from the run-wide one.
   */
  common?: boolean;
}

/**
 * The base flags by what they set, so a command shows only the flags that apply to it
 * (`suite build` asks no system under test: no `--models`, `--temperature` or `--repeats`).
 */
export type FlagGroup =
  /** The systems under test and what they are asked: --models, --repeats, --temperature, --max-tokens. */
  | 'models'
  | 'judge'
  | 'generator'
  | 'embedder'
  | 'dataset'
  | 'store'
  /** --no-cache: commands that call models. */
  | 'cache'
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
  'cache',
  'output',
  'seed',
  'calls',
  'shard',
  'dryRun',
];

/** The flag of each setting that has one. Apart from zod's global registry, so waver.yaml's JSON schema does not carry it. */
export const SETTING_FLAGS = z.registry<FlagSpec>();

/** `schema` with its flag: the field as declared, registered (the same object, so the config's schema is unchanged). */
export function withFlag<T extends z.ZodType>(schema: T, spec: FlagSpec): T {
  SETTING_FLAGS.add(schema, spec);
  return schema;
}

/** The field inside its optional, default and transform wrappers. */
export function unwrapped(field: z.ZodType): z.ZodType {
  let inner = field;
  for (;;) {
    if (inner instanceof z.ZodOptional || inner instanceof z.ZodDefault || inner instanceof z.ZodNullable)
      inner = inner.unwrap() as z.ZodType;
    else if (inner instanceof z.ZodPipe) inner = inner.in as z.ZodType;
    else return inner;
  }
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
