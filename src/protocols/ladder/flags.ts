import type { Command } from 'commander';
import { fieldMap, positiveInt, splitList } from '../../command-kit/options.js';
import { InputError } from '../../errors.js';
import type { LadderConfigInput } from './config.js';
import { FAMILIES, type Family, LEVELS, type Level } from './types.js';

/** `--fields` help: the names the ladder maps (docs/datasets.md#fields). */
export const LADDER_FIELDS_HELP =
  'which record fields hold a seed, e.g. question=problem,answer=solution (names: question, answer, gold, id)';

interface LadderFlags {
  seeds?: string;
  families?: string;
  levels?: string;
  answerFormat?: 'json' | 'hashes';
  generate?: 'rules' | 'model';
  judgeThreshold?: string;
  maxTokens?: string;
  fields?: string;
}

/**
 * The `ladder:` fields a command's flags set, for `waver ladder` and `waver suite build` alike (a
 * flag the command lacks is simply not given). Which generator builds the suite: `--generate`,
 * else `model` when `--generator SPEC` is typed (see suiteGenerator).
 */
export function ladderFlags(cmd: Command): LadderConfigInput {
  const o = cmd.opts<LadderFlags>();
  const generatorTyped = cmd.getOptionValueSource('generator') === 'cli';
  const generator = o.generate ?? (generatorTyped ? 'model' : undefined);
  return {
    ...(o.seeds !== undefined && { seeds: positiveInt(o.seeds, '--seeds') }),
    ...(o.families !== undefined && { families: parseFamilies(o.families) }),
    ...(o.levels !== undefined && { levels: parseLevels(o.levels) }),
    ...(o.answerFormat !== undefined && { answerFormat: o.answerFormat }),
    ...(generator !== undefined && { generator }),
    // The common --max-tokens is the SUT's cap here: the ladder's own default (768/900) is not params'.
    ...(o.maxTokens !== undefined && { maxTokens: positiveInt(o.maxTokens, '--max-tokens') }),
    ...(o.fields !== undefined && { fields: fieldMap(o.fields, '--fields') }),
    ...(o.judgeThreshold !== undefined && {
      kbRecognizeThreshold: unitNumber(o.judgeThreshold, '--judge-threshold'),
    }),
  };
}

/** `SV,IQ` -> families; an unknown one is an InputError naming the flag and the value. */
export function parseFamilies(value: string): Family[] {
  const list = splitList(value);
  if (list.length === 0) throw new InputError('no family given', { field: '--families' });
  for (const f of list)
    if (!(FAMILIES as readonly string[]).includes(f))
      throw new InputError(`unknown family '${f}' (expected some of ${FAMILIES.join(', ')})`, {
        field: '--families',
      });
  return list as Family[];
}

/** `1,2` -> levels; anything but 1..5 is an InputError naming the flag and the value. */
export function parseLevels(value: string): Level[] {
  const list = splitList(value);
  if (list.length === 0) throw new InputError('no level given', { field: '--levels' });
  return list.map((s) => {
    const n = Number(s);
    if (!/^\d+$/.test(s) || !(LEVELS as readonly number[]).includes(n))
      throw new InputError(`unknown level '${s}' (expected some of ${LEVELS.join(', ')})`, {
        field: '--levels',
      });
    return n as Level;
  });
}

function unitNumber(value: string, flag: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1)
    throw new InputError(`expected a number between 0 and 1, got '${value}'`, { field: flag });
  return n;
}
