import { LEVEL, SHARE, type ThresholdScopes, type ThresholdSpec } from '../../check/threshold-spec.js';
import { familyCodes } from './families/roster.js';
import type { Family } from './types.js';

/**
 * What `waver check` can gate on for the ladder (docs/check.md#thresholds), without the code that
 * evaluates it (check.ts): the config schema and the CLI's flags are made from these alone.
 */

/** Every family known when a threshold is read: a flag's scope names a registered one too. */
const families: ThresholdScopes = {
  noun: 'family',
  get values() {
    return familyCodes() as [Family, ...Family[]];
  },
};

export const MIN_STABILITY: ThresholdSpec = {
  metric: 'min-stability',
  configKey: 'minStability',
  label: 'Stability',
  help: 'minimum ladder Stability, per family (SV=0.8) or every family (0.8)',
  value: SHARE,
  scopes: families,
  describe: (v) => `>= ${v}`,
};

export const NO_COLLAPSE_AT_OR_BELOW: ThresholdSpec = {
  metric: 'no-collapse-at-or-below',
  configKey: 'noCollapseAtOrBelow',
  label: 'Collapse Point',
  help: 'fail on a ladder Collapse Point at or below this level',
  value: LEVEL,
  scopes: families,
  describe: (v) => `no collapse at <= L${v}`,
};

export const LADDER_THRESHOLDS: readonly ThresholdSpec[] = [MIN_STABILITY, NO_COLLAPSE_AT_OR_BELOW];
