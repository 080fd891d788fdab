/**
 * SAGO's axes, their scales and headings, and the defaults its settings declare: names and numbers
 * only, so the config schema (loaded by every command) does not load the metrics.
 */

export const SAGO_AXES = [
  'activation',
  'bleu',
  'bertscore',
  'cosine',
  'logprob',
  'entropy',
  'mirroring',
] as const;
export type SagoAxis = (typeof SAGO_AXES)[number];

/**
 * R per axis (docs/method.md: activation 2, BLEU 100, BERTScore 1, log-prob 250, entropy 10, mirroring 1).
 * `cosine` (pooled-embedding cosine of the responses, waver's own axis) ranges over [-1, 1] like
 * activation, so its R is 2.
 */
export const AXIS_SCALE: Readonly<Record<SagoAxis, number>> = {
  activation: 2,
  bleu: 100,
  bertscore: 1,
  cosine: 2,
  logprob: 250,
  entropy: 10,
  mirroring: 1,
};

/** Column headings as in the paper's tables. */
export const AXIS_HEADING: Readonly<Record<SagoAxis, string>> = {
  activation: 'Δ-Cos',
  bleu: 'Δ-BLEU',
  bertscore: 'Δ-BERT',
  cosine: 'Δ-EmbCos',
  logprob: 'Δ-Prob',
  entropy: 'Δ-Ent',
  mirroring: 'Δ-MR',
};

export const DEFAULT_EPSILONS: readonly number[] = [0.01, 0.05, 0.1];
export const PRIMARY_EPSILON = 0.05;

export const ABLATION_SIZES: readonly number[] = [4, 8, 16, 32, 64, 128];
export const ABLATION_DRAWS = 500;
