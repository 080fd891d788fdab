import { z } from 'zod';
import { ADJUSTMENTS, type Adjustment } from '../stats/multiplicity.js';
import { MIN_COVERAGE, type ThresholdSpec } from './threshold-spec.js';

/**
 * The `check:` section of waver.yaml (docs/check.md): one key per threshold of the protocols it is
 * built from, plus the check's own. A scoped threshold takes a number for every scope the store
 * has, or a map naming scopes one by one: `minStability: 0.8` or `{ SV: 0.8, CL: 0.7 }`.
 * It reads only the protocols' threshold specs, so that the config schema can import it without
 * the results loaders.
 */
export function checkConfigSchema(
  protocols: readonly { readonly thresholds: readonly ThresholdSpec[] }[],
): z.ZodType<CheckConfig, CheckConfig> {
  const shape: Record<string, z.ZodType> = {};
  for (const spec of [...protocols.flatMap((p) => p.thresholds), MIN_COVERAGE]) {
    const value = spec.value.schema;
    shape[spec.configKey] = (
      spec.scopes ? z.union([value, z.partialRecord(z.enum(spec.scopes.values), value)]) : value
    ).optional();
  }
  return z
    .object({
      ...shape,
      /** A metric a model lacks passes instead of failing. */
      allowUnavailable: z.boolean().optional(),
      /** Significance level of `--compare`. */
      alpha: z.number().gt(0).lt(1).optional(),
      /** Non-inferiority margin of `--compare`. */
      margin: z.number().gt(0).lt(1).optional(),
      /** Adjustment of `--compare`'s p-values over all pairs and the families. */
      adjust: z.enum(ADJUSTMENTS).optional(),
      /** What `--compare` pairs: `accuracy` (default) or a protocol's measure (`saa`). */
      metric: z.string().min(1).optional(),
    })
    .strict() as unknown as z.ZodType<CheckConfig, CheckConfig>;
}

/** What the section holds, typed loosely: its threshold keys are the protocols'. */
export interface CheckConfig {
  /** A threshold by its `configKey`: a value, or values by scope. */
  [configKey: string]: number | Partial<Record<string, number>> | boolean | string | undefined;
  allowUnavailable?: boolean;
  alpha?: number;
  margin?: number;
  adjust?: Adjustment;
  metric?: string;
}

declare module '../config/schema.js' {
  interface ConfigSections {
    /** `waver check` thresholds (docs/check.md), as written. */
    check?: CheckConfig;
  }
}
