import { InputError } from '../errors.js';
import { FAMILIES, type Family } from '../protocols/ladder/types.js';
import { SAGO_AXES, type SagoAxis } from '../protocols/sago/metrics.js';
import type { CheckConfig } from './config.js';

/**
 * Thresholds as one flat list of rules, whether they came from waver.yaml's `check:` section or
 * from flags. A rule's scope is a family (ladder), an axis (sago) or `*` (every family or axis the
 * store has). Flags for a metric replace that metric's config entirely (docs/check.md#thresholds).
 */

export type ThresholdMetric =
  | 'min-stability'
  | 'no-collapse-at-or-below'
  | 'min-saa'
  | 'max-sgs'
  | 'min-coverage';

export interface ThresholdRule {
  metric: ThresholdMetric;
  /** A ladder family, a sago axis, or `*`. Always `*` for SAA and coverage. */
  scope: '*' | Family | SagoAxis;
  /** A share, a level (collapse) or an SGS bound. */
  value: number;
}

export const METRIC_FLAGS: Record<ThresholdMetric, string> = {
  'min-stability': '--min-stability',
  'no-collapse-at-or-below': '--no-collapse-at-or-below',
  'min-saa': '--min-saa',
  'max-sgs': '--max-sgs',
  'min-coverage': '--min-coverage',
};

/** Rules from the `check:` section. */
export function rulesFromConfig(check: CheckConfig | undefined): ThresholdRule[] {
  if (!check) return [];
  const out: ThresholdRule[] = [];
  const scoped = (metric: ThresholdMetric, v: number | Partial<Record<string, number>> | undefined) => {
    if (v === undefined) return;
    if (typeof v === 'number') out.push({ metric, scope: '*', value: v });
    else
      for (const [scope, value] of Object.entries(v))
        if (value !== undefined) out.push({ metric, scope: scope as ThresholdRule['scope'], value });
  };
  scoped('min-stability', check.minStability);
  scoped('no-collapse-at-or-below', check.noCollapseAtOrBelow);
  if (check.minSaa !== undefined) out.push({ metric: 'min-saa', scope: '*', value: check.minSaa });
  scoped('max-sgs', check.maxSgs);
  if (check.minCoverage !== undefined)
    out.push({ metric: 'min-coverage', scope: '*', value: check.minCoverage });
  return out;
}

/** The rules in force: config rules, with every metric given by a flag replaced by the flag's rules. */
export function mergeRules(
  fromConfig: readonly ThresholdRule[],
  fromFlags: readonly ThresholdRule[],
): ThresholdRule[] {
  const flagged = new Set(fromFlags.map((r) => r.metric));
  return [...fromConfig.filter((r) => !flagged.has(r.metric)), ...fromFlags];
}

/**
 * Parses one flag's values (repeatable, each possibly comma-separated): `0.8`, `SV=0.8`,
 * `SV=0.8,CL=0.7`, `all=0.8`. Bad input is an InputError naming the flag.
 */
export function parseRuleFlag(metric: ThresholdMetric, values: readonly string[]): ThresholdRule[] {
  const flag = METRIC_FLAGS[metric];
  const scopes: readonly string[] =
    metric === 'min-stability' || metric === 'no-collapse-at-or-below'
      ? FAMILIES
      : metric === 'max-sgs'
        ? SAGO_AXES
        : [];
  const out: ThresholdRule[] = [];
  for (const part of values.flatMap((v) => v.split(',')).map((s) => s.trim())) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    let scope = '*';
    let raw = part;
    if (eq >= 0) {
      scope = part.slice(0, eq).trim();
      raw = part.slice(eq + 1).trim();
      if (scopes.length === 0) throw new InputError(`takes a plain number, got '${part}'`, { field: flag });
      if (scope === 'all') scope = '*';
      else {
        // Families are upper case (SV), axes lower case (bleu): accept either spelling.
        const match = scopes.find((s) => s.toLowerCase() === scope.toLowerCase());
        if (!match)
          throw new InputError(
            `unknown ${metric === 'max-sgs' ? 'axis' : 'family'} '${scope}' (one of ${scopes.join(', ')}, or all)`,
            {
              field: flag,
            },
          );
        scope = match;
      }
    }
    out.push({ metric, scope: scope as ThresholdRule['scope'], value: parseValue(metric, raw, flag) });
  }
  if (out.length === 0) throw new InputError('expected a value', { field: flag });
  return out;
}

function parseValue(metric: ThresholdMetric, raw: string, flag: string): number {
  if (metric === 'no-collapse-at-or-below') {
    const level = Number(raw.replace(/^L/i, ''));
    if (!/^L?\d+$/i.test(raw) || level < 1 || level > 5)
      throw new InputError(`expected a level 1..5 (or L1..L5), got '${raw}'`, { field: flag });
    return level;
  }
  const n = Number(raw);
  if (raw === '' || !Number.isFinite(n))
    throw new InputError(`expected a number, got '${raw}'`, { field: flag });
  if (metric === 'max-sgs') {
    if (n < 0) throw new InputError(`expected a non-negative number, got '${raw}'`, { field: flag });
    return n;
  }
  if (n < 0 || n > 1) throw new InputError(`expected a share in [0, 1], got '${raw}'`, { field: flag });
  return n;
}

/** How a rule reads in a table: `Stability SV >= 0.8`, `no Collapse Point <= L2`. */
export function describeThreshold(rule: Pick<ThresholdRule, 'metric' | 'value'>): string {
  switch (rule.metric) {
    case 'min-stability':
    case 'min-saa':
    case 'min-coverage':
      return `>= ${rule.value}`;
    case 'max-sgs':
      return `<= ${rule.value}`;
    case 'no-collapse-at-or-below':
      return `no collapse at <= L${rule.value}`;
  }
}
