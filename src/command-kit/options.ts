import { type Command, InvalidArgumentError, Option } from 'commander';
import type { z } from 'zod';
import type { ConfigContext } from '../config/load.js';
import { BaseConfig, type WaverConfig, type WaverConfigInput } from '../config/schema.js';
import { FLAG_GROUPS, type FlagGroup } from '../config/setting-flags.js';
import { InputError } from '../errors.js';
import {
  type FlaggedSetting,
  flaggedSettings,
  settingHelp,
  settingOption,
  settingValue,
} from './setting-options.js';

/** The base fields' flags (`--models`, `--store`, ..., `--temperature`), read once from the base schema. */
const BASE_FLAGS = flaggedSettings(BaseConfig);

/** A protocol's section of waver.yaml whose settings a command offers as flags: all of them, or the `only` ones (their paths). */
export interface SectionFlags {
  key: string;
  schema: z.ZodType;
  only?: readonly string[];
}

/**
 * The flags of a command, each made from the setting it sets (config/setting-flags.ts): its
 * section's, `--config`, and the base flags of `groups` (default all). Only flags the user typed
 * override waver.yaml; a flag a command lacks is simply not given.
 */
export interface CommandFlags {
  /** Adds them to `cmd`: the section's first, in its order, then `--config` and the base flags. */
  addTo(cmd: Command): Command;
  /**
   * The typed config of the command: waver.yaml, the base flags over it, the section's flags over
   * those, and `own` (`--suite`, a setting one flag implies from another) last, a flag inside an
   * object replacing that field only; validated once by the composed schema, so a bad value is an
   * InputError naming its field (`ladder.seeds`).
   */
  config(cmd: Command, ctx: ConfigContext, own?: WaverConfigInput): WaverConfig;
  /** The fragment of the config the typed flags set, and `--config`'s file. */
  typed(cmd: Command): { file?: string; flags: WaverConfigInput };
}

export function commandFlags(
  opts: { section?: SectionFlags; groups?: readonly FlagGroup[] } = {},
): CommandFlags {
  const groups = opts.groups ?? FLAG_GROUPS;
  const base = BASE_FLAGS.filter((s) => s.spec.group !== undefined && groups.includes(s.spec.group));
  const section = opts.section ? sectionSettings(opts.section) : [];
  const flagOf = (s: FlaggedSetting) => s.spec.flag.split(' ')[0] as string;
  // A common flag a section setting claims sets that setting alone: one flag, one field, and the
  // section's field wins over the base one (docs/protocols.md#settings).
  const claimed = new Set(section.filter((s) => s.spec.common).map(flagOf));
  const typed = (cmd: Command): { file?: string; flags: WaverConfigInput } => {
    const flags: Record<string, unknown> = {};
    const set = (s: FlaggedSetting, path: readonly string[]) => {
      if (cmd.getOptionValueSource(s.attribute) === 'cli')
        setAt(flags, path, settingValue(s, cmd.getOptionValue(s.attribute), flagOf(s)));
      else {
        const alias = s.spec.aliases?.find((a) => cmd.getOptionValueSource(attributeOf(a)) === 'cli');
        if (alias === undefined) return;
        deprecatedFlag(alias, flagOf(s));
        setAt(flags, path, settingValue(s, cmd.getOptionValue(attributeOf(alias)), alias));
      }
    };
    for (const s of base) if (!claimed.has(flagOf(s))) set(s, s.path);
    for (const s of section) set(s, [opts.section?.key as string, ...s.path]);
    return { file: cmd.opts<{ config?: string }>().config, flags: flags as WaverConfigInput };
  };
  return {
    addTo(cmd) {
      for (const s of section) if (!s.spec.common) cmd.addOption(settingOption(s));
      // Former names, hidden: taken with a note (FlagSpec.aliases).
      for (const s of [...section, ...base])
        for (const alias of s.spec.aliases ?? [])
          cmd.addOption(new Option([alias, ...s.spec.flag.split(' ').slice(1)].join(' ')).hideHelp());
      cmd.option('-c, --config <file>', 'config file (default: ./waver.yaml when present)');
      for (const s of base) {
        // A protocol setting the common flag also sets tells its own default in the help.
        const own = section.find((o) => o.spec.common && flagOf(o) === flagOf(s));
        const option = settingOption(s);
        if (own) option.description = settingHelp(own);
        cmd.addOption(option);
      }
      return cmd;
    },
    typed,
    config(cmd, ctx, own = {}) {
      const { file, flags } = typed(cmd);
      return ctx.resolve({ file, flags: overlay(flags, own) });
    },
  };
}

/**
 * `--format md|json` of a command's own output, the words of every command's `--format`; `text`
 * (plan's and judge's former word) is taken as `md` with a note.
 */
export function formatOption(): Option {
  return new Option('--format <format>', 'output format (choices: md, json)').default('md').argParser((v) => {
    if (v === 'text') {
      process.stderr.write(
        'waver: --format text is deprecated: use --format md (one word in every command)\n',
      );
      return 'md';
    }
    if (v !== 'md' && v !== 'json') throw new InvalidArgumentError('Allowed choices are md, json.');
    return v;
  });
}

/** The one-line note a former flag name gets (FlagSpec.aliases): it still works, under its new name. */
export function deprecatedFlag(alias: string, flag: string): void {
  process.stderr.write(`waver: ${alias} is deprecated: use ${flag} (one name in every command)\n`);
}

function attributeOf(flag: string): string {
  return new Option(flag).attributeName();
}

function sectionSettings({ schema, only }: SectionFlags): FlaggedSetting[] {
  const all = flaggedSettings(schema);
  if (only === undefined) return all;
  return only.map((path) => {
    const found = all.find((s) => s.path.join('.') === path);
    if (!found) throw new Error(`no flag declared for setting '${path}'`);
    return found;
  });
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

function setAt(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let at = target;
  for (const key of path.slice(0, -1)) {
    const next = at[key];
    at = at[key] = isObject(next) ? next : {};
  }
  at[path[path.length - 1] as string] = value;
}

/** `over` on `under`: objects field by field, anything else (a list) whole; undefined leaves a field as it is. */
function overlay<T extends object>(under: T, over: T): T {
  const merged = { ...under } as Record<string, unknown>;
  for (const [key, value] of Object.entries(over)) {
    if (value === undefined) continue;
    const below = merged[key];
    merged[key] = isObject(value) && isObject(below) ? overlay(below, value) : value;
  }
  return merged as T;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
