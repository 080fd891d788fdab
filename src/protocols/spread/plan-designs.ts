import { InputError } from '../../errors.js';
import type { DesignContext, PlanDesign, PlanInput, PlanResult } from '../../plan/types.js';
import { normalQuantile } from '../../stats/normal.js';

/**
 * Spread's design of `waver plan` (docs/spread.md#plan): the templates x items a full grid needs
 * so that every quantile the run reports (5/25/50/75/95) of the accuracy over templates is known within `--width` (half-width at
 * 1 - alpha). Template accuracies are taken as normal around `--p` with sd `--sd` (the template
 * effect). Two errors share the width equally: which templates were drawn (the sample quantile's
 * standard error, sqrt(q(1-q)/T) / density) and how many items measure each (the binomial noise
 * sqrt(p(1-p)/I), which also widens the observed spread by sqrt(sd^2 + p(1-p)/I) - sd at the
 * quantile's z).
 */

const phi = (z: number) => Math.exp(-(z * z) / 2) / Math.sqrt(2 * Math.PI);

export interface QuantileDesign {
  templates: number;
  items: number;
}

export function quantileDesign(opts: {
  p: number;
  sd: number;
  width: number;
  q: number;
  alpha: number;
}): QuantileDesign {
  const { p, sd, width, q, alpha } = opts;
  const z = normalQuantile(1 - alpha / 2);
  const share = width / Math.SQRT2;
  const zq = normalQuantile(q);
  const templates = Math.ceil((q * (1 - q) * (z * sd) ** 2) / (phi(zq) ** 2 * share ** 2));
  const noise = p * (1 - p);
  const byPrecision = Math.ceil((noise * z * z) / (share * share));
  // The widening of the observed spread at z_q: |zq| (sqrt(sd^2 + noise/I) - sd) <= share.
  const target = sd + share / Math.max(Math.abs(zq), 1e-9);
  const byBias = Math.abs(zq) < 1e-9 ? 1 : Math.ceil(noise / (target * target - sd * sd));
  return { templates: Math.max(2, templates), items: Math.max(byPrecision, byBias) };
}

function spreadQuantilePlan(input: PlanInput, { head }: DesignContext): PlanResult {
  const p = input.p?.[0];
  if (p === undefined || !(p > 0 && p < 1))
    throw new InputError('spread-quantiles needs --p, the mean accuracy over templates (0-1)', {
      field: 'p',
    });
  if (input.sd === undefined || !(input.sd > 0))
    throw new InputError('spread-quantiles needs --sd, the sd of the template accuracies (e.g. 0.08)', {
      field: 'sd',
    });
  if (input.width === undefined)
    throw new InputError('spread-quantiles needs --width, the half-width wanted of the quantile', {
      field: 'width',
    });
  const q = input.level ?? 0.05;
  if (!(q > 0 && q < 1))
    throw new InputError('--level is the quantile for spread-quantile (0-1)', { field: 'level' });
  const d = quantileDesign({ p, sd: input.sd, width: input.width, q, alpha: head.alpha });
  return {
    ...head,
    method: `normal template accuracies: the sample ${q} quantile's standard error sqrt(q(1-q)/T)/density and the binomial noise of I items, each given width/sqrt(2)`,
    n: d.templates * d.items,
    unit: 'cells (templates x items, the full grid)',
    details: { templates: d.templates, items: d.items, quantile: q, p, sd: input.sd, width: input.width },
  };
}

export const SPREAD_DESIGNS: readonly PlanDesign[] = [{ name: 'spread-quantiles', plan: spreadQuantilePlan }];
