import { SHARE, type ThresholdSpec } from '../../check/threshold-spec.js';

/** What `waver check` can gate on for paraphrase (docs/check.md#thresholds); check.ts evaluates it. */
export const MIN_SAA: ThresholdSpec = {
  metric: 'min-saa',
  configKey: 'minSaa',
  label: 'SAA',
  help: 'minimum paraphrase Stability-Adjusted Accuracy',
  value: SHARE,
  describe: (v) => `>= ${v}`,
};

export const PARAPHRASE_THRESHOLDS: readonly ThresholdSpec[] = [MIN_SAA];
