import { SHARE, type ThresholdSpec } from '../../check/threshold-spec.js';

/** What `waver check` can gate on for spread (docs/check.md#thresholds); check.ts evaluates it. */
export const MAX_SPREAD: ThresholdSpec = {
  metric: 'max-spread',
  configKey: 'maxSpread',
  label: 'spread',
  help: 'maximum spread (best - worst template accuracy) of a spread run',
  value: SHARE,
  describe: (v) => `<= ${v}`,
};

export const MIN_P5: ThresholdSpec = {
  metric: 'min-p5',
  configKey: 'minP5',
  label: '5th percentile',
  help: "minimum 5th percentile of a spread run's accuracy over templates",
  value: SHARE,
  describe: (v) => `>= ${v}`,
};

export const SPREAD_THRESHOLDS: readonly ThresholdSpec[] = [MAX_SPREAD, MIN_P5];
