import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Node } from 'yaml';
import type { z } from 'zod';
import { InputError } from '../errors.js';
import { toModelSpec } from '../models/spec.js';
import { readTextFile } from '../util/text-file.js';
import { didYouMean } from './fields.js';
import {
  type ConfigSchema,
  type ConfigSection,
  configJsonSchema,
  configSchema,
  OPEN_CONFIG,
  type WaverConfig,
  type WaverConfigInput,
} from './schema.js';

export const DEFAULT_CONFIG_FILE = 'waver.yaml';

/** The YAML parser, loaded with the first config file: a run from flags alone never needs it (~40 ms of start-up). */
const loadYaml = (): typeof import('yaml') => createRequire(import.meta.url)('yaml');

/**
 * The config functions bound to one composed schema, made once from the registry of protocols
 * (the CLI and the library share it).
 */
export interface ConfigContext {
  readonly schema: ConfigSchema;
  loadFile(file: string): WaverConfigInput;
  resolve(opts: { file?: string; flags?: WaverConfigInput }): WaverConfig;
  validate(input: WaverConfigInput): WaverConfig;
  /** The JSON schema of waver.yaml (`waver schema`). */
  jsonSchema(): Record<string, unknown>;
}

export function configContext(sections: readonly ConfigSection[]): ConfigContext {
  const schema = configSchema(sections);
  return {
    schema,
    loadFile: (file) => loadConfigFile(file, schema),
    resolve: (opts) => resolveConfig({ ...opts, schema }),
    validate: (input) => validateConfig(input, schema),
    jsonSchema: () => configJsonSchema(schema),
  };
}

/**
 * Reads and validates a `waver.yaml`. Any problem — YAML syntax, an unknown field, a wrong type, a
 * malformed model spec — becomes an InputError naming the file, the line and the field.
 */
export function loadConfigFile(file: string, schema: ConfigSchema = OPEN_CONFIG): WaverConfigInput {
  if (!existsSync(file)) throw new InputError('config file not found', { file });
  const text = readTextFile(file);
  const { LineCounter, parseDocument } = loadYaml();
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const syntax = doc.errors[0];
  if (syntax) {
    throw new InputError(syntax.message.split('\n')[0] ?? 'invalid YAML', {
      file,
      line: lines.linePos(syntax.pos[0]).line,
    });
  }
  let value: Record<string, unknown>;
  try {
    value = doc.toJS() ?? {};
  } catch (e) {
    // An alias bomb (aliases of aliases, billions of nodes): the parser refuses to expand it.
    throw new InputError(`cannot read the YAML: ${(e as Error).message}`, { file });
  }
  const lineOf = (path: readonly PropertyKey[]): number | undefined => {
    // Walk up until a node with a position exists (a missing key points at its parent).
    for (let depth = path.length; depth >= 0; depth--) {
      const node = doc.getIn(path.slice(0, depth) as unknown[], true) as Node | undefined;
      const start = node?.range?.[0];
      if (start !== undefined) return lines.linePos(start).line;
      if (depth === 0) return undefined;
    }
    return undefined;
  };
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw fromZodIssue(schema, parsed.error.issues[0], file, lineOf);
  // Model spec strings are checked here too, so a typo'd provider is reported with its line.
  for (const [field, specs] of modelFields(value)) {
    specs.forEach((spec, i) => {
      const path = Array.isArray(value[field]) ? [field, i] : [field];
      toModelSpec(spec, { file, line: lineOf(path), field: path.join('.') });
    });
  }
  return value as WaverConfigInput;
}

function modelFields(value: Record<string, unknown>): [string, (string | Record<string, unknown>)[]][] {
  const out: [string, (string | Record<string, unknown>)[]][] = [];
  for (const field of ['models', 'judge', 'generator', 'embedder']) {
    const v = value[field];
    if (v === undefined) continue;
    out.push([field, (Array.isArray(v) ? v : [v]) as (string | Record<string, unknown>)[]]);
  }
  return out;
}

function fromZodIssue(
  schema: ConfigSchema,
  issue: z.core.$ZodIssue | undefined,
  file: string | undefined,
  lineOf: (path: readonly PropertyKey[]) => number | undefined,
): InputError {
  if (!issue) return new InputError('invalid config', { file });
  let path = issue.path;
  let message = issue.message;
  if (issue.code === 'unrecognized_keys') {
    const field = issue.keys[0] ?? '';
    path = [...issue.path, field];
    message = `unknown field (${didYouMean(schema, issue.path, field) ?? "see 'waver schema' for the fields"})`;
  }
  return new InputError(message, {
    file,
    line: file ? lineOf(path) : undefined,
    field: path.map(String).join('.') || undefined,
  });
}

/**
 * The config in force: built-in defaults, then the file (if any), then CLI flags. Flags win; a flag
 * inside an object (`params`, a protocol's section such as `ladder:`) replaces that field only.
 * The result is the same typed object the library API takes.
 */
export function resolveConfig(opts: {
  file?: string;
  flags?: WaverConfigInput;
  schema?: ConfigSchema;
}): WaverConfig {
  const schema = opts.schema ?? OPEN_CONFIG;
  let fromFile: WaverConfigInput = {};
  if (opts.file) fromFile = loadConfigFile(opts.file, schema);
  else if (existsSync(DEFAULT_CONFIG_FILE)) fromFile = loadConfigFile(DEFAULT_CONFIG_FILE, schema);
  return validateConfig(mergeFlags(fromFile, opts.flags ?? {}), schema);
}

/** The flags over the file's values: objects field by field, anything else (a list) as a whole. */
function mergeFlags<T extends object>(file: T, flags: T): T {
  const merged = { ...file } as Record<string, unknown>;
  for (const [key, flag] of Object.entries(definedOnly(flags))) {
    const under = merged[key];
    merged[key] = isObject(flag) ? mergeFlags(isObject(under) ? under : {}, flag) : flag;
  }
  return merged as T;
}

/** Validates a config given to the library API (no file: errors name the field only). */
export function validateConfig(input: WaverConfigInput, schema: ConfigSchema = OPEN_CONFIG): WaverConfig {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw fromZodIssue(schema, parsed.error.issues[0], undefined, () => undefined);
  for (const [field, specs] of modelFields(parsed.data as unknown as Record<string, unknown>)) {
    specs.forEach((spec, i) => {
      toModelSpec(spec, { field: field === 'models' ? `models.${i}` : field });
    });
  }
  return parsed.data;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
