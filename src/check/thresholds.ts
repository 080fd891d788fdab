import { InputError } from '../errors.js';
import type { CheckConfig } from './config.js';
import { flagOf, type ThresholdSpec } from './threshold-spec.js';
import type { ThresholdRule } from './types.js';

/**
 * Thresholds as one flat list of rules, whether they came from waver.yaml's `check:` section or
 * from flags. A rule's scope is one of its threshold's scopes or `*` (every scope the results
 * have). Flags for a metric replace that metric's config entirely (docs/check.md#thresholds).
 */

/** Rules from the `check:` section, in the order of the specs. */
export function rulesFromConfig(
  check: CheckConfig | undefined,
  specs: readonly ThresholdSpec[],
): ThresholdRule[] {
  if (!check) return [];
  const out: ThresholdRule[] = [];
  for (const { metric, configKey } of specs) {
    const v = check[configKey] as number | Partial<Record<string, number>> | undefined;
    if (v === undefined) continue;
    if (typeof v === 'number') out.push({ metric, scope: '*', value: v });
    else
      for (const [scope, value] of Object.entries(v))
        if (value !== undefined) out.push({ metric, scope, value });
  }
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
export function parseRuleFlag(spec: ThresholdSpec, values: readonly string[]): ThresholdRule[] {
  const flag = flagOf(spec);
  const out: ThresholdRule[] = [];
  for (const part of values.flatMap((v) => v.split(',')).map((s) => s.trim())) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    let scope = '*';
    let raw = part;
    if (eq >= 0) {
      scope = part.slice(0, eq).trim();
      raw = part.slice(eq + 1).trim();
      if (!spec.scopes) throw new InputError(`takes a plain number, got '${part}'`, { field: flag });
      if (scope === 'all') scope = '*';
      else {
        // Scopes are matched in any case: families are spelt SV, axes bleu.
        const { noun, values: scopes } = spec.scopes;
        const match = scopes.find((s) => s.toLowerCase() === scope.toLowerCase());
        if (!match)
          throw new InputError(`unknown ${noun} '${scope}' (one of ${scopes.join(', ')}, or all)`, {
            field: flag,
          });
        scope = match;
      }
    }
    out.push({ metric: spec.metric, scope, value: spec.value.parse(raw, flag) });
  }
  if (out.length === 0) throw new InputError('expected a value', { field: flag });
  return out;
}

/** How a rule's metric reads in a row: the label, and the scope when the rule names one. */
export function metricName(spec: Pick<ThresholdSpec, 'label'>, scope: string | undefined): string {
  return scope === undefined || scope === '*' ? spec.label : `${spec.label} ${scope}`;
}
