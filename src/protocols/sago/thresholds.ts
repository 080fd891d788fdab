import { NON_NEGATIVE, type ThresholdSpec } from '../../check/threshold-spec.js';
import { SAGO_AXES } from './constants.js';

/** What `waver check` can gate on for SAGO (docs/check.md#thresholds); check.ts evaluates it. */
export const MAX_SGS: ThresholdSpec = {
  metric: 'max-sgs',
  configKey: 'maxSgs',
  label: 'SGS',
  help: 'maximum SAGO SGS (all prompts), per axis (bleu=0.1) or every axis',
  value: NON_NEGATIVE,
  scopes: { noun: 'axis', values: SAGO_AXES },
  describe: (v) => `<= ${v}`,
};

export const SAGO_THRESHOLDS: readonly ThresholdSpec[] = [MAX_SGS];
