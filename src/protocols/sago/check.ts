import type { CheckProtocol, Measurement, ThresholdDef } from '../../check/types.js';
import { clusterBootstrap } from '../../stats/bootstrap.js';
import { deriveSeed } from '../../util/random.js';
import { SAGO_AXES, type SagoAxis } from './constants.js';
import { latestManifest } from './manifest.js';
import { perPromptInstability } from './metrics.js';
import { loadSagoResults, RESPONSES_SUITE, type SagoModelResults, type SagoResults } from './results.js';
import { MAX_SGS } from './thresholds.js';

/**
 * What `waver check` gates on for SAGO (docs/check.md#thresholds): the SGS over all prompts per
 * axis. Its answers have no correctness, so it has no paired comparison.
 */

const maxSgs: ThresholdDef<SagoResults> = {
  ...MAX_SGS,
  evaluate(results, rule, ctx) {
    const axes =
      rule.scope === '*'
        ? SAGO_AXES.filter((a) => results.models.some((m) => m.table.deltas[a] !== undefined))
        : [rule.scope as SagoAxis];
    return results.models.flatMap((m) => axes.map((axis) => sgs(m, axis, rule.value, ctx.config.seed)));
  },
};

/**
 * SGS over all prompts (the `total` scope) with a percentile CI from resampling prompts: the SGS is
 * the mean of per-prompt instabilities s(i), so prompts are the units (docs/check.md#sgs-ci).
 */
function sgs(m: SagoModelResults, axis: SagoAxis, bound: number, seed: number): Measurement {
  const base = { model: m.model.label, identity: m.model.identity, scope: axis, over: 'prompts' };
  const deltas = m.table.deltas[axis];
  const status = m.axes[axis];
  if (!deltas)
    return {
      ...base,
      n: 0,
      unavailable: status?.available === false ? (status.reason ?? 'axis unavailable') : 'axis not computed',
    };
  const score = m.scores.find((s) => s.scope === 'total')?.axes[axis];
  if (!score || score.sgs === undefined)
    return { ...base, n: 0, unavailable: score?.untested ?? 'no prompt has a value' };
  const s = Array.from(perPromptInstability(m.table, axis, deltas)).filter((x) => !Number.isNaN(x));
  const mean = (xs: readonly number[]) =>
    xs.length === 0 ? undefined : xs.reduce((a, b) => a + b, 0) / xs.length;
  const boot = clusterBootstrap(s, mean, { seed: deriveSeed(seed, 'check-sgs', m.model.identity, axis) });
  return {
    ...base,
    value: score.sgs,
    ...(boot.low !== undefined && { low: boot.low }),
    ...(boot.high !== undefined && { high: boot.high }),
    ci: `95% bootstrap over ${score.n} prompts`,
    n: score.n,
    ...(score.sgs > bound && { failure: 'above threshold' }),
  };
}

export const sagoCheck: CheckProtocol<SagoResults> = {
  protocol: 'sago',
  suiteName: RESPONSES_SUITE,
  // Without its manifest a sago suite's results cannot be rebuilt.
  usable: (store, suiteHash) => latestManifest(store, suiteHash) !== undefined,
  // Ablations are not gated on: skip their cost.
  load: (store, suiteHash) => loadSagoResults(store, suiteHash, { ablations: false }),
  thresholds: [maxSgs],
};
