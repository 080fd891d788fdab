import { z } from 'zod';
import { InputError } from '../errors.js';

/**
 * What waver.yaml's `check:` section and the flags know of a threshold: its names, help, scopes
 * and value. Kept apart from the results types (check/types.ts) because the config schema is built
 * from these and must not import what imports the config.
 */
export interface ThresholdSpec {
  /** `min-stability`: its flag is `--min-stability`, and rows name it as their rule. */
  metric: string;
  /** Its key in the `check:` section: `minStability`. */
  configKey: string;
  /** How rows name the metric: `Stability` (`Stability SV` for a scope). */
  label: string;
  /** The flag's help. */
  help: string;
  value: ThresholdValue;
  /** What a rule may name instead of every scope; absent: the threshold takes a plain value. */
  scopes?: ThresholdScopes;
  /** How the rule reads in a row: `>= 0.8`, `no collapse at <= L2`. */
  describe(value: number): string;
}

export interface ThresholdScopes {
  /** What one is called in flag help and messages: `family`, `axis`. */
  noun: string;
  values: readonly [string, ...string[]];
}

/** A kind of threshold value: its schema in `check:`, and how a flag spells it. */
export interface ThresholdValue {
  /** The flag's value in its help: `X`, `LEVEL`. */
  placeholder: string;
  schema: z.ZodType<number>;
  /** A flag's text as a value; an InputError naming the flag when it is none. */
  parse(raw: string, flag: string): number;
}

export const SHARE: ThresholdValue = {
  placeholder: 'X',
  schema: z.number().min(0).max(1),
  parse(raw, flag) {
    const n = number(raw, flag);
    if (n < 0 || n > 1) throw new InputError(`expected a share in [0, 1], got '${raw}'`, { field: flag });
    return n;
  },
};

/** A ladder level 1..5; `L2` and `2` both work. */
export const LEVEL: ThresholdValue = {
  placeholder: 'LEVEL',
  schema: z.int().min(1).max(5),
  parse(raw, flag) {
    const level = Number(raw.replace(/^L/i, ''));
    if (!/^L?\d+$/i.test(raw) || level < 1 || level > 5)
      throw new InputError(`expected a level 1..5 (or L1..L5), got '${raw}'`, { field: flag });
    return level;
  },
};

export const NON_NEGATIVE: ThresholdValue = {
  placeholder: 'X',
  schema: z.number().min(0),
  parse(raw, flag) {
    const n = number(raw, flag);
    if (n < 0) throw new InputError(`expected a non-negative number, got '${raw}'`, { field: flag });
    return n;
  },
};

function number(raw: string, flag: string): number {
  const n = Number(raw);
  if (raw === '' || !Number.isFinite(n))
    throw new InputError(`expected a number, got '${raw}'`, { field: flag });
  return n;
}

export function flagOf(spec: Pick<ThresholdSpec, 'metric'>): string {
  return `--${spec.metric}`;
}

/** The check's own threshold: every suite with cells, whatever its protocol (docs/check.md#thresholds). */
export const MIN_COVERAGE: ThresholdSpec = {
  metric: 'min-coverage',
  configKey: 'minCoverage',
  label: 'coverage',
  help: 'minimum share of done cells per model, every suite with cells (plain ones too)',
  value: SHARE,
  describe: (v) => `>= ${v}`,
};
