/**
 * The estimators `spread.estimator` names (docs/spread.md#estimators): names only, so the config
 * schema (loaded by every command) does not load the estimators.
 */
export const SPREAD_ESTIMATORS = ['deconvolved', 'prompteval', 'full-grid'] as const;
export type SpreadEstimator = (typeof SPREAD_ESTIMATORS)[number];
