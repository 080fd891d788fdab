import { Option } from 'commander';
import { z } from 'zod';
import { type FlagSpec, SETTING_FLAGS, splitList, unwrapped } from '../config/setting-flags.js';
import { InputError } from '../errors.js';

/** A setting that has a flag: where it sits in its schema (`['ablation', 'draws']`), its field and its flag. */
export interface FlaggedSetting {
  path: readonly string[];
  schema: z.ZodType;
  spec: FlagSpec;
  /** Commander's name of its value (`--no-cache` -> `cache`). */
  attribute: string;
}

/** Every setting of `schema` with a flag, in declaration order, a setting before the settings inside it. */
export function flaggedSettings(schema: z.ZodType): FlaggedSetting[] {
  const out: FlaggedSetting[] = [];
  const visit = (field: z.ZodType, path: readonly string[]) => {
    const spec = SETTING_FLAGS.get(field);
    if (spec) out.push({ path, schema: field, spec, attribute: new Option(spec.flag).attributeName() });
    const inner = unwrapped(field);
    if (inner instanceof z.ZodObject)
      for (const [key, child] of Object.entries(inner.shape)) visit(child as z.ZodType, [...path, key]);
  };
  visit(schema, []);
  return out;
}

/** The setting's option: its flag, its help with the default it takes, and its choices when it is one of an enum. */
export function settingOption(setting: FlaggedSetting): Option {
  const option = new Option(setting.spec.flag, settingHelp(setting));
  const choices = choicesOf(unwrapped(setting.schema));
  if (choices) option.choices(choices);
  return option;
}

/** The values a flag may take: an enum's, or those of the enum a union offers beside richer forms (`json` or a per-model map). */
function choicesOf(field: z.ZodType): string[] | undefined {
  if (field instanceof z.ZodEnum) return field.options.map(String);
  if (field instanceof z.ZodUnion)
    for (const option of field.options) {
      const choices = choicesOf(unwrapped(option as z.ZodType));
      if (choices) return choices;
    }
  return undefined;
}

export function settingHelp({ spec, schema }: Pick<FlaggedSetting, 'spec' | 'schema'>): string {
  const shown = spec.shownDefault ?? defaultOf(schema);
  return shown === undefined || shown === false ? spec.help : `${spec.help} (default: ${shown})`;
}

/**
 * What the flag's value (`raw`: its text, or a switch's true/false) sets the setting to, checked
 * against the setting's own schema so a bad value is an InputError naming the flag. The value is
 * the input the config's schema then reads (its defaults and transforms are the config's).
 */
export function settingValue(
  setting: FlaggedSetting,
  raw: unknown,
  flag = setting.spec.flag.split(' ')[0],
): unknown {
  if (typeof raw !== 'string') return raw;
  const value = setting.spec.parse
    ? setting.spec.parse(raw, flag as string)
    : fromText(setting.schema, raw, flag as string, setting.spec.noun);
  const checked = setting.schema.safeParse(value);
  if (!checked.success)
    throw new InputError(checked.error.issues[0]?.message ?? `invalid value '${raw}'`, { field: flag });
  return value;
}

/** The field's default as help shows it (`16`, `0.01,0.05,0.1`); none for a switch, an empty list or an object. */
function defaultOf(field: z.ZodType): string | undefined {
  let inner = field;
  while (inner instanceof z.ZodOptional || inner instanceof z.ZodNullable)
    inner = inner.unwrap() as z.ZodType;
  if (!(inner instanceof z.ZodDefault)) return undefined;
  const value: unknown = inner.def.defaultValue;
  if (Array.isArray(value)) return value.length > 0 ? value.join(',') : undefined;
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}

/** The flag's text as the field's type reads it: a number, one of an enum, a comma-separated list of those, or text. */
function fromText(field: z.ZodType, raw: string, flag: string, noun = 'value', inList = false): unknown {
  const inner = unwrapped(field);
  if (inner instanceof z.ZodArray) {
    const items = splitList(raw);
    if (items.length === 0) throw new InputError(`no ${noun} given`, { field: flag });
    return items.map((item) => fromText(inner.element as z.ZodType, item, flag, noun, true));
  }
  if (inner instanceof z.ZodNumber) {
    const n = Number(raw);
    const integer = inner.isInt === true;
    const wellFormed = integer ? /^-?\d+$/.test(raw.trim()) : raw.trim() !== '' && Number.isFinite(n);
    if (!wellFormed)
      throw new InputError(`expected ${integer ? 'an integer' : 'a number'}, got '${raw}'`, { field: flag });
    if (!inner.safeParse(n).success)
      throw new InputError(`expected ${expectation(inner)}, got '${raw}'`, { field: flag });
    return n;
  }
  if (inner instanceof z.ZodEnum && !inner.options.includes(raw as never))
    throw new InputError(
      `unknown ${noun} '${raw}' (expected ${inList ? 'some' : 'one'} of ${inner.options.join(', ')})`,
      { field: flag },
    );
  return raw;
}

/** What a number field takes, in words: `a positive integer`, `a number > 0 and < 1`. */
function expectation(field: z.ZodNumber): string {
  const json = z.toJSONSchema(field) as Partial<
    Record<'minimum' | 'exclusiveMinimum' | 'maximum' | 'exclusiveMaximum', number>
  > & { type?: string };
  // z.int() bounds every integer to the safe range: not worth saying.
  const bound = (x: number | undefined) =>
    x !== undefined && Math.abs(x) < Number.MAX_SAFE_INTEGER ? x : undefined;
  const [min, above, max, below] = [
    json.minimum,
    json.exclusiveMinimum,
    json.maximum,
    json.exclusiveMaximum,
  ].map(bound);
  const integer = json.type === 'integer';
  if (integer && (above === 0 || min === 1)) return withBounds('a positive integer', max, below);
  if (integer && min === 0) return withBounds('a non-negative integer', max, below);
  if (min !== undefined && max !== undefined)
    return `${integer ? 'an integer' : 'a number'} between ${min} and ${max}`;
  const lower = [min !== undefined && `>= ${min}`, above !== undefined && `> ${above}`].filter(Boolean);
  return withBounds(
    `${integer ? 'an integer' : 'a number'}${lower.length ? ` ${lower[0]}` : ''}`,
    max,
    below,
    lower.length > 0,
  );
}

function withBounds(head: string, max: number | undefined, below: number | undefined, and = false): string {
  const upper = max !== undefined ? `<= ${max}` : below !== undefined ? `< ${below}` : undefined;
  return upper === undefined ? head : `${head}${and ? ' and' : ''} ${upper}`;
}
