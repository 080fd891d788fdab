import { z } from 'zod';
import { FAMILIES } from '../protocols/ladder/types.js';
import { SAGO_AXES } from '../protocols/sago/metrics.js';

/**
 * The `check:` section of waver.yaml: the thresholds `waver check` gates on (docs/check.md).
 * Kept free of the top-level schema: schema.ts imports this, so it must not import schema.ts.
 * A number applies to every family (axis) the store has; a map names families (axes) one by one.
 */

const share = z.number().min(0).max(1);
const level = z.int().min(1).max(5);

export const CheckConfig = z
  .object({
    /** Minimum Stability (ladder) per family: `0.8` for every family, or `{ SV: 0.8, CL: 0.7 }`. */
    minStability: z.union([share, z.partialRecord(z.enum(FAMILIES), share)]).optional(),
    /** No Collapse Point at or below this level (ladder): `2` for every family, or `{ SV: 2 }`. */
    noCollapseAtOrBelow: z.union([level, z.partialRecord(z.enum(FAMILIES), level)]).optional(),
    /** Minimum Stability-Adjusted Accuracy (paraphrase). */
    minSaa: share.optional(),
    /** Maximum SGS (sago, all prompts pooled) per axis: `0.1` for every axis, or `{ bleu: 0.1 }`. */
    maxSgs: z.union([z.number().min(0), z.partialRecord(z.enum(SAGO_AXES), z.number().min(0))]).optional(),
    /** Minimum share of a model's cells that are done, for every protocol in the store. */
    minCoverage: share.optional(),
    /** A metric a model lacks passes instead of failing. */
    allowUnavailable: z.boolean().optional(),
    /** Significance level of `--compare`. */
    alpha: z.number().gt(0).lt(1).optional(),
  })
  .strict();

export type CheckConfig = z.infer<typeof CheckConfig>;
