import { type Command, Help, type Option } from 'commander';

/**
 * One help and one parse error for every command (issue 37 item 7): defaults and choices printed
 * as typed (`(default: 8080)`, not `"8080"`; an empty list not at all), every item wrapped to the
 * terminal's width (80 columns when stdout is not a terminal, commander's own), a flag too long
 * for the column on its own line; and an unquoted list split by a space (`--models A, B`) named,
 * with the fix, where commander says only "too many arguments". Commands added with addCommand
 * inherit neither, so each command gets them.
 */
export function consistentHelp(cmd: Command): void {
  cmd.configureHelp({ optionDescription, formatItem });
  cmd.configureOutput({ outputError: (text, write) => write(splitListHint(cmd, text) ?? text) });
  for (const sub of cmd.commands) consistentHelp(sub);
}

function optionDescription(option: Option): string {
  const extra: string[] = [];
  if (option.argChoices) extra.push(`choices: ${option.argChoices.join(', ')}`);
  const d: unknown = option.defaultValue;
  const shown = option.required || option.optional || (option.isBoolean() && typeof d === 'boolean');
  if (d !== undefined && shown && !(Array.isArray(d) && d.length === 0))
    extra.push(`default: ${option.defaultValueDescription ?? (Array.isArray(d) ? d.join(',') : String(d))}`);
  if (option.envVar !== undefined) extra.push(`env: ${option.envVar}`);
  return extra.length === 0 ? option.description : `${option.description} (${extra.join(', ')})`.trimStart();
}

/**
 * Commander's item, with the description column capped so at least `minWidthToWrap` columns are
 * left to wrap it in (it wraps nothing narrower): a term longer than the column goes on a line of
 * its own, its description below, aligned with the others.
 */
function formatItem(this: Help, term: string, termWidth: number, description: string, helper: Help): string {
  const width = helper.helpWidth ?? 80;
  // Two columns of indent, two between term and description.
  const column = Math.min(termWidth, width - 4 - helper.minWidthToWrap);
  if (column >= termWidth || column < 8 || !description)
    return Help.prototype.formatItem.call(this, term, termWidth, description, helper);
  if (helper.displayWidth(term) <= column)
    return Help.prototype.formatItem.call(this, term, column, description, helper);
  const below = Help.prototype.formatItem.call(this, '', column, description, helper);
  return `  ${term}\n${below}`;
}

/**
 * "too many arguments" where an option's value ends with a comma: a list typed with a space after
 * a comma, which the shell split in two (`--models A, B`). Undefined for any other error.
 */
function splitListHint(cmd: Command, text: string): string | undefined {
  if (!text.includes('too many arguments')) return undefined;
  const stray = cmd.args.filter((a) => !a.startsWith('-'));
  for (const option of cmd.options) {
    const value: unknown = cmd.getOptionValue(option.attributeName());
    if (typeof value !== 'string' || !value.trimEnd().endsWith(',')) continue;
    const flag = option.long ?? option.flags;
    const joined = [value.trimEnd(), ...stray].join('');
    return `error: ${flag} '${value}' ends with a comma and ${stray.map((a) => `'${a}'`).join(', ')} came as another argument: a list is one argument, without spaces after its commas: ${flag} "${joined}" or ${flag} ${joined}\n`;
  }
  return `error: unexpected argument${stray.length === 1 ? '' : 's'} ${stray.map((a) => `'${a}'`).join(', ')} for '${cmd.name()}' (it takes flags only): a value with spaces needs quotes\n`;
}
